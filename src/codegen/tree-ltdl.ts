// M = L^T D L of a tree's mass matrix and solves with it, emitted for one
// tree: (M's lower triangle in body order, the tree's paths) => code.
// Featherstone's LTDL (Rigid Body Dynamics Algorithms, section 6.5): with
// parents numbered before children, M_ij = 0 unless one of i, j is the
// other's ancestor, and factored from the last row up there is no fill-in,
// so L_kj exists only for j an ancestor of k: U_kj = M_kj - sum over the
// descendants m of k of L_mk U_mj (the row's reduced entries), D_k = U_kk,
// L_kj = U_kj / D_k. A solve M x = b runs L^T y = b upward (y_i = b_i -
// sum over descendants m of L_mi y_m), z = D^-1 y, then L x = z downward
// (x_i = z_i - sum over ancestors j of L_ij x_j); an entry of b known zero
// (a column of dtau/dq is zero off i's paths, a column of the identity
// everywhere but one place) folds away in the emitter. M^-1 itself
// (emitInverse) is symmetric: only its lower triangle is solved for.
import type { TreeRecursions } from './tree-codegen.ts';
import type { Emitter, Sym, Term } from './tree-emit.ts';

export interface Factor {
  /** L_kj by pair key (tree.key(k, j), j an ancestor of k) */
  L: Map<number, Sym>;
  /** the pivots D_k and their reciprocals, stored (checked by the caller: M positive definite) */
  D: Sym[];
  Dinv: Sym[];
}

/** L, D of M = L^T D L from the recursions' M, emitted */
export function emitLtdl(e: Emitter, r: TreeRecursions): Factor {
  const { N, anc, desc, M } = r,
    key = (i: number, j: number) => r.key(i, j);
  const U = new Map<number, Sym>(),
    L = new Map<number, Sym>(),
    D: Sym[] = [],
    Dinv: Sym[] = [];
  for (let k = N - 1; k >= 0; k--) {
    for (const j of [k, ...anc[k]]) {
      const reduced: Term[] = desc[k].map((m) => [-1, L.get(key(m, k))!, U.get(key(m, j))!]);
      U.set(key(k, j), e.store(e.sum([[M.get(key(k, j))!], ...reduced]), j === k));
    }
    D[k] = U.get(key(k, k))!;
    Dinv[k] = e.store(e.call('inv', D[k]));
    for (const j of anc[k]) L.set(key(k, j), e.store(e.mul(U.get(key(k, j))!, Dinv[k])));
    e.boundary();
  }
  return { L, D, Dinv };
}

/** x = M^-1 (sign b) (body order), emitted; b's known zeros fold */
export function emitSolve(e: Emitter, r: TreeRecursions, f: Factor, b: readonly Sym[], sign = 1): Sym[] {
  const { N, anc, desc } = r,
    L = (i: number, j: number) => f.L.get(r.key(i, j))!;
  const y: Sym[] = [],
    x: Sym[] = [];
  for (let i = N - 1; i >= 0; i--) y[i] = e.sum([[sign, b[i]], ...desc[i].map((m): Term => [-1, L(m, i), y[m]])]);
  for (let i = 0; i < N; i++) x[i] = e.sum([[f.Dinv[i], y[i]], ...anc[i].map((j): Term => [-1, L(i, j), x[j]])]);
  return x;
}

/**
 * M^-1 (body order), emitted: entry (i, j) for i >= j, keyed tree.key(i, j);
 * the upper triangle is the same by symmetry. Column j of M^-1 solves M x =
 * e_j: the upward sweep of e_j leaves y zero but on j and its ancestors, so
 * z = D^-1 y is Dinv_j on j and, for i > j (never an ancestor of j: parents
 * come first), zero; the entries above j are row j of the columns already
 * made (x_i = (M^-1)_ji, i < j). The downward sweep is then run for i >= j
 * alone: x_j = Dinv_j - sum_a L_ja x_a, x_i = -sum_a L_ia x_a (a over i's
 * ancestors), about half of the n full solves and none of their upward
 * sweeps. Each entry is stored: later columns read it.
 */
export function emitInverse(e: Emitter, r: TreeRecursions, f: Factor): Map<number, Sym> {
  const { N, anc } = r,
    L = (i: number, j: number) => f.L.get(r.key(i, j))!,
    inv = new Map<number, Sym>();
  // (M^-1)_ij for any i, j, from the stored lower triangle
  const at = (i: number, j: number) => (i >= j ? inv.get(r.key(i, j))! : inv.get(r.key(j, i))!);
  for (let j = 0; j < N; j++) {
    for (let i = j; i < N; i++) {
      const x = e.sum([...(i === j ? [[f.Dinv[j]]] : []), ...anc[i].map((a): Term => [-1, L(i, a), at(a, j)])]);
      inv.set(r.key(i, j), e.store(x));
    }
    e.boundary();
  }
  return inv;
}
