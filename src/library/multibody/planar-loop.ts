// Is a kinematic loop planar? (loop's joints, start poses) => the common
// normal p of the planes it moves in, or undefined. A loop is planar when
// its revolutes share one axis p and its prismatic joints slide along the
// planes normal to p, with at least one revolute and two joints: then every
// motion of the loop turns its frames about p and moves them in the planes,
// and a planar cut (revolute.ts, prismatic.ts) needs only the constraints in
// the planes (a loop of parallel revolutes has 2 independent ones, not 5).
//
// The axes are compared world-resolved at the start pose (start-pose.ts): a
// fixed rotation between two of the loop's joints may then turn p into
// itself or -p (the loop stays planar) and nothing else, and every joint's
// motion keeps the comparison true at any other pose, since each turns the
// frames after it about p. Where the start pose is not known (a rigid
// component of the user's own), the structural rule: the axes in their
// frame_a coordinates, and no fixed rotation on the loop.
import { ModelError } from '../../errors.ts';
import type { Frame } from './frame.ts';
import type { Joint } from './joint.ts';
import { Prismatic } from './prismatic.ts';
import { Revolute } from './revolute.ts';
import { type Pose, apply, dot3 } from './start-pose.ts';

export interface LoopPlane {
  /** p in the frame_a coordinates of one of the loop's joints (unit) */
  normalIn(joint: Joint): number[];
}

const TOLERANCE = 1e-12;

/** the common normal of the loop's planes (header), or undefined; `rotated`: a fixed rotation sits on the loop */
export function loopPlane(joints: readonly Joint[], rotated: boolean, poses: ReadonlyMap<Frame, Pose> | undefined): LoopPlane | undefined {
  if (joints.length < 2 || !joints.every((j) => j instanceof Revolute || j instanceof Prismatic)) return undefined;
  const sliders = joints as readonly (Revolute | Prismatic)[];
  if (!poses && rotated) return undefined;
  const local = (j: Revolute | Prismatic) => j.axis.map((x) => x.value);
  const frameA = (j: Joint) => poses?.get(j.frame_a)?.R;
  if (poses && sliders.some((j) => !frameA(j))) return undefined;
  // world-resolved where the start pose is known, else in each joint's own frame_a coordinates
  const axis = (j: Revolute | Prismatic) => (poses ? apply(frameA(j)!, local(j)) : local(j));
  const first = sliders.find((j) => j instanceof Revolute);
  if (!first) return undefined;
  const p = axis(first);
  const planar = sliders.every((j) => {
    const c = Math.abs(dot3(axis(j), p));
    return j instanceof Revolute ? Math.abs(c - 1) < TOLERANCE : c < TOLERANCE;
  });
  if (!planar) return undefined;
  return { normalIn: (j) => (poses ? apply(transpose(frameA(j)!), p) : p) };
}

const transpose = (R: number[][]): number[][] => [0, 1, 2].map((i) => [R[0][i], R[1][i], R[2][i]]);

/** a prismatic marked { cut: 'planar' } on a loop that is not planar */
export function notPlanar(joint: Prismatic, loopNames: string): never {
  throw new ModelError(`joint ${joint.path} is marked { cut: 'planar' }, but its kinematic loop (${loopNames}) is not planar`, {
    component: joint.path,
    hint: 'a planar loop has revolutes with one common axis and prismatic joints that slide along the planes normal to it; mark the joint { cut: true } for a spatial loop',
  });
}
