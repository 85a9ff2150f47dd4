// Unit quaternions Q = (w, x, y, z) for the joints whose orientation has four
// position coordinates and three velocity coordinates (ball-joint.ts,
// free-joint.ts), MuJoCo's convention (its free and ball joints' qpos):
//   R(Q) maps frame_b coordinates to frame_a coordinates;
//   der(Q) = 1/2 Q (x) (0, w),  w the angular velocity of frame_b relative to
//   frame_a, resolved in frame_b (MuJoCo's qvel of a ball joint);
// which keeps |Q| constant in exact arithmetic (Q . der(Q) = 0). R(Q) is
// written for any non-zero Q, R(Q) = R(Q / |Q|), so that rounding drift of
// |Q| does not make R non-orthogonal; the integrators bring |Q| back to 1
// after every step (Component.unitNorms, sim/simulate.ts).
import { type Expr, type Mat3, type Vec3, add, div, mat3, mul, sub, vec3 } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import type { Component } from '../../model/index.ts';

export type Quaternion = readonly [Expr, Expr, Expr, Expr];

/** R(Q) = R(Q / |Q|): the rotation matrix of a quaternion, rows as Mat3 */
export function rotationOf([w, x, y, z]: Quaternion): Mat3 {
  const s = div(2, add(mul(w, w), mul(x, x), mul(y, y), mul(z, z)));
  const [xx, yy, zz] = [mul(s, x, x), mul(s, y, y), mul(s, z, z)];
  const [xy, xz, yz] = [mul(s, x, y), mul(s, x, z), mul(s, y, z)];
  const [wx, wy, wz] = [mul(s, w, x), mul(s, w, y), mul(s, w, z)];
  return mat3([
    [sub(1, add(yy, zz)), sub(xy, wz), add(xz, wy)],
    [add(xy, wz), sub(1, add(xx, zz)), sub(yz, wx)],
    [sub(xz, wy), add(yz, wx), sub(1, add(xx, yy))],
  ]);
}

/** der(Q) = 1/2 Q (x) (0, w), w resolved in the rotated frame */
export function quaternionRate([w, x, y, z]: Quaternion, [p, q, r]: Vec3): Quaternion {
  const h = (e: Expr) => mul(0.5, e);
  return [
    h(mul(-1, add(mul(x, p), mul(y, q), mul(z, r)))),
    h(add(mul(w, p), sub(mul(y, r), mul(z, q)))),
    h(add(mul(w, q), sub(mul(z, p), mul(x, r)))),
    h(add(mul(w, r), sub(mul(x, q), mul(y, p)))),
  ];
}

/** R(Q / |Q|) in numbers (start poses), as rotationOf */
export function rotationNumbers(Q: readonly number[]): number[][] {
  const n = Math.hypot(Q[0], Q[1], Q[2], Q[3]);
  const [w, x, y, z] = [Q[0] / n, Q[1] / n, Q[2] / n, Q[3] / n];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

/** a start quaternion given by the user, normalised; zero or not finite is a ModelError naming the joint */
export function unitQuaternion(c: Component, Q: readonly number[] | undefined): [number, number, number, number] {
  if (Q === undefined) return [1, 0, 0, 0];
  const norm = Math.hypot(...Q);
  if (Q.length !== 4 || !Q.every(Number.isFinite) || !(norm > 1e-12)) {
    throw new ModelError(`start orientation Q = [${Q.join(', ')}] of joint ${c.path || c.localName} is not a quaternion of non-zero length`, {
      component: c.path || c.localName,
      hint: 'give Q: [w, x, y, z] (scalar first, as MuJoCo), e.g. [1, 0, 0, 0] for no rotation; it is normalised',
    });
  }
  return [Q[0] / norm, Q[1] / norm, Q[2] / norm, Q[3] / norm];
}

/** the columns of R as world-resolved vectors: frame axes x, y, z */
export const columns = (R: Mat3): [Vec3, Vec3, Vec3] => [0, 1, 2].map((i) => vec3(R[0][i], R[1][i], R[2][i])) as [Vec3, Vec3, Vec3];
