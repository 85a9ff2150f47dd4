// A symmetric positive definite n x n matrix (a mass matrix) factored once,
// A = L^T L, and solved for several right-hand sides: what the derivatives of
// forward dynamics need (M^-1 times the n columns of dID/dq, dID/dqd, and the
// identity). L^T L, not L L^T: factored from the last row up, a tree's mass
// matrix (parents numbered before children) has no fill-in, so L keeps M's
// branch-induced zeros and both the factorisation and the solves skip them
// (Featherstone, Rigid Body Dynamics Algorithms, section 6.5, the LTL
// factorisation). Any order is right; a tree's is fast.
//
// Glossary: A, L row-major n x n (L lower; A's lower triangle is read); B n x m row-major.

/** L with L^T L = A into L (returned), or the index of the first pivot that is not positive */
export function ltlFactor(n: number, A: ArrayLike<number>, L: Float64Array): Float64Array | number {
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) L[i * n + j] = j <= i ? A[i * n + j] : 0;
  for (let k = n - 1; k >= 0; k--) {
    const d = L[k * n + k];
    // rounding of a pivot that cancels to nothing: relative to its diagonal entry
    if (!(d > 1e-14 * Math.abs(A[k * n + k]))) return k;
    const s = Math.sqrt(d),
      inv = 1 / s;
    L[k * n + k] = s;
    for (let j = 0; j < k; j++) L[k * n + j] *= inv;
    for (let i = 0; i < k; i++) {
      const li = L[k * n + i];
      if (li === 0) continue;
      for (let j = 0; j <= i; j++) L[i * n + j] -= li * L[k * n + j];
    }
  }
  return L;
}

/** B = A^-1 B in place, A = L^T L: L^T Y = B from the last row up, then L X = Y; zeros of L skipped */
export function ltlSolveColumns(n: number, L: Float64Array, B: Float64Array, m: number): Float64Array {
  for (let i = n - 1; i >= 0; i--) {
    const inv = 1 / L[i * n + i];
    for (let c = 0; c < m; c++) B[i * m + c] *= inv;
    for (let k = 0; k < i; k++) {
      const l = L[i * n + k];
      if (l !== 0) for (let c = 0; c < m; c++) B[k * m + c] -= l * B[i * m + c];
    }
  }
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) {
      const l = L[i * n + k];
      if (l !== 0) for (let c = 0; c < m; c++) B[i * m + c] -= l * B[k * m + c];
    }
    const inv = 1 / L[i * n + i];
    for (let c = 0; c < m; c++) B[i * m + c] *= inv;
  }
  return B;
}
