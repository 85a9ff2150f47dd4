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

/**
 * Eigenvalues and eigenvectors of a symmetric 3x3 matrix by cyclic Jacobi
 * rotations (Golub & Van Loan, algorithms 8.5.1-8.5.3; body.ts's
 * principalMoments, here accumulating the rotations V with A = V D V^T).
 */
export function principalAxes(I: Inertia): PrincipalAxes {
  const A = I.map((row) => [row[0], row[1], row[2]]);
  const V = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const norm = Math.hypot(...A.flat());
  for (let sweep = 0; sweep < 30 && Math.hypot(A[0][1], A[0][2], A[1][2]) > 1e-17 * norm; sweep++) {
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      if (A[p][q] === 0) continue;
      const tau = (A[q][q] - A[p][p]) / (2 * A[p][q]);
      const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.hypot(1, tau));
      const c = 1 / Math.hypot(1, t), s = t * c;
      for (const row of [...A, ...V]) [row[p], row[q]] = [c * row[p] - s * row[q], s * row[p] + c * row[q]];
      [A[p], A[q]] = [A[p].map((v, k) => c * v - s * A[q][k]), A[p].map((v, k) => s * v + c * A[q][k])];
      A[p][q] = A[q][p] = 0;
    }
  }
  const axes = [0, 1, 2].map((k) => [V[0][k], V[1][k], V[2][k]]) as [Vec3Tuple, Vec3Tuple, Vec3Tuple];
  // right-handed: a rotation, not a reflection (an eigenvector's sign is free)
  const [u, v, w] = axes;
  const det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  if (det < 0) axes[2] = [-w[0], -w[1], -w[2]];
  return { moments: [A[0][0], A[1][1], A[2][2]], axes };
}

/** below this fraction of the largest side a box side is raised to it: a flat or thin body stays visible */
export const MIN_SIDE_FRACTION = 0.08;

// (m, I about the centre of mass) => the equivalent inertia box; undefined when there is no box to draw (m or I negligible)
export function inertiaBox(m: number, I: Inertia): InertiaBox | undefined {
  const { moments: [I1, I2, I3], axes } = principalAxes(I);
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
