// Oracle helpers: 6D spatial vector algebra (Featherstone, Rigid Body Dynamics
// Algorithms 2008, ch. 2) on plain number arrays, uncounted (aba.ts keeps the
// counted version for operation counts). No Kron code.
//
// Conventions (Plücker coordinates, angular part first, as the book):
//   motion vector  m = [w; v]   w angular velocity, v velocity of the body-fixed
//                               point at the frame's origin
//   force vector   f = [n; f]   n moment about the frame's origin, f force
//   transform X from frame p to frame i, kept as (E, r):
//     E  maps p coordinates to i coordinates, r the origin of i in p coordinates
//     X   = [E 0; -E rx E]                  (book eq. 2.24, motion vectors)
//     X^T = the map of force vectors from i back to p (X^* of i to p, eq. 2.25)
import { type M3, type V3, add, cross, mulMM, mulMV, mulMtV, scale } from './rnea.ts';

export type Vec6 = number[];
export type Mat6 = number[][];

export interface Transform {
  /** p coordinates -> i coordinates */
  E: M3;
  /** origin of frame i in p coordinates */
  r: V3;
}

export const ang = (x: readonly number[]): V3 => [x[0], x[1], x[2]];
export const lin = (x: readonly number[]): V3 => [x[3], x[4], x[5]];
export const join = (a: V3, b: V3): Vec6 => [...a, ...b];
export const zero6 = (): Vec6 => [0, 0, 0, 0, 0, 0];
export const zeros = (r: number, c: number): number[][] => Array.from({ length: r }, () => new Array<number>(c).fill(0));
export const add6 = (a: readonly number[], b: readonly number[]): Vec6 => a.map((x, i) => x + b[i]);
export const sub6 = (a: readonly number[], b: readonly number[]): Vec6 => a.map((x, i) => x - b[i]);
export const dotN = (a: readonly number[], b: readonly number[]): number => a.reduce((s, x, i) => s + x * b[i], 0);
/** A x for a dense matrix (rows) */
export const matVec = (A: readonly (readonly number[])[], x: readonly number[]): number[] => A.map((row) => dotN(row, x));
export const transpose = (A: readonly (readonly number[])[]): number[][] => (A.length ? A[0].map((_, j) => A.map((row) => row[j])) : []);
export const transpose3 = (M: M3): M3 => [
  [M[0][0], M[1][0], M[2][0]],
  [M[0][1], M[1][1], M[2][1]],
  [M[0][2], M[1][2], M[2][2]],
];

/** X m: a motion vector from p to i coordinates, [E w; E (v - r x w)] */
export function motionTo(X: Transform, m: readonly number[]): Vec6 {
  const w = ang(m);
  return join(mulMV(X.E, w), mulMV(X.E, add(lin(m), scale(-1, cross(X.r, w)))));
}

/** X^T f: a force vector from i back to p coordinates, [E^T n + r x E^T f; E^T f] */
export function forceFrom(X: Transform, f: readonly number[]): Vec6 {
  const ff = mulMtV(X.E, lin(f));
  return join(add(mulMtV(X.E, ang(f)), cross(X.r, ff)), ff);
}

/** X^T I X: a 6x6 inertia from i to p coordinates (rows of I X are X^T of the rows of I; then column by column) */
export function inertiaFrom(X: Transform, I: Mat6): Mat6 {
  const IX = I.map((row) => forceFrom(X, row));
  return transpose(transpose(IX).map((col) => forceFrom(X, col)));
}

/** the transform from p to k given those from p to i and from i to k */
export function compose(Xpi: Transform, Xik: Transform): Transform {
  return { E: mulMM(Xik.E, Xpi.E), r: add(Xpi.r, mulMtV(Xpi.E, Xik.r)) };
}

/** v xm m = [w x mw; w x mv + v x mw] (eq. 2.31) */
export function crossM(v: readonly number[], m: readonly number[]): Vec6 {
  const w = ang(v);
  return join(cross(w, ang(m)), add(cross(w, lin(m)), cross(lin(v), ang(m))));
}

/** v xf f = [w x n + v x f; w x f] (eq. 2.32) */
export function crossF(v: readonly number[], f: readonly number[]): Vec6 {
  const w = ang(v);
  return join(add(cross(w, ang(f)), cross(lin(v), lin(f))), cross(w, lin(f)));
}

/** rigid-body inertia about the frame's origin, centre of mass c, inertia Ic about it: [Ic + m cx cx^T, m cx; m cx^T, m 1] (eq. 2.63) */
export function spatialInertia(m: number, c: V3, Ic: M3): Mat6 {
  const C: M3 = [
    [0, -c[2], c[1]],
    [c[2], 0, -c[0]],
    [-c[1], c[0], 0],
  ];
  const I = zeros(6, 6);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      I[i][j] = Ic[i][j] + m * (C[i][0] * C[j][0] + C[i][1] * C[j][1] + C[i][2] * C[j][2]);
      I[i][j + 3] = m * C[i][j];
      I[i + 3][j] = m * C[j][i];
    }
    I[i + 3][i + 3] = m;
  }
  return I;
}

/** the inverse of a small dense matrix by Gauss-Jordan with partial pivoting; throws when a pivot is exactly zero */
export function invert(A: readonly (readonly number[])[], what: string): number[][] {
  const n = A.length;
  const M = A.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(M[i][k]) > Math.abs(M[p][k])) p = i;
    if (!(Math.abs(M[p][k]) > 0)) throw new Error(`${what}: singular (column ${k})`);
    [M[k], M[p]] = [M[p], M[k]];
    const d = M[k][k];
    for (let j = 0; j < 2 * n; j++) M[k][j] /= d;
    for (let i = 0; i < n; i++) {
      if (i === k || M[i][k] === 0) continue;
      const l = M[i][k];
      for (let j = 0; j < 2 * n; j++) M[i][j] -= l * M[k][j];
    }
  }
  return M.map((row) => row.slice(n));
}
