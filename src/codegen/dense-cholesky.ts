// A symmetric positive definite n x n matrix (a mass matrix) factored once,
// A = L L^T, and solved for several right-hand sides: what the derivatives of
// forward dynamics need (M^-1 times the n columns of dID/dq, dID/dqd, and the
// identity). The generated code's own choleskySolve (runtime.ts) factors and
// solves one right-hand side in one call; here the factor is kept.
//
// Glossary: A, L row-major n x n (L lower; A's lower triangle is read); B n x m row-major.

/** L with L L^T = A into L (returned), or the index of the first pivot that is not positive */
export function choleskyFactor(n: number, A: ArrayLike<number>, L: Float64Array): Float64Array | number {
  for (let j = 0; j < n; j++) {
    let s = A[j * n + j];
    for (let k = 0; k < j; k++) s -= L[j * n + k] * L[j * n + k];
    // rounding of a pivot that cancels to nothing: relative to its diagonal entry
    if (!(s > 1e-14 * Math.abs(A[j * n + j]))) return j;
    const d = Math.sqrt(s), inv = 1 / d;
    L[j * n + j] = d;
    for (let i = j + 1; i < n; i++) {
      let v = A[i * n + j];
      for (let k = 0; k < j; k++) v -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = v * inv;
    }
    for (let i = 0; i < j; i++) L[i * n + j] = 0;
  }
  return L;
}

/** B = A^-1 B in place, A = L L^T: forward and back substitution on each of B's m columns */
export function choleskySolveColumns(n: number, L: Float64Array, B: Float64Array, m: number): Float64Array {
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) {
      const l = L[i * n + k];
      if (l !== 0) for (let c = 0; c < m; c++) B[i * m + c] -= l * B[k * m + c];
    }
    const inv = 1 / L[i * n + i];
    for (let c = 0; c < m; c++) B[i * m + c] *= inv;
  }
  for (let i = n - 1; i >= 0; i--) {
    const inv = 1 / L[i * n + i];
    for (let c = 0; c < m; c++) B[i * m + c] *= inv;
    for (let k = 0; k < i; k++) {
      const l = L[i * n + k];
      if (l !== 0) for (let c = 0; c < m; c++) B[k * m + c] -= l * B[i * m + c];
    }
  }
  return B;
}
