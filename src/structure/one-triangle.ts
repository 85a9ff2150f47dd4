// One triangle of a torn H that is symmetric by value (structure/symmetry.ts):
// Cholesky reads H_ij with i eliminated after j only, so only those entries,
// c, and the prelude temporaries they read are formed on the common path
// (Featherstone's CRBA forms H_ij for i >= j only, for the same reason). The
// other temporaries, which only the other triangle reads, run when Cholesky
// fails and LU needs all of H. On a chain of 16 this leaves 4546 of the
// 5595 multiplications that formed both triangles and c.
import { type Expr, symsOf } from '../expr/index.ts';
import type { Assign } from './plan-types.ts';

export interface OneTriangle {
  /** H with the entries Cholesky does not read left undefined */
  H: (Expr | undefined)[];
  /** the prelude the triangle and c read, in prelude order */
  first: Assign[];
  /** the rest of the prelude: the other triangle's */
  rest: Assign[];
}

// (k, H, c, prelude, elimination order of H's rows) => the entries i after j in the order, the prelude split by what reads it
export function oneTriangle(
  k: number,
  H: readonly (Expr | undefined)[],
  c: readonly Expr[],
  prelude: readonly Assign[],
  order?: readonly number[],
): OneTriangle {
  const rank = new Int32Array(k).map((_, i) => i);
  order?.forEach((i, p) => (rank[i] = p));
  const half = H.map((e, at) => (rank[Math.floor(at / k)] >= rank[at % k] ? e : undefined));
  const defined = new Map(prelude.map((a) => [a.target.id, a.expr]));
  const live = new Set<number>();
  const stack = [...c, ...half.filter((e): e is Expr => e !== undefined)];
  while (stack.length) {
    for (const id of symsOf(stack.pop()!)) {
      const e = defined.get(id);
      if (e === undefined || live.has(id)) continue;
      live.add(id);
      stack.push(e);
    }
  }
  return { H: half, first: prelude.filter((a) => live.has(a.target.id)), rest: prelude.filter((a) => !live.has(a.target.id)) };
}
