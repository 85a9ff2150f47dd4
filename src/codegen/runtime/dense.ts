// Dense LU solves of the torn systems H z = c, and the arrays of doubles
// every generated module and its run-time helpers work in.
//
// Singularity is judged on the scale of the matrix, not of its largest entry:
// a mass matrix with one link of 1e12 kg has entries from 1e-3 to 1e12 and is
// regular. The solves (this file, cholesky.ts) work as if on the
// equilibrated matrix (rows and columns scaled to a largest entry of one; for
// Cholesky the symmetric scaling to a unit diagonal), where a pivot within
// 16 k rounding units of zero means H is singular to working precision. (A
// row, or a diagonal entry, small against the largest entry is not judged:
// with a 1e12 kg body beside 1 kg ones a regular coordinate's diagonal is
// 1e-14 of the largest, as small as rounding noise would be in a system of
// like masses.) They return the smallest equilibrated pivot over the
// largest, a cheap lower bound of the reciprocal condition number (rcond),
// or 0 when H is singular.
import type { Workspace } from './types.ts';

// 16 k rounding units: the equilibrated pivot below which a k x k system is singular
export function singularBelow(n: number): number {
  return 16 * n * 2.220446049250313e-16;
}

// n zeros in a plain array of doubles (V8's PACKED_DOUBLE_ELEMENTS, kept by
// starting from a double): the workspace and every scratch array. Read and
// written as fast as a Float64Array, and free of the check V8 adds to each
// typed-array access once any buffer in the process has been detached (a
// WebAssembly memory that grows, a transfer to a worker): measured with CPU
// time, the relaxed chain n = 256 took 0.83 of the Float64Array time before a
// detach and 0.49 after it, the PUMA 560 torn 0.87 and 0.76.
export function doubles(n: number): number[] {
  const a = [0.5];
  a.length = 0;
  for (let i = 0; i < n; i++) a.push(0);
  return a;
}

// scratch space for the LU solve: row and column scales, the row swaps, a
// copy of A and b, grown once and kept (one per generated module)
let scratch = doubles(64);
function space(n: number): number[] {
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
export function luSolve(n: number, A: Workspace, b: Workspace, refine?: boolean): number {
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
  let small = Infinity,
    large = 0;
  for (let p = 0; p < n; p++) {
    let m = p,
      big = Math.abs(A[p * n + p]) * s[p];
    for (let i = p + 1; i < n; i++) {
      const v = Math.abs(A[i * n + p]) * s[i];
      if (v > big) {
        big = v;
        m = i;
      }
    }
    const scaled = big * s[n + p];
    if (!(scaled > tiny)) return 0;
    small = Math.min(small, scaled);
    large = Math.max(large, scaled);
    s[2 * n + p] = m;
    if (m !== p) {
      for (let j = 0; j < n; j++) {
        const t = A[p * n + j];
        A[p * n + j] = A[m * n + j];
        A[m * n + j] = t;
      }
      const u = s[p];
      s[p] = s[m];
      s[m] = u;
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
    const r = 4 * n,
      A0 = 5 * n,
      b0 = 3 * n;
    for (let step = 0; step < 2; step++) {
      for (let i = 0; i < n; i++) {
        let t = s[b0 + i];
        for (let j = 0; j < n; j++) t -= s[A0 + i * n + j] * b[j];
        s[r + i] = t;
      }
      luApply(n, A, s, s, r); // in place in the scratch: a subarray view would allocate at every call
      let change = 0,
        size = 0;
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
function luApply(n: number, A: Workspace, s: Workspace, b: Workspace, o = 0): void {
  // the swaps moved whole rows, multipliers included: all of them first, as LAPACK's getrs
  for (let p = 0; p < n; p++) {
    const m = s[2 * n + p];
    if (m !== p) {
      const t = b[o + p];
      b[o + p] = b[o + m];
      b[o + m] = t;
    }
  }
  for (let p = 0; p < n; p++) for (let i = p + 1; i < n; i++) b[o + i] -= A[i * n + p] * b[o + p];
  for (let i = n - 1; i >= 0; i--) {
    let t = b[o + i];
    for (let j = i + 1; j < n; j++) t -= A[i * n + j] * b[o + j];
    b[o + i] = t / A[i * n + i];
  }
}
