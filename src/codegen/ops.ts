// Operation counts of generated code: what one evaluation costs.

import type { OpCounts } from '../structure/op-counts.ts';

export type { OpCounts } from '../structure/op-counts.ts';

export const noOps = (): OpCounts => ({ mul: 0, add: 0, div: 0, fn: 0 });

export function addOps(into: OpCounts, more: OpCounts, times = 1): OpCounts {
  into.mul += more.mul * times;
  into.add += more.add * times;
  into.div += more.div * times;
  into.fn += more.fn * times;
  return into;
}

/** operations of the runtime LU solve (partial pivoting) of a dense k x k system, counted loop by loop */
export function luOps(k: number): OpCounts {
  const ops = noOps();
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

/** operations of the runtime Cholesky solve of a symmetric positive definite k x k system */
export function choleskyOps(k: number): OpCounts {
  const ops = noOps();
  for (let j = 0; j < k; j++) {
    ops.mul += j; // l_jj^2 = a_jj - sum l_jk^2
    ops.add += j;
    ops.fn += 1; // sqrt
    for (let i = j + 1; i < k; i++) {
      ops.mul += j;
      ops.add += j;
      ops.div += 1;
    }
  }
  for (let i = 0; i < k; i++) {
    ops.mul += 2 * i; // forward and back substitution
    ops.add += 2 * i;
    ops.div += 2;
  }
  return ops;
}
