// Dense LU with partial pivoting on the equilibrated matrix, for the
// sensitivities of the implicit function theorem (implicit.ts): F_z dZ = -F_w.
//
// Glossary
//   A   n x n row-major, never written (a copy is factored)
//   dr  1 / row maxima of A; dc 1 / column maxima of A scaled by dr
//   LU  the factors of dr A dc (unit lower L below the diagonal, U on and above)
//   perm row k of LU is row perm[k] of the scaled A
//
// Singularity is judged on the equilibrated matrix (as runtime.ts's luSolve,
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
}

/** the column (unknown) at which elimination found no pivot, and the equations that row came from */
export interface Singular {
  readonly singular: true;
  readonly column: number;
}

// (A) => factors of the equilibrated A, or the first column without a pivot
export function luFactor(n: number, A: Float64Array): LuFactors | Singular {
  const lu = Float64Array.from(A);
  const dr = new Float64Array(n), dc = new Float64Array(n);
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
  let small = Infinity, large = 0;
  for (let k = 0; k < n; k++) {
    let p = k, best = Math.abs(lu[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const a = Math.abs(lu[i * n + k]);
      if (a > best) (best = a), (p = i);
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
    const pivot = lu[k * n + k];
    for (let i = k + 1; i < n; i++) {
      const l = lu[i * n + k] / pivot;
      if (l === 0) continue;
      lu[i * n + k] = l;
      const ri = i * n, rk = k * n;
      for (let j = k + 1; j < n; j++) lu[ri + j] -= l * lu[rk + j];
    }
  }
  return { n, lu, perm, dr, dc, rcond: n === 0 ? 1 : small / large };
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
  const { n, lu, perm, dr, dc } = f;
  const y = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let s = b[perm[k]] * dr[perm[k]];
    for (let j = 0; j < k; j++) s -= lu[k * n + j] * y[j];
    y[k] = s;
  }
  for (let k = n - 1; k >= 0; k--) {
    let s = y[k];
    for (let j = k + 1; j < n; j++) s -= lu[k * n + j] * y[j];
    y[k] = s / lu[k * n + k];
  }
  for (let j = 0; j < n; j++) y[j] *= dc[j];
  return y;
}

// (A, factors, b) => x with A x = b, refined twice against the residual of the original A
export function luSolveRefined(A: Float64Array, f: LuFactors, b: Float64Array): Float64Array {
  const { n } = f;
  const x = luSolve(f, b);
  const r = new Float64Array(n);
  for (let step = 0; step < 2; step++) {
    for (let i = 0; i < n; i++) {
      let s = b[i];
      for (let j = 0; j < n; j++) s -= A[i * n + j] * x[j];
      r[i] = s;
    }
    const dx = luSolve(f, r);
    for (let j = 0; j < n; j++) x[j] += dx[j];
  }
  return x;
}
