// 3-vectors and 3x3 matrices of expressions, so that library equations read
// like the papers (relaxing paper eqs. 23-29 are written with these).
import { type Ex, add, cos, ex, mul, sin, sub } from './build.ts';
import type { Expr } from './node.ts';

/** a 3-vector of expressions */
export type Vec3 = readonly [Expr, Expr, Expr];
/** row-major: m[i][j] is row i, column j */
export type Mat3 = readonly [Vec3, Vec3, Vec3];
/** a 3-vector of expressions or numbers */
export type Vec3Like = readonly [Ex, Ex, Ex];

/** the vector (x, y, z) */
export const vec3 = (x: Ex, y: Ex, z: Ex): Vec3 => [ex(x), ex(y), ex(z)];
export const vex = (v: Vec3Like): Vec3 => [ex(v[0]), ex(v[1]), ex(v[2])];
const map3 = (f: (i: number) => Expr): Vec3 => [f(0), f(1), f(2)];

/** a + b */
export const vadd = (a: Vec3Like, b: Vec3Like): Vec3 => map3((i) => add(a[i], b[i]));
/** a - b */
export const vsub = (a: Vec3Like, b: Vec3Like): Vec3 => map3((i) => sub(a[i], b[i]));
/** k a */
export const vscale = (k: Ex, a: Vec3Like): Vec3 => map3((i) => mul(k, a[i]));
/** -a */
export const vneg = (a: Vec3Like): Vec3 => vscale(-1, a);
/** a . b */
export const dot = (a: Vec3Like, b: Vec3Like): Expr => add(mul(a[0], b[0]), mul(a[1], b[1]), mul(a[2], b[2]));
/** a x b */
export const cross = (a: Vec3Like, b: Vec3Like): Vec3 => [
  sub(mul(a[1], b[2]), mul(a[2], b[1])),
  sub(mul(a[2], b[0]), mul(a[0], b[2])),
  sub(mul(a[0], b[1]), mul(a[1], b[0])),
];

/** the 3x3 matrix of these rows */
export const mat3 = (rows: readonly [Vec3Like, Vec3Like, Vec3Like]): Mat3 => [vex(rows[0]), vex(rows[1]), vex(rows[2])];
/** the 3x3 identity */
export const identity3 = (): Mat3 =>
  mat3([
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ]);
/** the transpose of m */
export const transpose = (m: Mat3): Mat3 => [map3((j) => m[j][0]), map3((j) => m[j][1]), map3((j) => m[j][2])];
/** m v */
export const mulMV = (m: Mat3, v: Vec3Like): Vec3 => map3((i) => dot(m[i], v));
/** m^T v */
export const mulMTV = (m: Mat3, v: Vec3Like): Vec3 => mulMV(transpose(m), v);
/** the matrix product a b */
export const mulMM = (a: Mat3, b: Mat3): Mat3 => {
  const bt = transpose(b);
  return [map3((j) => dot(a[0], bt[j])), map3((j) => dot(a[1], bt[j])), map3((j) => dot(a[2], bt[j]))];
};
/** the matrix [a x] with [a x] b = a x b */
export const skew = (a: Vec3Like): Mat3 =>
  mat3([
    [0, mul(-1, a[2]), a[1]],
    [a[2], 0, mul(-1, a[0])],
    [mul(-1, a[1]), a[0], 0],
  ]);

/**
 * Rotation matrix R(n, phi) for a unit axis n: R = cos(phi) I + (1 - cos(phi)) n n^T + sin(phi) [n x]
 * (Rodrigues). It maps vectors from the rotated frame into the reference frame.
 */
export function axisRotation(n: Vec3Like, phi: Ex): Mat3 {
  const c = cos(phi),
    s = sin(phi),
    k = sub(1, c);
  const row = (i: number): Vec3 => map3((j) => add(i === j ? c : 0, mul(k, n[i], n[j]), mul(s, skewEntry(n, i, j))));
  return [row(0), row(1), row(2)];
}

function skewEntry(n: Vec3Like, i: number, j: number): Ex {
  if (i === j) return 0;
  const k = 3 - i - j; // the remaining index
  const sign = (j - i + 3) % 3 === 1 ? -1 : 1; // [n x]_{01} = -n2, _{02} = n1, _{12} = -n0
  return mul(sign, n[k]);
}
