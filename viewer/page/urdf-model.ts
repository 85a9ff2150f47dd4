// A URDF robot's run posed in the page: the robot compiled here from its
// file (served beside the run by kron view robot.urdf).
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { compile } from '../../src/compile.ts';
import { parseUrdf, urdfMechanism } from '../../src/io/urdf.ts';
import { FreeJoint } from '../../src/library/multibody/free-joint.ts';

/**
 * A URDF robot's text as the compiled model of its run (gravity as
 * recorded; meshes do not matter for posing); floating (kron simulate
 * --floating) when the run has the free joint that --floating gives the root.
 */
export function compileUrdf(text: string, served: PlaybackRun): CompiledModel {
  const gravity = served.scene?.gravity;
  const robot = parseUrdf(text, served.source?.urdf ?? 'robot.urdf');
  const options = gravity ? { gravity } : {};
  const floating = urdfMechanism(robot, { ...options, floating: true }).mechanism;
  // the first free joint is the root's (urdfMechanism makes it before the URDF's joints)
  const root = floating.children.find((c) => c instanceof FreeJoint)?.path;
  const mechanism = served.scene?.joints.some((j) => j.name === root) ? floating : urdfMechanism(robot, options).mechanism;
  return compile(mechanism, { mode: 'torn' });
}
