// Eigenvalues and eigenvectors of a symmetric 3x3 matrix (an inertia tensor)
// by cyclic Jacobi rotations (Golub & Van Loan, Matrix Computations, 4th ed.,
// algorithms 8.5.1-8.5.3): backward stable, so every eigenvalue is within a
// few eps of the largest entry, repeated ones too. (The closed form through
// acos(det(B)/2)/3 is not: it splits a repeated pair, e.g. the moments
// (0, a, a) of a rod, by ~1e-8 a.)

export interface SymmetricEigen {
  /** eigenvalues, unsorted */
  values: [number, number, number];
  /** V with A = V diag(values) V^T: column k is the unit eigenvector of values[k] */
  vectors: number[][];
}

// (symmetric A, row-major rows) => its eigenvalues and the rotation V that diagonalises it
export function symmetricEigen3(rows: readonly (readonly number[])[]): SymmetricEigen {
  const A = rows.map((row) => [row[0], row[1], row[2]]);
  const V = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const norm = Math.hypot(...A.flat());
  for (let sweep = 0; sweep < 30 && Math.hypot(A[0][1], A[0][2], A[1][2]) > 1e-17 * norm; sweep++) {
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ]) {
      if (A[p][q] === 0) continue;
      // the rotation J in the (p, q) plane that zeroes A_pq in J^T A J (algorithm 8.5.1)
      const tau = (A[q][q] - A[p][p]) / (2 * A[p][q]);
      const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.hypot(1, tau));
      const c = 1 / Math.hypot(1, t),
        s = t * c;
      for (const row of [...A, ...V]) [row[p], row[q]] = [c * row[p] - s * row[q], s * row[p] + c * row[q]];
      [A[p], A[q]] = [A[p].map((v, k) => c * v - s * A[q][k]), A[p].map((v, k) => s * v + c * A[q][k])];
      A[p][q] = A[q][p] = 0;
    }
  }
  return { values: [A[0][0], A[1][1], A[2][2]], vectors: V };
}
