// Oracle helpers: unit quaternions on plain number arrays, written from the
// textbook (Shuster 1993, "A survey of attitude representations", with the
// Hamilton product), no Kron code.
//
// Q = (w, x, y, z) = (cos(phi/2), sin(phi/2) n) is the rotation by phi about
// the unit axis n. As a joint coordinate it is the rotation that takes frame_a
// to frame_b, the convention of MuJoCo's qpos quaternions:
//   R(Q) maps frame_b coordinates to frame_a coordinates,  x_a = R(Q) x_b,
//   R_b = R_a R(Q)  (frame-to-world rotations),
// and with w the angular velocity of frame_b relative to frame_a resolved in
// frame_b (MuJoCo's qvel of a ball or free joint):
//   der(Q) = 1/2 Q (x) (0, w)                        (Shuster eq. 306, body rate)
// Over a step h with w constant the exact solution is the exponential map
//   Q(t + h) = Q(t) (x) exp(w h / 2),  exp(u) = (cos |u|, sin |u| u / |u|)
// which is what MuJoCo's mju_quatIntegrate does; it keeps |Q| = 1 to rounding.
import { type M3, type V3, cross, scale } from './rnea.ts';

export type Quat = [number, number, number, number];

/** Hamilton product a (x) b: the rotation b, then a (R(a b) = R(a) R(b)) */
export function quatMul(a: Quat, b: Quat): Quat {
  const [aw, ax, ay, az] = a,
    [bw, bx, by, bz] = b;
  return [
    aw * bw - ax * bx - ay * by - az * bz,
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
  ];
}

export const quatConj = (q: Quat): Quat => [q[0], -q[1], -q[2], -q[3]];
export const quatNorm = (q: Quat): number => Math.hypot(q[0], q[1], q[2], q[3]);

/** Q / |Q|; a zero quaternion is no rotation at all and an error, not a NaN */
export function quatNormalize(q: Quat, what = 'quaternion'): Quat {
  const n = quatNorm(q);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`${what}: |Q| = ${n}, cannot be normalised to a rotation`);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** rotation by angle phi about axis n (normalised here) */
export function quatFromAxisAngle(n: V3, phi: number): Quat {
  const s = Math.sin(phi / 2) / Math.hypot(n[0], n[1], n[2]);
  return [Math.cos(phi / 2), s * n[0], s * n[1], s * n[2]];
}

/** exp of the pure quaternion (0, u): (cos |u|, sin |u| u/|u|); u is half the rotation vector */
export function quatExp(u: V3): Quat {
  const a = Math.hypot(u[0], u[1], u[2]);
  // sin(a)/a by its series below a = 1e-4 (error < a^4/120 < 1e-18)
  const s = a < 1e-4 ? 1 - (a * a) / 6 : Math.sin(a) / a;
  return [Math.cos(a), s * u[0], s * u[1], s * u[2]];
}

/** Q(t + h) for a constant body-frame angular velocity w: Q (x) exp(w h / 2) */
export function integrateQuaternion(Q: Quat, w: V3, h: number): Quat {
  return quatMul(Q, quatExp(scale(h / 2, w)));
}

/** der(Q) = 1/2 Q (x) (0, w), w resolved in the rotated frame (frame_b) */
export function quatRate(Q: Quat, w: V3): Quat {
  const d = quatMul(Q, [0, w[0], w[1], w[2]]);
  return [d[0] / 2, d[1] / 2, d[2] / 2, d[3] / 2];
}

/** R(Q / |Q|): frame_b to frame_a coordinates (Shuster eq. 161) */
export function quatMatrix(q: Quat, what?: string): M3 {
  const [w, x, y, z] = quatNormalize(q, what);
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

/** x_a = R(Q) x_b without forming R: x + 2 w (v x x) + 2 v x (v x x), v = (x, y, z) of unit Q */
export function quatRotate(q: Quat, p: V3): V3 {
  const v: V3 = [q[1], q[2], q[3]];
  const t = scale(2, cross(v, p));
  const u = cross(v, t);
  return [p[0] + q[0] * t[0] + u[0], p[1] + q[0] * t[1] + u[1], p[2] + q[0] * t[2] + u[2]];
}

/** the unit quaternion of a rotation matrix, w >= 0 (Shepperd 1978: pivot on the largest of w^2, x^2, y^2, z^2) */
export function quatFromMatrix(R: M3): Quat {
  const tr = R[0][0] + R[1][1] + R[2][2];
  const c = [tr, R[0][0], R[1][1], R[2][2]];
  const k = c.indexOf(Math.max(...c));
  let q: Quat;
  if (k === 0) {
    const s = 2 * Math.sqrt(1 + tr);
    q = [s / 4, (R[2][1] - R[1][2]) / s, (R[0][2] - R[2][0]) / s, (R[1][0] - R[0][1]) / s];
  } else if (k === 1) {
    const s = 2 * Math.sqrt(1 + R[0][0] - R[1][1] - R[2][2]);
    q = [(R[2][1] - R[1][2]) / s, s / 4, (R[0][1] + R[1][0]) / s, (R[0][2] + R[2][0]) / s];
  } else if (k === 2) {
    const s = 2 * Math.sqrt(1 - R[0][0] + R[1][1] - R[2][2]);
    q = [(R[0][2] - R[2][0]) / s, (R[0][1] + R[1][0]) / s, s / 4, (R[1][2] + R[2][1]) / s];
  } else {
    const s = 2 * Math.sqrt(1 - R[0][0] - R[1][1] + R[2][2]);
    q = [(R[1][0] - R[0][1]) / s, (R[0][2] + R[2][0]) / s, (R[1][2] + R[2][1]) / s, s / 4];
  }
  return q[0] < 0 ? [-q[0], -q[1], -q[2], -q[3]] : q;
}

/** the rotation angle between two unit quaternions (0..pi), insensitive to the sign of either; atan2, not acos, to keep small angles exact */
export function quatAngle(a: Quat, b: Quat): number {
  const d = quatMul(quatConj(a), b);
  return 2 * Math.atan2(Math.hypot(d[1], d[2], d[3]), Math.abs(d[0]));
}
