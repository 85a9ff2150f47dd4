// Axis-aligned bounds of a geometry at its world pose (the broad phase's
// boxes), tight for each primitive: with R the pose's rotation and a its
// axis (column 3),
//   sphere    r
//   capsule   |a_i| l/2 + r
//   box       sum_j |R_ij| h_j
//   cylinder  |a_i| l/2 + r sqrt(1 - a_i^2)   (a disc's extent along axis i)
//   convex    max over the hull's vertices v of |R_i . v|
// each widened by the margin. A plane has no bounds (its half-extent is
// Infinity): the broad phase pairs it with everything.
import { type CollisionShape, hullOfShape } from './shapes.ts';

// (out (stride 6: min x y z, max x y z), at, shape, poses (stride 12), its pose index, margin) => out
export function boundsOf(out: Float64Array, at: number, shape: CollisionShape, pose: ArrayLike<number>, p: number, margin: number): Float64Array {
  for (let i = 0; i < 3; i++) {
    const e = halfExtent(shape, pose, p, i) + margin;
    out[at + i] = pose[p + 9 + i] - e;
    out[at + 3 + i] = pose[p + 9 + i] + e;
  }
  return out;
}

function halfExtent(s: CollisionShape, pose: ArrayLike<number>, p: number, i: number): number {
  const ai = Math.abs(pose[p + 3 * i + 2]);
  switch (s.type) {
    case 'sphere':
      return s.radius;
    case 'capsule':
      return (ai * s.length) / 2 + s.radius;
    case 'box':
      return (Math.abs(pose[p + 3 * i]) * s.size[0] + Math.abs(pose[p + 3 * i + 1]) * s.size[1] + ai * s.size[2]) / 2;
    case 'cylinder':
      return (ai * s.length) / 2 + s.radius * Math.sqrt(Math.max(0, 1 - ai * ai));
    case 'plane':
      return Infinity;
    case 'convex': {
      const v = hullOfShape(s).vertices;
      let e = 0;
      for (let k = 0; k < v.length; k += 3) e = Math.max(e, Math.abs(pose[p + 3 * i] * v[k] + pose[p + 3 * i + 1] * v[k + 1] + pose[p + 3 * i + 2] * v[k + 2]));
      return e;
    }
  }
}
