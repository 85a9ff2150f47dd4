// Operation counts: what one evaluation of generated code costs, and the
// cost models of the run-time solves the planner chooses between.
import type { Expr } from '../expr/index.ts';

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

/**
 * The one rule for what an expression node costs in generated code, counted
 * once per distinct node (codegen/emitter.ts prints each node once; cramer.ts
 * and the planner estimate with it): a sum of m terms m-1 adds; a product of
 * m factors m-1 muls, a leading constant factor other than +-1 one of them;
 * a quotient one div; a power n <= 8 n-1 muls, a larger one (Math.pow) and
 * a function one fn; constants, symbols, relax (printed as its argument) and
 * residue (printed as 0) nothing.
 */
export function nodeOps(n: Expr, into: OpCounts): void {
  switch (n.op) {
    case 'add':
      into.add += n.args.length - 1;
      break;
    case 'mul': {
      const c = n.args[0].op === 'const' ? n.args[0].value : 1;
      into.mul += (c === 1 ? n.args.length : n.args.length - 1) + (Math.abs(c) !== 1 ? 1 : 0) - 1;
      break;
    }
    case 'div':
      into.div += 1;
      break;
    case 'pow':
      if (n.value > 8) into.fn += 1;
      else into.mul += n.value - 1;
      break;
    case 'fn':
      into.fn += 1;
      break;
    default:
      break;
  }
}

/** operations of these expressions in generated code, each distinct node counted once (nodeOps) */
export function expressionOps(exprs: readonly Expr[]): OpCounts {
  const ops = noOps();
  const seen = new Set<number>();
  const stack: Expr[] = [];
  // a node is marked when pushed, so it is pushed once: a torn H's prelude is thousands of nodes that
  // share their arguments, and pushing every argument (spread) to skip it later was the cost (the
  // humanoid's hottest function with the compiler warm)
  const visit = (e: Expr) => {
    if (seen.has(e.id)) return;
    seen.add(e.id);
    stack.push(e);
  };
  exprs.forEach(visit);
  while (stack.length > 0) {
    const n = stack.pop()!;
    nodeOps(n, ops);
    for (let i = 0; i < n.args.length; i++) visit(n.args[i]);
  }
  return ops;
}

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
