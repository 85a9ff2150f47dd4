// The body's inertia resolved in the world, I_w = R I R^T (relaxing paper eq. 24),
// and the offsets R r of points fixed in a frame, written so that the
// generated code does little work per body (issue 18). Glossary:
//   R    frame_a's orientation; c_k = R e_k its k-th axis in world coordinates
//   I    inertia about the centre of mass in frame_a coordinates (parameters)
//   lam  one principal moment taken out: I = lam 1 + D, so that
//        I_w = lam 1 + R D R^T = lam 1 + sum_k D_kk c_k c_k^T
//                                + sum_{k<l} D_kl (c_k c_l^T + c_l c_k^T)
// With the products of inertia zero and two moments equal (a rod, a
// cylinder, a sphere) D has one non-zero entry or none: I_w is lam 1 plus
// one rank-one term, and w x (I_w w) that term alone. I_w is built
// symmetric, entry (j, i) the same expression as (i, j), so the relaxed
// elimination forms each coefficient pair of t = I_w z once.
import { type Expr, type Mat3, type Vec3, ZERO, add, cross, dot, mul, mulMV, sub, vec3, vscale, vsub } from '../../expr/index.ts';

/** the k-th column of R: frame_a's k-th axis resolved in the world */
export const column = (R: Mat3, k: number): Vec3 => vec3(R[0][k], R[1][k], R[2][k]);

export interface WorldInertia {
  /** I_w, symmetric */
  Iw: Mat3;
  /** the gyroscopic torque w x (I_w w) */
  gyroscopic(w: Vec3): Vec3;
}

/**
 * I_w = R I R^T for the symmetric inertia I (parameters) whose declared values are
 * `declared` ([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]): around a principal moment
 * when the declared products are zero, else as (R I) R^T over six entries. Either
 * holds for any value the parameters are given later (--set): only the cost differs.
 */
export function worldInertia(R: Mat3, I: Mat3, declared: readonly (readonly number[])[]): WorldInertia {
  const diagonal = declared[0][1] === 0 && declared[0][2] === 0 && declared[1][2] === 0;
  return diagonal ? aroundMoment(R, I, declared) : general(R, I);
}

/**
 * lam 1 + R D R^T with lam the declared moment most others equal (fewest non-zero
 * D_kk). A diagonal entry lam + D_kk c_ki^2 may cancel (a slender body's small
 * moment where c_ki^2 is near 1), but only to an error of eps lam: I_w is as
 * accurate in norm as R I R^T, whose off-diagonal sums cancel the same way.
 */
function aroundMoment(R: Mat3, I: Mat3, declared: readonly (readonly number[])[]): WorldInertia {
  const moments = [0, 1, 2].map((k) => declared[k][k]);
  const m = [2, 1, 0].reduce((best, k) => (count(moments, moments[k]) > count(moments, moments[best]) ? k : best), 2);
  const c = [0, 1, 2].map((k) => column(R, k));
  const D = (k: number, l: number, lam: Expr): Expr => (k === l ? sub(I[k][k], lam) : I[k][l]);
  const pairs: [number, number][] = [
    [0, 0],
    [1, 1],
    [2, 2],
    [0, 1],
    [0, 2],
    [1, 2],
  ];
  // (c_k c_l^T + c_l c_k^T)_ij, or c_k c_k^T when k = l
  const term = (k: number, l: number, i: number, j: number): Expr => (k === l ? mul(c[k][i], c[k][j]) : add(mul(c[k][i], c[l][j]), mul(c[l][i], c[k][j])));
  const around = (lam: Expr, i: number, j: number): Expr => add(i === j ? lam : ZERO, ...pairs.map(([k, l]) => mul(D(k, l, lam), term(k, l, i, j))));
  const Iw = symmetric((i, j) => around(I[m][m], i, j));
  const wc = c.map((ck) => (w: Vec3) => cross(w, ck));
  // w x (I_w w) = w x (R D R^T w): the lam w part is parallel to w;
  // w x (c_k (c_l . w) + c_l (c_k . w)) = (c_l . w)(w x c_k) + (c_k . w)(w x c_l)
  const gyroscopic = (w: Vec3): Vec3 => {
    const terms = pairs.map(([k, l]) => {
      const a = wc[k](w),
        b = wc[l](w),
        dk = dot(c[k], w),
        dl = dot(c[l], w),
        d = D(k, l, I[m][m]);
      return k === l ? a.map((x) => mul(d, dk, x)) : a.map((x, i) => mul(d, add(mul(dl, x), mul(dk, b[i]))));
    });
    return vec3(add(...terms.map((t) => t[0])), add(...terms.map((t) => t[1])), add(...terms.map((t) => t[2])));
  };
  return { Iw, gyroscopic };
}

/** (R I) R^T, each of the six distinct entries once */
function general(R: Mat3, I: Mat3): WorldInertia {
  const RI = [0, 1, 2].map((i) => vec3(dot(R[i], column(I, 0)), dot(R[i], column(I, 1)), dot(R[i], column(I, 2))));
  const Iw = symmetric((i, j) => dot(RI[i], R[j]));
  return { Iw, gyroscopic: (w) => cross(w, mulMV(Iw, w)) };
}

/** the symmetric matrix with entries entry(i, j), i <= j */
function symmetric(entry: (i: number, j: number) => Expr): Mat3 {
  const e = new Map<number, Expr>();
  const at = (i: number, j: number): Expr => {
    const [a, b] = i <= j ? [i, j] : [j, i];
    let x = e.get(3 * a + b);
    if (!x) e.set(3 * a + b, (x = entry(a, b)));
    return x;
  };
  return [vec3(at(0, 0), at(0, 1), at(0, 2)), vec3(at(1, 0), at(1, 1), at(1, 2)), vec3(at(2, 0), at(2, 1), at(2, 2))];
}

function count(values: readonly number[], v: number): number {
  return values.filter((x) => x === v).length;
}

/**
 * w x (w x R r), the centripetal acceleration of the point at R r: for r along one
 * axis of frame_a (one non-zero declared entry) as sum_k r_k (w x (w x c_k)), which
 * shares w . c_k with the gyroscopic torque; else w x (w x (R r)) directly. Written
 * (w . c) w - (w . w) c: on the chain with a 1e12 kg link (safety.test.ts, condition
 * 1e14) the torn answer is then 5.9e-4 from the exact one, 1.5e-3 with the cross
 * products (rounding, amplified).
 */
export function centripetal(w: Vec3, R: Mat3, r: Vec3, declared: readonly number[]): Vec3 {
  if (declared.filter((x) => x !== 0).length > 1) {
    const rw = vec3(dot(R[0], r), dot(R[1], r), dot(R[2], r));
    return cross(w, cross(w, rw));
  }
  const ww = dot(w, w);
  const terms = [0, 1, 2].map((k) => vsub(vscale(dot(w, column(R, k)), w), vscale(ww, column(R, k))).map((x) => mul(r[k], x)));
  return vec3(add(...terms.map((t) => t[0])), add(...terms.map((t) => t[1])), add(...terms.map((t) => t[2])));
}
