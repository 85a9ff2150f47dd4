// Cholesky solves of symmetric torn systems H z = c (a mass matrix), dense
// and on a sparse pattern (sparse-cholesky.ts), and the symmetry tests that
// decide whether Cholesky may judge H. Singularity is judged on H scaled to
// a unit diagonal (dense.ts says why on the scale of the matrix).
import { singularBelow } from './dense.ts';
import type { Workspace } from './types.ts';

// Is the n x n A symmetric up to rounding, measured on A scaled to a unit
// diagonal: |a_ij - a_ji| against sqrt(a_ii a_jj)? A torn mass matrix is, but
// its two triangles are computed along different paths; on the PUMA 560 the
// scaled difference is at most 2.2e-15 over 1000 random states, where entry
// by entry (isSymmetric) a pair such as 1e-18 against exactly 0 differs by
// 100%. A non-positive diagonal is not symmetric positive definite: false.
export function nearSymmetric(n: number, A: ArrayLike<number>): boolean {
  for (let i = 1; i < n; i++) {
    const aii = A[i * n + i];
    for (let j = 0; j < i; j++) {
      const d = Math.abs(A[i * n + j] - A[j * n + i]);
      if (!(d * d <= 1e-24 * aii * A[j * n + j])) return false;
    }
  }
  return n > 0 && A[0] > 0;
}

// Is the n x n A symmetric entry by entry up to rounding? The stricter test
// that decides the grey zone of a Cholesky pivot (choleskySolve's -1):
// Cholesky's verdict "singular" stands only for such a matrix, whose entries
// carry no formation noise of their own; any other goes to LU.
export function isSymmetric(n: number, A: ArrayLike<number>): boolean {
  for (let i = 1; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const a = A[i * n + j],
        b = A[j * n + i];
      if (Math.abs(a - b) > 1e-10 * (Math.abs(a) + Math.abs(b)) + 1e-300) return false;
    }
  }
  return true;
}

// The pivot of a Cholesky factorisation of n below this times its diagonal
// entry is singular: within 1e-11 (not just 16 n rounding units), because
// Cholesky solves mass matrices, and a mass matrix formed through many
// cancelling terms (two massless links between ball joints) carries noise of
// ~4e-12 relative, where a singular one shows pivots of -4e-12. Every
// factorisation takes it from here: choleskySolve, sparseCholeskySolve, the
// unrolled ones (sparse-cholesky.ts) and the WebAssembly kernel's callers.
export function choleskyTiny(n: number): number {
  return Math.max(singularBelow(n), 1e-11);
}

// Solve A x = b in place by Cholesky, reading the lower triangle of the
// symmetric A. Each pivot is tested against its own diagonal entry, which is
// the test on A scaled to a unit diagonal. Returns rcond (the smallest pivot
// over its diagonal entry); -1 when A is singular to working precision (a
// pivot within rounding of zero of its diagonal, or a zero diagonal); 0 when
// A is indefinite (a clearly negative pivot: A is then overwritten, refill it
// for LU). LU must not judge a symmetric matrix that Cholesky found singular:
// its row scaling can lift a pivot of rounding noise above the threshold.
export function choleskySolve(n: number, A: Workspace, b: Workspace): number {
  const tiny = choleskyTiny(n);
  let small = 1;
  for (let j = 0; j < n; j++) {
    const ajj = A[j * n + j];
    const s = ajj - rowDot(A, j * n, A, j * n, j);
    if (!(ajj > 0 && ajj < Infinity)) return ajj < 0 ? 0 : -1;
    if (!(s > tiny * ajj)) return s < -tiny * ajj ? 0 : -1;
    small = Math.min(small, s / ajj); // as sparseCholeskySolve, whose unrolled form needs no branch
    const d = Math.sqrt(s),
      inv = 1 / d;
    A[j * n + j] = d;
    for (let i = j + 1; i < n; i++) A[i * n + j] = (A[i * n + j] - rowDot(A, i * n, A, j * n, j)) * inv;
  }
  // L y = b: each y_i from the dot of L's row i with y, as the factorisation takes its dots
  for (let i = 0; i < n; i++) b[i] = (b[i] - rowDot(A, i * n, b, 0, i)) / A[i * n + i];
  // L^T x = y by rows of L, which are contiguous where its columns are not: x_i, then
  // b_k -= L_ik x_i for k < i (the WebAssembly kernel does this two entries at a time)
  for (let i = n - 1; i >= 0; i--) {
    const x = (b[i] = b[i] / A[i * n + i]);
    for (let k = 0; k < i; k++) b[k] -= A[i * n + k] * x;
  }
  return small;
}

