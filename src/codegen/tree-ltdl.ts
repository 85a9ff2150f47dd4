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
// everywhere but one place) folds away in the emitter.
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
