// The trees the generated mass matrix and derivatives are tested on: the
// PUMA 560 (model module and URDF), MuJoCo Menagerie's KUKA iiwa 14 (7 dof,
// MJCF, limits and friction off: smooth dynamics), the humanoid of
// mechanisms/ (32 coordinates, a branched tree: two legs, a spine, two
// arms, a neck) and a chain, beside the seeded random trees of cases.ts.
import { readFileSync } from 'node:fs';
import chain from '../../mechanisms/chain.ts';
import humanoid from '../../mechanisms/humanoid.ts';
import puma560 from '../../mechanisms/puma560.ts';
import { Actuator, type ActuatorOptions, type Mechanism, type OneDofJoint } from '../../src/library/multibody/index.ts';
import { prng, randomTree } from '../multibody/random-tree.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import { loadUrdf } from '../../src/node/urdf-file.ts';

export interface Tree {
  name: string;
  build: () => Mechanism;
}

export const iiwaXml = (): string => readFileSync(new URL('../io/fixtures/mjcf/iiwa14.xml', import.meta.url), 'utf8');
export const iiwa = (): Mechanism => mjcfMechanism(parseMjcf(iiwaXml(), 'iiwa14.xml'), { limitsAndFriction: false }).mechanism;

export const trees: Tree[] = [
  { name: 'PUMA 560', build: () => puma560() },
  { name: 'PUMA 560 from URDF', build: () => loadUrdf(new URL('../../mechanisms/puma560.urdf', import.meta.url).pathname).mechanism },
  { name: 'KUKA iiwa 14 from MJCF (7 dof)', build: iiwa },
  { name: 'humanoid (32 joint coordinates, branched)', build: () => humanoid() },
  { name: 'chain n = 8', build: () => chain({ n: 8 }) },
];

/** a position servo (MuJoCo's <position>: kp ctrl - kp q - kv qd) on the named joint of a mechanism */
export function servo(mech: Mechanism, joint: string, kp: number, kv: number, options: Partial<ActuatorOptions> = {}): OneDofJoint {
  const j = mech.children.find((c) => c.localName === joint) as OneDofJoint;
  const a = mech.add(new Actuator(`servo_${joint}`, { length: j.q, velocity: j.qd, gain: [kp, 0, 0], bias: [0, -kp, -kv], ...options }));
  j.applyForce(a.force);
  return j;
}

/** a seeded random tree (springs and dampers, test/multibody/random-tree.ts) with servos on about a third of its joints */
export function withServos(seed: number, nb: number): Mechanism {
  const t = randomTree(seed, nb),
    rnd = prng(seed + 1);
  t.joints.forEach((j) => rnd() < 0.35 && servo(t.mechanism, j, 1 + 20 * rnd(), 2 * rnd()));
  return t.mechanism;
}
