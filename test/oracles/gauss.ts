// Oracle: dense Gaussian elimination with partial pivoting, written
// independently of the compiler (no symbolic code, no tearing).

// (A n x n, b) => x with A x = b; A and b are not modified; throws if A is singular
export function solveDense(A: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => {
    if (row.length !== n) throw new RangeError(`row ${i} has ${row.length} entries, expected ${n}`);
    return [...row, b[i]];
  });
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(M[i][k]) > Math.abs(M[p][k])) p = i;
    if (M[p][k] === 0) throw new Error(`singular matrix at column ${k}`);
    [M[k], M[p]] = [M[p], M[k]];
    for (let i = k + 1; i < n; i++) {
      const l = M[i][k] / M[k][k];
      for (let j = k; j <= n; j++) M[i][j] -= l * M[k][j];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = M[i][n];
    for (let j = i + 1; j < n; j++) s -= M[i][j] * x[j];
    x[i] = s / M[i][i];
  }
  return x;
}

// (A, x) => A x
export function matVec(A: readonly (readonly number[])[], x: readonly number[]): number[] {
  return A.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));
}
