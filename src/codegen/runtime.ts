// The run-time helpers generated code calls: dense solves of the torn systems
// H z = c, and the drivers of torn loops (runtime-loops.ts: Newton,
// successive substitution, H by columns). Kept as JavaScript source so that
// an emitted module is self-contained; compiled once here for direct use and
// tests.
//
// Singularity is judged on the scale of the matrix, not of its largest entry:
// a mass matrix with one link of 1e12 kg has entries from 1e-3 to 1e12 and is
// regular. Both solves work as if on the equilibrated matrix (rows and
// columns scaled to a largest entry of one; for Cholesky the symmetric
// scaling to a unit diagonal), where a pivot within 16 k rounding units of
// zero means H is singular to working precision. (A row, or a diagonal
// entry, small against the largest entry is not judged: with a 1e12 kg body
// beside 1 kg ones a regular coordinate's diagonal is 1e-14 of the largest,
// as small as rounding noise would be in a system of like masses.)
// They return the smallest equilibrated pivot over the largest, a cheap lower
// bound of the reciprocal condition number (rcond), or 0 when H is singular.

import { PIVOT_EPS } from '../structure/plan-types.ts';
import { LOOPS_SOURCE } from './runtime-loops.ts';

export const RUNTIME_SOURCE = String.raw`
// A relaxed pivot p checked against the largest |pivot| of its loop so far,
// kept in w[s] (plan-types.ts, Checked): false when p cannot be trusted
// (zero, NaN, or below ${PIVOT_EPS} of that scale).
// The load and the comparison with the scale run every time: reached only when
// the scale stops growing (the PUMA falling from rest grows it for thousands of
// evaluations) they would have no type feedback, and V8 would throw away the
// optimised code of the function pivotOk is inlined into. The store has its
// feedback from the first evaluation, where the scale starts at 0.
function pivotOk(p, w, s) {
  const m = Math.abs(p), largest = w[s], above = m > ${PIVOT_EPS} * largest;
  if (m > largest) {
    w[s] = m;
    return true;
  }
  return above;
}

// 16 k rounding units: the equilibrated pivot below which a k x k system is singular
function singularBelow(n) {
  return 16 * n * 2.220446049250313e-16;
}

// n zeros in a plain array of doubles (V8's PACKED_DOUBLE_ELEMENTS, kept by
// starting from a double): the workspace and every scratch array. Read and
// written as fast as a Float64Array, and free of the check V8 adds to each
// typed-array access once any buffer in the process has been detached (a
// WebAssembly memory that grows, a transfer to a worker): measured with CPU
// time, the relaxed chain n = 256 took 0.83 of the Float64Array time before a
// detach and 0.49 after it, the PUMA 560 torn 0.87 and 0.76.
function doubles(n) {
  const a = [0.5];
  a.length = 0;
  for (let i = 0; i < n; i++) a.push(0);
  return a;
}

let scratch = doubles(64);
// scratch space for the LU solve: row and column scales, the row swaps, a
// copy of A and b, grown once and kept
function space(n) {
  const need = 5 * n + n * n;
  if (scratch.length < need) scratch = doubles(2 * need);
  return scratch;
}

// Solve A x = b in place by LU with row-scaled partial pivoting (A row-major
// n x n; b becomes x). Pivots are tested as if rows and then columns were
// scaled to a largest entry of one (as LAPACK's dgeequ). Returns rcond, the
// smallest scaled pivot over the largest, or 0 when A is singular.
// With refine, two steps of iterative refinement follow (residual of the
// original system, solved with the same factors): the constrained systems of
// loops next to heavy bodies (a 1e12 kg link beside 1 kg ones) are badly
// scaled, and the factorisation alone lost up to 5e-6 of their solution where
// the mass-scaled problem is well conditioned.
function luSolve(n, A, b, refine) {
  const s = space(n); // [0, n): 1 / row maxima; [n, 2n): 1 / column maxima; [2n, 3n): swaps; [3n, 4n): b; [4n, 5n): residual; then A
  const tiny = singularBelow(n);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let j = 0; j < n; j++) m = Math.max(m, Math.abs(A[i * n + j]));
    if (!(m > 0 && m < Infinity)) return 0;
    s[i] = 1 / m;
  }
  for (let j = 0; j < n; j++) {
    let m = 0;
    for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(A[i * n + j]) * s[i]);
    if (!(m > 0)) return 0;
    s[n + j] = 1 / m;
  }
  if (refine) {
    for (let i = 0; i < n; i++) s[3 * n + i] = b[i];
    for (let k = 0; k < n * n; k++) s[5 * n + k] = A[k];
  }
  let small = Infinity, large = 0;
  for (let p = 0; p < n; p++) {
    let m = p, big = Math.abs(A[p * n + p]) * s[p];
    for (let i = p + 1; i < n; i++) {
      const v = Math.abs(A[i * n + p]) * s[i];
      if (v > big) { big = v; m = i; }
    }
    const scaled = big * s[n + p];
    if (!(scaled > tiny)) return 0;
    small = Math.min(small, scaled);
    large = Math.max(large, scaled);
    s[2 * n + p] = m;
    if (m !== p) {
      for (let j = 0; j < n; j++) { const t = A[p * n + j]; A[p * n + j] = A[m * n + j]; A[m * n + j] = t; }
      const u = s[p]; s[p] = s[m]; s[m] = u;
    }
    const d = A[p * n + p];
    for (let i = p + 1; i < n; i++) {
      const l = (A[i * n + p] /= d); // the multiplier stays in L's place, for refinement
      if (l === 0) continue;
      for (let j = p + 1; j < n; j++) A[i * n + j] -= l * A[p * n + j];
    }
  }
  luApply(n, A, s, b);
  if (refine) {
    const r = 4 * n, A0 = 5 * n, b0 = 3 * n;
    for (let step = 0; step < 2; step++) {
      for (let i = 0; i < n; i++) {
        let t = s[b0 + i];
        for (let j = 0; j < n; j++) t -= s[A0 + i * n + j] * b[j];
        s[r + i] = t;
      }
      luApply(n, A, s, s, r); // in place in the scratch: a subarray view would allocate at every call
      let change = 0, size = 0;
      for (let i = 0; i < n; i++) {
        b[i] += s[r + i];
        change = Math.max(change, Math.abs(s[r + i]));
        size = Math.max(size, Math.abs(b[i]));
      }
      if (!(change > 1e-16 * size)) break;
    }
  }
  return small / large;
}

// x from the factors luSolve left in A (unit L below, U on and above the
// diagonal) and its row swaps in s[2n, 3n): b[o, o + n) becomes x
function luApply(n, A, s, b, o = 0) {
  // the swaps moved whole rows, multipliers included: all of them first, as LAPACK's getrs
  for (let p = 0; p < n; p++) {
    const m = s[2 * n + p];
    if (m !== p) { const t = b[o + p]; b[o + p] = b[o + m]; b[o + m] = t; }
  }
  for (let p = 0; p < n; p++) for (let i = p + 1; i < n; i++) b[o + i] -= A[i * n + p] * b[o + p];
  for (let i = n - 1; i >= 0; i--) {
    let t = b[o + i];
    for (let j = i + 1; j < n; j++) t -= A[i * n + j] * b[o + j];
    b[o + i] = t / A[i * n + i];
  }
}

${LOOPS_SOURCE}
// Is the n x n A symmetric up to rounding, measured on A scaled to a unit
// diagonal: |a_ij - a_ji| against sqrt(a_ii a_jj)? A torn mass matrix is, but
// its two triangles are computed along different paths; on the PUMA 560 the
// scaled difference is at most 2.2e-15 over 1000 random states, where entry
// by entry (isSymmetric) a pair such as 1e-18 against exactly 0 differs by
// 100%. A non-positive diagonal is not symmetric positive definite: false.
function nearSymmetric(n, A) {
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
function isSymmetric(n, A) {
  for (let i = 1; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const a = A[i * n + j], b = A[j * n + i];
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
function choleskyTiny(n) {
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
function choleskySolve(n, A, b) {
  const tiny = choleskyTiny(n);
  let small = 1;
  for (let j = 0; j < n; j++) {
    const ajj = A[j * n + j];
    const s = ajj - rowDot(A, j * n, A, j * n, j);
    if (!(ajj > 0 && ajj < Infinity)) return ajj < 0 ? 0 : -1;
    if (!(s > tiny * ajj)) return s < -tiny * ajj ? 0 : -1;
    small = Math.min(small, s / ajj); // as sparseCholeskySolve, whose unrolled form needs no branch
    const d = Math.sqrt(s), inv = 1 / d;
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
function rowDot(A, a, B, c, m) {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, k = 0;
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
function sparseCholeskySolve(n, A, b, order, start, rows, d) {
  const tiny = choleskyTiny(n);
  let small = 1;
  for (let j = 0; j < n; j++) d[j] = A[j * n + j];
  for (let p = 0; p < n; p++) {
    const j = order[p], ajj = d[j], s = A[j * n + j];
    if (!(ajj > 0 && ajj < Infinity)) return ajj < 0 ? 0 : -1;
    if (!(s > tiny * ajj)) return s < -tiny * ajj ? 0 : -1;
    small = Math.min(small, s / ajj); // no branch: see unrolledCholesky
    const l = Math.sqrt(s), inv = 1 / l;
    A[j * n + j] = l;
    d[j] = inv; // the diagonal is judged; from here d holds 1 / l_jj for the solves
    const first = start[p], end = start[p + 1];
    for (let q = first; q < end; q++) A[rows[q] * n + j] *= inv;
    for (let q = first; q < end; q++) {
      const i = rows[q], lij = A[i * n + j];
      for (let r = first; r < q; r++) A[i * n + rows[r]] -= lij * A[rows[r] * n + j];
      A[i * n + i] -= lij * lij;
    }
  }
  for (let p = 0; p < n; p++) {
    const j = order[p], x = (b[j] *= d[j]);
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
function sparseNearSymmetric(n, A, order, start, rows) {
  for (let p = 0; p < n; p++) {
    const j = order[p], ajj = A[j * n + j];
    if (!(ajj > 0)) return false;
    for (let q = start[p]; q < start[p + 1]; q++) {
      const i = rows[q], dij = Math.abs(A[i * n + j] - A[j * n + i]);
      if (!(dij * dij <= 1e-24 * ajj * A[i * n + i])) return false;
    }
  }
  return n > 0;
}
`;

