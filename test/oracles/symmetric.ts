// Oracle: dense symmetric linear algebra on plain number arrays, written
// independently of the compiler: the cyclic Jacobi eigenvalue method (Golub &
// Van Loan, Matrix Computations, sec. 8.5) and, on it, a solve of a symmetric
// positive semi-definite system that classifies it as singular or regular
// with a condition estimate.
//
// Why eigenvalues and not a factorisation: the oracle must say *how* singular
// a mass matrix is, independently of the pivot order any factorisation picks,
// and a condition number is the quantity that does. The sizes are small
// (n <= ~30), where Jacobi is exact to a few ulps relative to |A|.
//
// The singularity test is scaled: A is first scaled to unit diagonal,
// S = D^-1/2 A D^-1/2 (D = diag A), which removes the units of each coordinate
// (kg m^2 for a rotation, kg for a translation) and the mass scale of the
// subtree behind it (a link of 1e12 kg next to links of 1 kg is not singular,
// only badly scaled). S is singular when its smallest eigenvalue is at most
// SINGULAR (its largest is at most n): the analogue of an LDL^T pivot test
// `pivot <= eps * own diagonal`. A zero diagonal entry (a coordinate that
// moves no mass) is singular outright.

export type Matrix = number[][];

/** scaled smallest eigenvalue at or below which a unit-diagonal PSD matrix is singular */
export const SINGULAR = 1e-11;

export interface Eigen {
  /** eigenvalues, ascending */
  values: number[];
  /** vectors[k] is the unit eigenvector of values[k] */
  vectors: number[][];
}

// (A symmetric n x n) => eigenvalues ascending and orthonormal eigenvectors; A is not modified
export function symmetricEigen(A: readonly (readonly number[])[]): Eigen {
  const n = A.length;
  const a = A.map((r) => [...r]);
  const v: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0,
      total = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) i === j ? (total += a[i][j] ** 2) : (off += a[i][j] ** 2);
    if (off <= 1e-32 * (total + off) || off === 0) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        if (a[p][q] === 0) continue;
        // the rotation that zeroes a[p][q] (Golub & Van Loan, Algorithm 8.5.1, sym.schur2)
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p],
            akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k],
            aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p],
            vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[i][i] - a[j][j]);
  return { values: order.map((i) => a[i][i]), vectors: order.map((i) => v.map((row) => row[i])) };
}

export type SpdSolution =
  | { singular: false; x: number[]; /** condition number of the unit-diagonal scaled matrix */ cond: number; minScaled: number }
  | { singular: true; cond: number; minScaled: number; why: string };

/** (A symmetric PSD, b) => x with A x = b, or "singular" by the scaled test in the header */
export function solveSymmetricPsd(A: readonly (readonly number[])[], b: readonly number[]): SpdSolution {
  const n = A.length;
  if (n === 0) return { singular: false, x: [], cond: 1, minScaled: 1 };
  const ref = A.map((row, i) => row[i]);
  const zero = ref.findIndex((v) => !(v > 0));
  if (zero >= 0) return { singular: true, cond: Infinity, minScaled: 0, why: `diagonal entry ${zero} is ${A[zero][zero]}` };
  const d = ref.map((v) => 1 / Math.sqrt(v));
  const S = A.map((row, i) => row.map((x, j) => d[i] * x * d[j]));
  const { values, vectors } = symmetricEigen(S);
  const min = values[0],
    max = values[n - 1];
  const cond = min > 0 ? max / min : Infinity;
  if (min <= SINGULAR) return { singular: true, cond, minScaled: min, why: `smallest eigenvalue of the scaled matrix ${min.toExponential(2)}` };
  // x = D^-1/2 V L^-1 V^T D^-1/2 b
  const c = b.map((x, i) => d[i] * x);
  const y = new Array<number>(n).fill(0);
  for (let k = 0; k < n; k++) {
    const u = vectors[k];
    const s = u.reduce((acc, uk, i) => acc + uk * c[i], 0) / values[k];
    for (let i = 0; i < n; i++) y[i] += s * u[i];
  }
  return { singular: false, x: y.map((yi, i) => d[i] * yi), cond, minScaled: min };
}

// (A m x n, x) => A x
export const mulMatVec = (A: readonly (readonly number[])[], x: readonly number[]): number[] => A.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));

/** max |x_i| */
export const maxAbs = (x: readonly number[]): number => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
