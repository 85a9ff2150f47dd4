// src/bench/robots: the floating robots of the benchmark, the standard ones of
// the rbd-benchmarks suite (bench/robots/README.md: where they come from,
// their licences): HyQ, a quadruped of 12 joints, and Atlas, a humanoid of
// 30, each read from its URDF with its root link on a free joint (MuJoCo's
// freejoint), 12 + 6 and 30 + 6 degrees of freedom.
// Their joint limits and friction are left out: MuJoCo models both as
// constraints (the peer runs without constraints, mjcf.ts), Kron as a
// one-sided spring-damper and a tanh, so with them the two engines would
// integrate different models; the damping of <dynamics> is kept (both have it
// as -d qd). Without limits the random states of the tests and benchmarks may
// take any joint angle.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseUrdf, urdfMechanism } from '../io/urdf.ts';
import type { Mechanism } from '../library/multibody/index.ts';
import { PACKAGE_ROOT } from '../node/package.ts';

export type FloatingRobot = 'hyq' | 'atlas';

export const FLOATING_ROBOTS: readonly { name: FloatingRobot; title: string; joints: number }[] = [
  { name: 'hyq', title: 'HyQ', joints: 12 },
  { name: 'atlas', title: 'Atlas', joints: 30 },
];

/** bench/robots/<name>.urdf in the repository (not in the published package: the benchmark runs from a checkout) */
export const robotFile = (name: FloatingRobot): string => join(PACKAGE_ROOT, 'bench', 'robots', `${name}.urdf`);

// (robot) => its mechanism on a free joint <root link>_free, without joint limits and friction
export function floatingRobot(name: FloatingRobot): Mechanism {
  const robot = parseUrdf(readFileSync(robotFile(name), 'utf8'), `${name}.urdf`);
  robot.joints = robot.joints.map((j) => ({ ...j, limits: undefined, friction: 0 }));
  return urdfMechanism(robot, { floating: true }).mechanism;
}
