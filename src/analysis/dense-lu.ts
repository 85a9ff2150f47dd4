// LU with partial pivoting on the equilibrated matrix, for the
// sensitivities of the implicit function theorem (implicit.ts): F_z dZ = -F_w.
//
// Glossary
//   A   n x n row-major, never written (a copy is factored)
//   dr  1 / row maxima of A; dc 1 / column maxima of A scaled by dr
//   LU  the factors of dr A dc (unit lower L below the diagonal, U on and above)
//   perm row k of LU is row perm[k] of the scaled A
//
// Dense storage, sparse work: each elimination step updates only the columns
// where the pivot row is non-zero, and the triangular solves run over the
// factors' non-zeros (a mechanism's F_z has a few entries per row and little
// fill-in). Singularity is judged on the equilibrated matrix (as runtime.ts's luSolve,
// LAPACK's dgeequ): a pivot below 16 n rounding units means that column's
// unknown is not determined by the equations (to working precision).

export interface LuFactors {
  readonly n: number;
  readonly lu: Float64Array;
  readonly perm: Int32Array;
  readonly dr: Float64Array;
  readonly dc: Float64Array;
  /** smallest pivot over the largest, a cheap lower bound of the reciprocal condition number */
  readonly rcond: number;
  /** the factors' non-zeros by rows */
  readonly lower: Csr;
  readonly upper: Csr;
}

/** compressed sparse rows: row i is cols/vals[start[i] .. start[i + 1]) */
export interface Csr {
  readonly start: Int32Array;
  readonly cols: Int32Array;
  readonly vals: Float64Array;
}

/** the column (unknown) at which elimination found no pivot, and the equations that row came from */
export interface Singular {
  readonly singular: true;
  readonly column: number;
}

// (A) => factors of the equilibrated A, or the first column without a pivot
export function luFactor(n: number, A: Float64Array): LuFactors | Singular {
  const lu = Float64Array.from(A);
  const dr = new Float64Array(n),
    dc = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let j = 0; j < n; j++) m = Math.max(m, Math.abs(lu[i * n + j]));
    if (m === 0) return { singular: true, column: firstUnmatchedColumn(n, A, i) };
    dr[i] = 1 / m;
  }
  for (let j = 0; j < n; j++) {
    let m = 0;
    for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(lu[i * n + j]) * dr[i]);
    if (m === 0) return { singular: true, column: j };
    dc[j] = 1 / m;
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) lu[i * n + j] *= dr[i] * dc[j];
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  const tiny = 16 * n * Number.EPSILON;
  const nz = new Int32Array(n);
  let small = Infinity,
    large = 0;
  for (let k = 0; k < n; k++) {
    let p = k,
      best = Math.abs(lu[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const a = Math.abs(lu[i * n + k]);
      if (a > best) ((best = a), (p = i));
    }
    if (!(best > tiny)) return { singular: true, column: k };
    small = Math.min(small, best);
    large = Math.max(large, best);
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        const t = lu[k * n + j];
        lu[k * n + j] = lu[p * n + j];
        lu[p * n + j] = t;
      }
      const t = perm[k];
      perm[k] = perm[p];
      perm[p] = t;
    }
    // the pivot row's non-zeros: the update touches only those columns (mechanisms give sparse F_z)
    const rk = k * n;
    let m = 0;
    for (let j = k + 1; j < n; j++) if (lu[rk + j] !== 0) nz[m++] = j;
    const pivot = lu[rk + k];
    for (let i = k + 1; i < n; i++) {
      const ri = i * n;
      if (lu[ri + k] === 0) continue;
      const l = (lu[ri + k] /= pivot);
      for (let t = 0; t < m; t++) lu[ri + nz[t]] -= l * lu[rk + nz[t]];
    }
  }
  return { n, lu, perm, dr, dc, rcond: n === 0 ? 1 : small / large, ...sparseFactors(n, lu) };
}

/** the non-zeros of L (below the diagonal) and U (above it) by rows: the solves visit only those */
function sparseFactors(n: number, lu: Float64Array): { lower: Csr; upper: Csr } {
  const lower: number[] = [],
    upper: number[] = [];
  const ls = new Int32Array(n + 1),
    us = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) if (lu[i * n + j] !== 0) lower.push(j);
    for (let j = i + 1; j < n; j++) if (lu[i * n + j] !== 0) upper.push(j);
    ls[i + 1] = lower.length;
    us[i + 1] = upper.length;
  }
  const values = (cols: number[], start: Int32Array) => {
    const v = new Float64Array(cols.length);
    for (let i = 0; i < n; i++) for (let t = start[i]; t < start[i + 1]; t++) v[t] = lu[i * n + cols[t]];
    return v;
  };
  return {
    lower: { start: ls, cols: Int32Array.from(lower), vals: values(lower, ls) },
    upper: { start: us, cols: Int32Array.from(upper), vals: values(upper, us) },
  };
}

/** a zero row: name the first column it leaves without an equation (any, for the message) */
function firstUnmatchedColumn(n: number, A: Float64Array, row: number): number {
  for (let j = 0; j < n; j++) {
    let used = false;
    for (let i = 0; i < n && !used; i++) used = i !== row && A[i * n + j] !== 0;
    if (!used) return j;
  }
  return 0;
}

export function isSingular(f: LuFactors | Singular): f is Singular {
  return 'singular' in f;
}

// (factors, b) => x with A x = b (b not written)
export function luSolve(f: LuFactors, b: Float64Array): Float64Array {
  const { n, lu, perm, dr, dc, lower, upper } = f;
  const y = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let s = b[perm[k]] * dr[perm[k]];
    for (let t = lower.start[k]; t < lower.start[k + 1]; t++) s -= lower.vals[t] * y[lower.cols[t]];
    y[k] = s;
  }
  for (let k = n - 1; k >= 0; k--) {
    let s = y[k];
    for (let t = upper.start[k]; t < upper.start[k + 1]; t++) s -= upper.vals[t] * y[upper.cols[t]];
    y[k] = s / lu[k * n + k];
  }
  for (let j = 0; j < n; j++) y[j] *= dc[j];
  return y;
}

// (A by sparse rows, factors, b) => x with A x = b, refined once against the residual of the original A
export function luSolveRefined(A: Csr, f: LuFactors, b: Float64Array): Float64Array {
  const { n } = f;
  const x = luSolve(f, b);
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let t = A.start[i]; t < A.start[i + 1]; t++) s -= A.vals[t] * x[A.cols[t]];
    r[i] = s;
  }
  const dx = luSolve(f, r);
  for (let j = 0; j < n; j++) x[j] += dx[j];
  return x;
}

/** the non-zeros of a dense row-major n x n matrix by rows */
export function csr(n: number, A: Float64Array): Csr {
  const start = new Int32Array(n + 1),
    cols: number[] = [],
    vals: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) if (A[i * n + j] !== 0) (cols.push(j), vals.push(A[i * n + j]));
    start[i + 1] = cols.length;
  }
  return { start, cols: Int32Array.from(cols), vals: Float64Array.from(vals) };
}