// the sum of A[a + k] B[c + k] over k < m, in four partial sums: one running
// sum waits out the latency of each addition (a dense Cholesky of 64 took
// 0.75 of its time with four)
function rowDot(A: ArrayLike<number>, a: number, B: ArrayLike<number>, c: number, m: number): number {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    k = 0;
  for (; k + 3 < m; k += 4) {
    s0 += A[a + k] * B[c + k];
    s1 += A[a + k + 1] * B[c + k + 1];
    s2 += A[a + k + 2] * B[c + k + 2];
    s3 += A[a + k + 3] * B[c + k + 3];
  }
  for (; k < m; k++) s0 += A[a + k] * B[c + k];
  return s0 + s1 + (s2 + s3);
}

// choleskySolve on a sparse symmetric A (sparse-cholesky.ts): pivots in the
// given order, each column's later rows listed in that order, so that L_ij
// (i later than j) is stored at A[i * n + j] and only the pattern is touched;
// the same pivot tests and return values as choleskySolve. The original
// diagonal goes to d first: a pivot is judged against it; then d keeps the
// pivots' reciprocals (one division per pivot, none in the solves).
export function sparseCholeskySolve(
  n: number,
  A: Workspace,
  b: Workspace,
  order: ArrayLike<number>,
  start: ArrayLike<number>,
  rows: ArrayLike<number>,
  d: Workspace,
): number {
  const tiny = choleskyTiny(n);
  let small = 1;
  for (let j = 0; j < n; j++) d[j] = A[j * n + j];
  for (let p = 0; p < n; p++) {
    const j = order[p],
      ajj = d[j],
      s = A[j * n + j];
    if (!(ajj > 0 && ajj < Infinity)) return ajj < 0 ? 0 : -1;
    if (!(s > tiny * ajj)) return s < -tiny * ajj ? 0 : -1;
    small = Math.min(small, s / ajj); // no branch: see unrolledCholesky
    const l = Math.sqrt(s),
      inv = 1 / l;
    A[j * n + j] = l;
    d[j] = inv; // the diagonal is judged; from here d holds 1 / l_jj for the solves
    const first = start[p],
      end = start[p + 1];
    for (let q = first; q < end; q++) A[rows[q] * n + j] *= inv;
    for (let q = first; q < end; q++) {
      const i = rows[q],
        lij = A[i * n + j];
      for (let r = first; r < q; r++) A[i * n + rows[r]] -= lij * A[rows[r] * n + j];
      A[i * n + i] -= lij * lij;
    }
  }
  for (let p = 0; p < n; p++) {
    const j = order[p],
      x = (b[j] *= d[j]);
    for (let q = start[p]; q < start[p + 1]; q++) b[rows[q]] -= A[rows[q] * n + j] * x;
  }
  for (let p = n - 1; p >= 0; p--) {
    const j = order[p];
    let s = b[j];
    for (let q = start[p]; q < start[p + 1]; q++) s -= A[rows[q] * n + j] * b[rows[q]];
    b[j] = s * d[j];
  }
  return small;
}

// nearSymmetric on the pattern of sparseCholeskySolve: the entries outside it
// are structural zeros, which an earlier LU fallback may have overwritten
export function sparseNearSymmetric(n: number, A: ArrayLike<number>, order: ArrayLike<number>, start: ArrayLike<number>, rows: ArrayLike<number>): boolean {
  for (let p = 0; p < n; p++) {
    const j = order[p],
      ajj = A[j * n + j];
    if (!(ajj > 0)) return false;
    for (let q = start[p]; q < start[p + 1]; q++) {
      const i = rows[q],
        dij = Math.abs(A[i * n + j] - A[j * n + i]);
      if (!(dij * dij <= 1e-24 * ajj * A[i * n + i])) return false;
    }
  }
  return n > 0;
}
