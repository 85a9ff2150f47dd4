// Branch-induced sparsity of a torn mass matrix (Featherstone 2005, "Efficient
// factorization of the joint-space inertia matrix for branched kinematic
// trees"): H_ij is structurally zero unless joint i supports joint j or the
// other way round, and the relaxed elimination with the qdd kept leaves those
// entries as the constant 0. Eliminated leaves first, such a matrix factors
// with no fill-in at O(n d^2) for depth d, where dense Cholesky costs n^3/6.
//
// The pattern is ordered by minimum degree (which finds the leaves-first
// order of a tree and a small fill for any other pattern), and each pivot's
// later neighbours are listed in elimination order; whether it is used is the
// planner's choice (solve-form.ts, SolveForm), and the run-time solve
// (codegen/runtime/cholesky.ts sparseCholeskySolve, or its unrolled form,
// codegen/sparse-cholesky.ts) walks those lists.
import { type Expr, isConst } from '../expr/index.ts';
import { type OpCounts, choleskyOps, noOps } from './costs.ts';

/** a symmetric pattern ordered for Cholesky, as the run-time solve reads it */
export interface SparseCholesky {
  /** pivots in elimination order (indices of H's rows) */
  readonly order: readonly number[];
  /** rows[start[p] .. start[p + 1]) are the later rows of pivot p's column, in elimination order */
  readonly start: readonly number[];
  readonly rows: readonly number[];
  /** positions (row-major, both triangles) that elimination fills in: zeroed before each factorisation */
  readonly fill: readonly number[];
  /** the solve's operations, counted as choleskyOps counts the dense one */
  readonly ops: OpCounts;
}

/** what a sparse factorisation must save of the dense one's operations to be used */
const WORTH = 0.8;

// (H row-major k x k, its structural zeros the constant 0) => the ordered pattern, if it pays
export function sparseCholesky(k: number, H: readonly Expr[]): SparseCholesky | undefined {
  if (k < 4) return undefined;
  const adjacent = Array.from({ length: k }, () => new Set<number>());
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < i; j++) {
      if (isConst(H[i * k + j], 0) && isConst(H[j * k + i], 0)) continue;
      adjacent[i].add(j);
      adjacent[j].add(i);
    }
  }
  const s = factorPattern(k, adjacent);
  const dense = choleskyOps(k);
  return total(s.ops) < WORTH * total(dense) ? s : undefined;
}

const total = (o: OpCounts) => o.mul + o.add + o.div + o.fn;

/** minimum-degree elimination of the pattern's graph (ties by index): order, later neighbours, fill */
export function factorPattern(k: number, adjacent: Set<number>[]): SparseCholesky {
  const left = new Set<number>(Array.from({ length: k }, (_, i) => i));
  const order: number[] = [],
    later: number[][] = [],
    fill: number[] = [];
  while (left.size) {
    let best = -1;
    for (const i of left) if (best < 0 || adjacent[i].size < adjacent[best].size) best = i;
    const neighbours = [...adjacent[best]];
    for (const a of neighbours) {
      adjacent[a].delete(best);
      for (const b of neighbours) {
        if (a < b && !adjacent[a].has(b)) {
          adjacent[a].add(b);
          adjacent[b].add(a);
          fill.push(a * k + b, b * k + a);
        }
      }
    }
    left.delete(best);
    order.push(best);
    later.push(neighbours);
  }
  const rank = new Int32Array(k);
  order.forEach((i, p) => (rank[i] = p));
  const start = [0],
    rows: number[] = [];
  for (const n of later) {
    rows.push(...n.sort((a, b) => rank[a] - rank[b]));
    start.push(rows.length);
  }
  return { order, start, rows, fill, ops: sparseOps(later.map((n) => n.length)) };
}

/** operations of sparseCholeskySolve for columns of the given lengths (below the diagonal) */
function sparseOps(lengths: readonly number[]): OpCounts {
  const ops = noOps();
  for (const c of lengths) {
    // the pivot test; the column's scaling; the update of the later block; both triangular solves
    ops.mul += 1 + c + (c * (c + 1)) / 2 + 2 * c + 2;
    ops.add += (c * (c + 1)) / 2 + 2 * c;
    ops.div += 2; // the reciprocal pivot and the rcond ratio
    ops.fn += 1; // sqrt
  }
  return ops;
}
