// (mass, inertia about the centre of mass) => the equivalent inertia box: the
// solid box of the same mass whose inertia equals the body's, aligned with
// its principal axes. A body given only by mass and inertia (the PUMA's
// links) then shows its size and orientation: a long light link is a long
// thin box, not a ball.
//
// For a box of sides a, b, c along the principal axes 1, 2, 3:
//   I1 = m (b² + c²) / 12,  I2 = m (a² + c²) / 12,  I3 = m (a² + b²) / 12
// so that
//   a = sqrt(6 (I2 + I3 - I1) / m),  b = sqrt(6 (I1 + I3 - I2) / m),  c = sqrt(6 (I1 + I2 - I3) / m)
// (real for any rigid body: the triangle inequality of the principal moments).
import { quat } from 'gl-matrix';
import { symmetricEigen3 } from '../library/multibody/jacobi.ts';
import type { Vec3Tuple } from './types.ts';

export type Inertia = readonly (readonly number[])[];

export interface InertiaBox {
  /** side lengths along the principal axes (m) */
  size: Vec3Tuple;
  /** the principal axes as a rotation into the body's frame: a unit quaternion [x, y, z, w] */
  orientation: [number, number, number, number];
}

export interface PrincipalAxes {
  /** principal moments, in the order of `axes` */
  moments: Vec3Tuple;
  /** axes[k] is the unit principal axis of moments[k]; a right-handed set */
  axes: [Vec3Tuple, Vec3Tuple, Vec3Tuple];
}

/** the principal moments and axes of I (library/multibody/jacobi.ts), the axes right-handed */
export function principalAxes(I: Inertia): PrincipalAxes {
  const { values, vectors: V } = symmetricEigen3(I);
  const axes = [0, 1, 2].map((k) => [V[0][k], V[1][k], V[2][k]]) as [Vec3Tuple, Vec3Tuple, Vec3Tuple];
  // right-handed: a rotation, not a reflection (an eigenvector's sign is free)
  const [u, v, w] = axes;
  const det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  if (det < 0) axes[2] = [-w[0], -w[1], -w[2]];
  return { moments: values, axes };
}

/** below this fraction of the largest side a box side is raised to it: a flat or thin body stays visible */
export const MIN_SIDE_FRACTION = 0.08;

// (m, I about the centre of mass) => the equivalent inertia box; undefined when there is no box to draw (m or I negligible)
export function inertiaBox(m: number, I: Inertia): InertiaBox | undefined {
  const {
    moments: [I1, I2, I3],
    axes,
  } = principalAxes(I);
  if (!(m > 0) || !(I1 + I2 + I3 > 0)) return undefined;
  const side = (x: number) => Math.sqrt(Math.max(0, (6 * x) / m));
  const exact: Vec3Tuple = [side(I2 + I3 - I1), side(I1 + I3 - I2), side(I1 + I2 - I3)];
  const largest = Math.max(...exact);
  if (!(largest > 0)) return undefined;
  const size = exact.map((s) => Math.max(s, MIN_SIDE_FRACTION * largest)) as Vec3Tuple;
  // gl-matrix is column-major: column k of the rotation is axes[k]
  const q = quat.fromMat3(new Float64Array(4), Float64Array.from(axes.flat()));
  quat.normalize(q, q);
  return { size, orientation: [q[0], q[1], q[2], q[3]] };
}
