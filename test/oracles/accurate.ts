// Oracle helpers for linear algebra whose accuracy does not depend on the
// scaling of the columns, plain numbers, no Kron code.
//
// - svdColumns: the one-sided (Hestenes) Jacobi SVD. It rotates pairs of
//   columns of A until they are orthogonal, so A V = [u_1 s_1, ..., u_n s_n]
//   with V orthogonal. Unlike the eigen-decomposition of A^T A (which squares
//   the condition and loses every singular value below sqrt(eps) sigma_max),
//   its singular values and vectors are accurate relative to each column's
//   own size: for A = B D with D diagonal the accuracy is governed by the
//   condition of B, not of A (Demmel & Veselic, "Jacobi's method is more
//   accurate than QR", SIAM J. Matrix Anal. Appl. 13, 1992). The loop oracle
//   needs exactly that: it takes the null space of G D^-1/2, the constraint
//   Jacobian in mass-scaled coordinates, whose columns for a 1e12 kg body
//   are 1e-6 of a light body's.
// - dot2: a dot product in about twice the working precision (Ogita, Rump &
//   Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26, 2005,
//   Algorithm 5.3, with Dekker's splitting in place of an FMA): residuals of
//   iterative refinement, where the terms are ~1e13 and their sum ~1.

export interface ColumnSvd {
  /** singular values, descending */
  sigma: number[];
  /** V[k] is the right singular vector of sigma[k] (n entries) */
  V: number[][];
  /** U[k] the left singular vector of sigma[k] (m entries), zero where sigma[k] is 0 */
  U: number[][];
}

// (A m x n) => its SVD by one-sided Jacobi on the columns; A is not modified (n: for m = 0)
export function svdColumns(A: readonly (readonly number[])[], n = A[0]?.length ?? 0): ColumnSvd {
  const m = A.length;
  const a: number[][] = Array.from({ length: n }, (_, j) => A.map((row) => row[j])); // columns
  const v: number[][] = Array.from({ length: n }, (_, j) => Array.from({ length: n }, (_, i) => (i === j ? 1 : 0))); // columns of V
  const dotv = (x: readonly number[], y: readonly number[]) => x.reduce((s, xi, i) => s + xi * y[i], 0);
  // columns at rounding level of the largest are the null space already: rotating them among
  // themselves only stirs noise (and would never meet the orthogonality test)
  const big = Math.max(0, ...a.map((col) => dotv(col, col)));
  const noise = (4 * Number.EPSILON) ** 2 * big;
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const alpha = dotv(a[p], a[p]),
          beta = dotv(a[q], a[q]),
          gamma = dotv(a[p], a[q]);
        // orthogonal to working precision relative to the two columns' own sizes
        if (gamma === 0 || Math.abs(gamma) <= (Number.EPSILON / 2) * Math.sqrt(alpha * beta) || Math.max(alpha, beta) <= noise) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t),
          s = c * t;
        for (const M of [a, v]) {
          const x = M[p],
            y = M[q];
          for (let i = 0; i < x.length; i++) {
            const xi = x[i],
              yi = y[i];
            x[i] = c * xi - s * yi;
            y[i] = s * xi + c * yi;
          }
        }
      }
    }
    if (!rotated) break;
  }
  const sig = a.map((col) => Math.hypot(...col));
  const order = Array.from({ length: n }, (_, j) => j).sort((i, j) => sig[j] - sig[i]);
  return {
    sigma: order.map((j) => sig[j]),
    V: order.map((j) => v[j]),
    U: order.map((j) => (sig[j] > 0 ? a[j].map((x) => x / sig[j]) : new Array<number>(m).fill(0))),
  };
}

// ---- compensated dot product ------------------------------------------------------------

const SPLIT = 134217729; // 2^27 + 1

/** a * b = p + e exactly (Dekker) */
function twoProduct(a: number, b: number): [number, number] {
  const p = a * b;
  const ca = SPLIT * a,
    ah = ca - (ca - a),
    al = a - ah;
  const cb = SPLIT * b,
    bh = cb - (cb - b),
    bl = b - bh;
  return [p, al * bl - (p - ah * bh - al * bh - ah * bl)];
}

/** a + b = s + e exactly (Knuth) */
function twoSum(a: number, b: number): [number, number] {
  const s = a + b,
    z = s - a;
  return [s, a - (s - z) + (b - z)];
}

/** sum_i x_i y_i as if in twice the working precision, then rounded */
export function dot2(x: readonly number[], y: readonly number[]): number {
  let s = 0,
    c = 0;
  for (let i = 0; i < x.length; i++) {
    const [p, ep] = twoProduct(x[i], y[i]);
    const [t, es] = twoSum(s, p);
    s = t;
    c += ep + es;
  }
  return s + c;
}
