// Operation counts: what one evaluation of generated code costs, and the
// cost models of the run-time solves the planner chooses between.

export interface OpCounts {
  /** multiplications */
  mul: number;
  /** additions and subtractions */
  add: number;
  /** divisions */
  div: number;
  /** elementary function calls (sin, cos, sqrt, ...) */
  fn: number;
}

/**
 * One number to compare two forms of the same model by (mode 'auto'): a
 * division or an elementary function (sqrt, sin, abs...) weighs four
 * additions, about their latency ratio on the machines we measure.
 */
export const modeCost = (o: OpCounts): number => o.mul + o.add + 4 * (o.div + o.fn);

export const noOps = (): OpCounts => ({ mul: 0, add: 0, div: 0, fn: 0 });

export function addOps(into: OpCounts, more: OpCounts, times = 1): OpCounts {
  into.mul += more.mul * times;
  into.add += more.add * times;
  into.div += more.div * times;
  into.fn += more.fn * times;
  return into;
}

/** operations of the runtime LU solve (row-scaled partial pivoting) of a dense k x k system, counted loop by loop */
export function luOps(k: number): OpCounts {
  const ops = noOps();
  // the row and column scales: |a_ij| twice, a_ij s_i once, a division per row and per column
  ops.fn += 2 * k * k;
  ops.mul += k * k;
  ops.div += 2 * k;
  // the scaled pivot search: |a_ip| s_i over the rows left, times the column's scale
  for (let p = 0; p < k; p++) {
    ops.fn += k - p;
    ops.mul += k - p + 1;
  }
  for (let p = 0; p < k; p++) {
    const below = k - 1 - p;
    ops.div += below; // l_ip = a_ip / a_pp
    ops.mul += below * below + below; // a_ij -= l_ip a_pj, b_i -= l_ip b_p
    ops.add += below * below + below;
  }
  for (let i = 0; i < k; i++) {
    const right = k - 1 - i; // back substitution
    ops.mul += right;
    ops.add += right;
    ops.div += 1;
  }
  return ops;
}

/**
 * operations of the runtime LU solve of a torn linear system, with its two
 * steps of iterative refinement (each: the residual, n^2 mul and add, and a
 * solve with the factors, n^2 mul and add and n div)
 */
export function refinedLuOps(k: number): OpCounts {
  return addOps(luOps(k), { mul: 2 * k * k, add: 2 * k * k, div: k, fn: 0 }, 2);
}

/** operations of the runtime Cholesky solve of a symmetric positive definite k x k system */
export function choleskyOps(k: number): OpCounts {
  const ops = noOps();
  for (let j = 0; j < k; j++) {
    ops.mul += j; // l_jj^2 = a_jj - sum l_jk^2
    ops.add += j;
    ops.mul += 1; // the pivot's test against its diagonal entry
    ops.div += 2; // and its ratio, for rcond; the reciprocal of l_jj
    ops.fn += 1; // sqrt
    for (let i = j + 1; i < k; i++) {
      ops.mul += j + 1; // l_ij = (a_ij - sum l_ik l_jk) / l_jj, by the reciprocal
      ops.add += j;
    }
  }
  for (let i = 0; i < k; i++) {
    ops.mul += 2 * i; // forward and back substitution
    ops.add += 2 * i;
    ops.div += 2;
  }
  return ops;
}
