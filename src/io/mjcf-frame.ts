// Orientations as MJCF writes them, turned into unit quaternions (w, x, y, z)
// the way MuJoCo's compiler does (user_objects.cc, mjCAlternative::Set):
//   quat       normalised
//   axisangle  axis normalised, angle in the compiler's unit
//   euler      three angles about the axes of eulerseq (default "xyz"):
//              lower case about the moving axes (post-multiplied), upper case
//              about the fixed ones (pre-multiplied)
//   xyaxes     x normalised, y made orthogonal to x and normalised, z = x X y
//   zaxis      the shortest rotation taking (0, 0, 1) to the axis
import type { Vec3 } from './urdf-parse.ts';

export type Quat = [number, number, number, number];

export const IDENTITY: Quat = [1, 0, 0, 0];

/** v / |v|, or undefined when |v| < 1e-14 (MuJoCo's mjEPS): too short to give a direction */
export function unit(v: readonly number[]): number[] | undefined {
  const n = Math.hypot(...v);
  return n < 1e-14 ? undefined : v.map((x) => x / n);
}

/** Hamilton product a (x) b */
export function multiply([aw, ax, ay, az]: readonly number[], [bw, bx, by, bz]: readonly number[]): Quat {
  return [
    aw * bw - ax * bx - ay * by - az * bz,
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
  ];
}

/** the rotation of q applied to v: q (0, v) q* */
export function rotate(q: readonly number[], v: readonly number[]): Vec3 {
  const [, x, y, z] = multiply(multiply(q, [0, v[0], v[1], v[2]]), [q[0], -q[1], -q[2], -q[3]]);
  return [x, y, z];
}

/** rotation by angle (rad) about a unit axis */
export function axisAngle(axis: readonly number[], angle: number): Quat {
  const s = Math.sin(angle / 2);
  return [Math.cos(angle / 2), s * axis[0], s * axis[1], s * axis[2]];
}

/** q as axis and angle (rad), undefined for no rotation */
export function toAxisAngle(q: readonly number[]): { axis: Vec3; angle: number } | undefined {
  const s = Math.hypot(q[1], q[2], q[3]);
  if (s < 1e-15) return undefined;
  return { axis: [q[1] / s, q[2] / s, q[3] / s], angle: 2 * Math.atan2(s, q[0]) };
}

/** three angles (rad) about the axes of a sequence such as "xyz" or "XYZ"; undefined for a letter other than x, y, z */
export function euler(angles: readonly number[], sequence: string): Quat | undefined {
  let q: Quat = IDENTITY;
  for (let i = 0; i < 3; i++) {
    const k = 'xyz'.indexOf(sequence[i].toLowerCase());
    if (k < 0) return undefined;
    const e = [0, 0, 0];
    e[k] = 1;
    const r = axisAngle(e, angles[i]);
    q = sequence[i] === sequence[i].toLowerCase() ? multiply(q, r) : multiply(r, q);
  }
  return unit(q) as Quat;
}

/** the frame with axes x, y (made orthonormal as MuJoCo does); a string saying which axis is too short */
export function xyAxes(xy: readonly number[]): Quat | string {
  const x = unit(xy.slice(0, 3));
  if (!x) return 'the x axis has zero length';
  const d = x[0] * xy[3] + x[1] * xy[4] + x[2] * xy[5];
  const y = unit([xy[3] - d * x[0], xy[4] - d * x[1], xy[5] - d * x[2]]);
  if (!y) return 'the y axis is parallel to the x axis or has zero length';
  const z = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  return fromColumns(x, y, z);
}

/** the shortest rotation taking (0, 0, 1) to v (not necessarily unit); about x by pi when v points along -z */
export function zAxis(v: readonly number[]): Quat {
  const c = [-v[1], v[0], 0];
  const s = Math.hypot(...c);
  const axis = s < 1e-10 ? [1, 0, 0] : c.map((x) => x / s);
  return axisAngle(axis, Math.atan2(s, v[2]));
}

/** the unit quaternion of the rotation whose matrix has columns x, y, z */
function fromColumns(x: readonly number[], y: readonly number[], z: readonly number[]): Quat {
  return quaternionOfMatrix([x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]]) as Quat;
}

/** (rotation, row-major 3x3) => unit quaternion w, x, y, z (Shepperd: from the largest of w, x, y, z) */
export function quaternionOfMatrix(R: readonly number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = R;
  const t = a + e + i;
  let q: number[];
  if (t >= a && t >= e && t >= i) {
    const s = 2 * Math.sqrt(1 + t);
    q = [s / 4, (h - f) / s, (c - g) / s, (d - b) / s];
  } else if (a >= e && a >= i) {
    const s = 2 * Math.sqrt(1 + a - e - i);
    q = [(h - f) / s, s / 4, (b + d) / s, (c + g) / s];
  } else if (e >= i) {
    const s = 2 * Math.sqrt(1 + e - a - i);
    q = [(c - g) / s, (b + d) / s, s / 4, (f + h) / s];
  } else {
    const s = 2 * Math.sqrt(1 + i - a - e);
    q = [(d - b) / s, (c + g) / s, (f + h) / s, s / 4];
  }
  const norm = Math.hypot(...q);
  return q.map((v) => v / norm);
}