/** the generated code's workspace: a plain array of doubles (doubles()); with the WebAssembly target, its memory's view (wasm.ts) */
export type Workspace = number[] | Float64Array;

/** returns rcond (a lower bound of the reciprocal condition number of the equilibrated matrix), 0 when singular */
type Solve = (n: number, A: ArrayLike<number> & { [i: number]: number }, b: ArrayLike<number> & { [i: number]: number }, refine?: boolean) => number;

/** a straight-line piece of a torn loop, as generated: (t, x, u, p, w) */
type Piece = (t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace) => void;
/** successive substitution's step (substitution.ts): false at a vanishing diagonal */
type Step = (t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace) => boolean;
/** the module's error reporter (compiled.ts, Fail) */
type Report = (kind: string, block: number, t: number, residual: number, extra?: unknown) => void;
/** a torn nonlinear loop's record (runtime-loops.ts, newtonBlock) */
export interface NewtonBlock {
  readonly k: number;
  readonly r: Workspace;
  readonly J: Workspace;
}
/** a linear loop formed by columns (runtime-loops.ts, columnsBlock) */
export interface ColumnsBlock {
  readonly k: number;
  readonly H: Workspace;
  readonly c: Workspace;
}

export const { luSolve, choleskySolve, sparseCholeskySolve, isSymmetric, nearSymmetric, sparseNearSymmetric, singularBelow, choleskyTiny, doubles, signWatch, newtonBlock, newtonSolve, columnsBlock, columnsForm } = new Function(
  `${RUNTIME_SOURCE}; return { luSolve, choleskySolve, sparseCholeskySolve, isSymmetric, nearSymmetric, sparseNearSymmetric, singularBelow, choleskyTiny, doubles, signWatch, newtonBlock, newtonSolve, columnsBlock, columnsForm };`,
)() as {
  /** a torn nonlinear loop: z its workspace slots; record the slots of a closure's branch record (newtonClosed; else none); maxSweeps, the 4 stats slots and the step for successive substitution (else 0, none, null) */
  newtonBlock: (k: number, block: number, z: Int32Array, r: Workspace, J: Workspace, residual: Piece, jacobian: Piece, fail: Report, record: Int32Array, maxSweeps: number, stats: Int32Array, step: Step | null) => NewtonBlock;
  /** Newton (after successive substitution when asked) on the block's tearing variables in w */
  newtonSolve: (b: NewtonBlock, t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace) => void;
  columnsBlock: (k: number, z: Int32Array, dz: Int32Array, H: Workspace, c: Workspace, r: Workspace, d: Workspace, residual: Piece, direction: Piece) => ColumnsBlock;
  /** H and c of the block, by columns */
  columnsForm: (b: ColumnsBlock, t: number, x: ArrayLike<number>, u: ArrayLike<number>, p: ArrayLike<number>, w: Workspace) => void;
  doubles: (n: number) => Workspace;
  /** a value that must keep its sign along a run, recorded in w at the 6 slots R: 1 its sign changed, 2 its extrapolation's did, else 0 (runtime-loops.ts) */
  signWatch: (w: Workspace, R: ArrayLike<number>, t: number, value: number) => 0 | 1 | 2;
  luSolve: Solve;
  choleskySolve: Solve;
  isSymmetric: (n: number, A: ArrayLike<number>) => boolean;
  nearSymmetric: (n: number, A: ArrayLike<number>) => boolean;
  sparseCholeskySolve: (n: number, A: number[] | Float64Array, b: number[] | Float64Array, order: ArrayLike<number>, start: ArrayLike<number>, rows: ArrayLike<number>, d: number[] | Float64Array) => number;
  sparseNearSymmetric: (n: number, A: ArrayLike<number>, order: ArrayLike<number>, start: ArrayLike<number>, rows: ArrayLike<number>) => boolean;
  singularBelow: (n: number) => number;
  /** the singular-pivot threshold of a Cholesky factorisation of n, relative to the diagonal */
  choleskyTiny: (n: number) => number;
};
