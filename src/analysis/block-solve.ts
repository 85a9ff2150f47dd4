// F_z S = R for many right-hand sides, block by block: F_z is sparse and,
// ordered by the equations' BLT form (structure/matching.ts, blt.ts, on the
// full incidence, no relax() or residue() hints), block lower triangular.
// Each diagonal block is factored by dense LU (dense-lu.ts), the columns of
// R substituted forward. A column that nothing upstream feeds stays exactly
// zero (d j4.q / d tau of a loop is 0, not 1e-35), and the cost is that of
// the largest loop (the acceleration level of a mechanism), not of all N.
//
// Glossary
//   F_z   N x N sparse, by rows: cols[i], vals[i]
//   R     N x k row-major right-hand sides, S the solution, same shape
import { bipartiteFromLists } from '../structure/graph.ts';
import { maximumMatching } from '../structure/matching.ts';
import { bltBlocks } from '../structure/blt.ts';
import { csr, isSingular, luFactor, luSolveRefined } from './dense-lu.ts';

export interface SparseRows {
  readonly n: number;
  readonly cols: readonly Int32Array[];
  readonly vals: readonly Float64Array[];
}

/** F_z S = R has no unique solution: the unknown (column) the elimination left undetermined, and its block's equations */
export interface BlockSingular {
  readonly singular: true;
  readonly column: number;
  readonly equations: readonly number[];
}

// (F_z, R with k columns) => S, or the unknown that F_z does not determine
export function blockSolve(F: SparseRows, R: Float64Array, k: number): Float64Array | BlockSingular {
  const { n, cols, vals } = F;
  const g = bipartiteFromLists(n, [...cols]);
  const matching = maximumMatching(g);
  if (matching.size < n) {
    const column = [...matching.varToEq].findIndex((e) => e < 0);
    return { singular: true, column: Math.max(column, 0), equations: [] };
  }
  const { order, blockStart } = bltBlocks(g, matching);
  const S = new Float64Array(n * k);
  const local = new Int32Array(n).fill(-1);
  for (let b = 0; b + 1 < blockStart.length; b++) {
    const eqs = order.subarray(blockStart[b], blockStart[b + 1]);
    const vars = [...eqs].map((e) => matching.eqToVar[e]);
    const size = eqs.length;
    vars.forEach((v, i) => (local[v] = i));
    const M = new Float64Array(size * size);
    const rhs = new Float64Array(size * k);
    let fed = false;
    eqs.forEach((e, r) => {
      for (let j = 0; j < k; j++) rhs[r * k + j] = R[e * k + j];
      const c = cols[e],
        a = vals[e];
      for (let t = 0; t < c.length; t++) {
        const l = local[c[t]];
        if (l >= 0) M[r * size + l] = a[t];
        else if (a[t] !== 0) for (let j = 0; j < k; j++) rhs[r * k + j] -= a[t] * S[c[t] * k + j];
      }
    });
    for (let j = 0; j < rhs.length && !fed; j++) fed = rhs[j] !== 0;
    const f = luFactor(size, M);
    if (isSingular(f)) return { singular: true, column: vars[f.column], equations: [...eqs] };
    if (fed) {
      const sparse = csr(size, M);
      const col = new Float64Array(size);
      for (let j = 0; j < k; j++) {
        let any = false;
        for (let r = 0; r < size; r++) any = (col[r] = rhs[r * k + j]) !== 0 || any;
        if (!any) continue;
        const z = luSolveRefined(sparse, f, col);
        vars.forEach((v, i) => (S[v * k + j] = z[i]));
      }
    }
    vars.forEach((v) => (local[v] = -1));
  }
  return S;
}
