// The run-time helpers generated code calls: dense solves of the torn systems
// H z = c. Kept as JavaScript source so that an emitted module is
// self-contained; compiled once here for direct use and tests.

export const RUNTIME_SOURCE = String.raw`
// Solve A x = b in place by LU with partial pivoting (A row-major n x n; b becomes x).
// Returns false when a pivot is zero relative to the largest entry: H is singular.
function luSolve(n, A, b) {
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale = Math.max(scale, Math.abs(A[i]));
  const tiny = 1e-14 * scale;
  for (let p = 0; p < n; p++) {
    let m = p, big = Math.abs(A[p * n + p]);
    for (let i = p + 1; i < n; i++) {
      const v = Math.abs(A[i * n + p]);
      if (v > big) { big = v; m = i; }
    }
    if (!(big > tiny)) return false;
    if (m !== p) {
      for (let j = p; j < n; j++) { const s = A[p * n + j]; A[p * n + j] = A[m * n + j]; A[m * n + j] = s; }
      const s = b[p]; b[p] = b[m]; b[m] = s;
    }
    const d = A[p * n + p];
    for (let i = p + 1; i < n; i++) {
      const l = A[i * n + p] / d;
      if (l === 0) continue;
      for (let j = p + 1; j < n; j++) A[i * n + j] -= l * A[p * n + j];
      b[i] -= l * b[p];
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let j = i + 1; j < n; j++) s -= A[i * n + j] * b[j];
    b[i] = s / A[i * n + i];
  }
  return true;
}

// Is the n x n A symmetric up to rounding? (a torn mass matrix is, but its two
// triangles are computed along different paths)
function isSymmetric(n, A) {
  for (let i = 1; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const a = A[i * n + j], b = A[j * n + i];
      if (Math.abs(a - b) > 1e-10 * (Math.abs(a) + Math.abs(b)) + 1e-300) return false;
    }
  }
  return true;
}

// Solve A x = b in place by Cholesky, reading the lower triangle of the symmetric A.
// Returns false when A is not positive definite (A is then overwritten; refill it).
function choleskySolve(n, A, b) {
  for (let j = 0; j < n; j++) {
    let s = A[j * n + j];
    for (let k = 0; k < j; k++) s -= A[j * n + k] * A[j * n + k];
    if (!(s > 0)) return false;
    const d = Math.sqrt(s);
    A[j * n + j] = d;
    for (let i = j + 1; i < n; i++) {
      let t = A[i * n + j];
      for (let k = 0; k < j; k++) t -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = t / d;
    }
  }
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= A[i * n + k] * b[k];
    b[i] = s / A[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < n; k++) s -= A[k * n + i] * b[k];
    b[i] = s / A[i * n + i];
  }
  return true;
}
`;

type Solve = (n: number, A: Float64Array, b: Float64Array) => boolean;

export const { luSolve, choleskySolve, isSymmetric } = new Function(`${RUNTIME_SOURCE}; return { luSolve, choleskySolve, isSymmetric };`)() as {
  luSolve: Solve;
  choleskySolve: Solve;
  isSymmetric: (n: number, A: Float64Array) => boolean;
};
