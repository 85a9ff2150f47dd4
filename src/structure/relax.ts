// Relaxing (Otter, Elmqvist & Cellier 1996, section 4): within a linear
// algebraic loop, occurrences marked relax(x) are left out of the incidence;
// the loop then falls apart into a relaxed BLT form of small blocks, which
// are eliminated symbolically in that fixed order.
//
// Glossary
//   block k      the k-th block of the relaxed BLT form, unknowns x_k
//   later        variables of blocks after k (the relaxed ones among them)
//   form of x    x = b + sum_l E_l x_l over later variables (eq. 8, 10)
//   row          0 = b + sum_v A_v v; solving block k substitutes the forms of
//                x_k into every row not yet processed: the symbolic updates
//                A_ij^(k+1) = A_ij^(k) - A_ik^(k) A_kk^(k)-1 A_kj^(k),
//                b_i^(k+1) likewise (eq. 9), structural zeros staying zero
//   backward     x_k = b + sum E_l x_l, from the last block to the first (eq. 11)
// Blocks of size > 1 are torn from their residue hints (section 9, eqs. 34-35):
// y from the causal sequence, then A22^(2) z = b2^(2) - A23^(2) x_relax.
// The elimination engine and its pivot rules are in elimination.ts, the
// relaxed order in relax-order.ts.
import { type Expr, ZERO, neg, symsOf, unrelaxedSymsOf } from '../expr/index.ts';
import { StructuralError } from '../errors.ts';
import { type FlatEquation, type Variable, describeEquation, variableOf, variablesIn } from '../model/index.ts';
import { type Bipartite, bipartiteFromLists, subgraph } from './graph.ts';
import { maximumMatching } from './matching.ts';
import { bltBlocks } from './blt.ts';
import { singularParts } from './singularity.ts';
import { TempPool, affineExpr } from './affine.ts';
import { bindShared } from './bind-shared.ts';
import type { Assign, AssignStep, BlockReport, IterateOptions, IterateStep } from './plan-types.ts';
import { iterationStep } from './iterate-plan.ts';
import { Elimination, RelaxFailure } from './elimination.ts';
import { relaxedOrder } from './relax-order.ts';

export { RelaxFailure };

export interface RelaxedLoop {
  step: AssignStep;
  /** the blocks of the relaxed BLT form larger than one equation */
  blocks: BlockReport[];
  /** number of blocks of the relaxed BLT form */
  relaxedBlocks: number;
  /** equations left once the relaxed blocks are eliminated (the sparse MNA system of a circuit) */
  remainder: number;
  /** pivots marked for the run-time check */
  pivots: number;
  /** relaxIterate and a remainder: its Gauss-Seidel sweeps, which run before `step` (iterate-plan.ts) */
  iterate?: IterateStep;
}

const hasRelax = (e: Expr): boolean => symsOf(e).length !== unrelaxedSymsOf(e).length;

/** does any equation of the loop carry a relax() mark on one of its unknowns? */
export function isRelaxable(eqs: readonly FlatEquation[], ids: Set<number>): boolean {
  return eqs.some((eq) => {
    if (!hasRelax(eq.residual)) return false;
    const visible = new Set(unrelaxedSymsOf(eq.residual));
    return symsOf(eq.residual).some((id) => ids.has(id) && !visible.has(id));
  });
}

// (loop equations, unknowns, tearing hints) => explicit elimination sequence, or a StructuralError naming the relax marks
export function relaxLoop(index: number, eqs: readonly FlatEquation[], vars: readonly Variable[], hinted: Set<number>, iterate?: IterateOptions): RelaxedLoop {
  const local = new Map(vars.map((v, i) => [v.id, i]));
  const { elim, blocks, relaxedBlocks, remainder, rest } = eliminate(eqs, vars, hinted, new TempPool(`r${index}.`), new Set(), iterate !== undefined);
  const iteration = iterate && rest.rows.length ? iterationStep(index, elim, rest, iterate) : undefined;
  // eq. 11 and back substitution: the last pivot first, each from the values after it
  const back: Assign[] = elim.order
    .map((id) => ({ target: vars[local.get(id)!], expr: affineExpr(elim.forms.get(id)!, (u) => vars[local.get(u)!].e) }))
    .reverse();
  return {
    iterate: iteration?.step,
    step: { kind: 'assign', assigns: bindShared([...(iteration ? iteration.others : elim.pool.assigns), ...back], `r${index}.`) },
    blocks,
    relaxedBlocks,
    remainder,
    pivots: elim.pivots,
  };
}

/** the torn system H z = c of a loop, rows paired with z (row i is the one z_i was matched to) */
export interface KeptSystem {
  /** the temporaries of the elimination that H and c read, in order */
  prelude: Assign[];
  H: Expr[];
  c: Expr[];
  /** row i is a residue equation naming z_i in residue(): H may be symmetric */
  paired: boolean;
}

/**
 * The kept rows reordered so that row i is the residue equation naming z_i,
 * when the matching paired them otherwise (it may match a free joint's six
 * d'Alembert rows to its six accelerations in a cycle): each row holds only
 * the z, so reordering them is the same system, and H is symmetric again
 * (tearing paper eq. 1: M(q) qdd = h). Undefined when the rows are not the
 * z's residue equations one to one, or already in their order.
 */
function pairedOrder(rows: readonly number[], eqs: readonly FlatEquation[], z: readonly Variable[]): number[] | undefined {
  const index = new Map(z.map((v, i) => [v.id, i]));
  const named = rows.map((r) => eqs[r].residues.map((e) => index.get(variableOf(e)?.id ?? -1)).filter((i) => i !== undefined));
  if (named.every((n, i) => n.includes(i)) || !named.every((n) => n.length === 1)) return undefined;
  const ordered: number[] = [];
  named.forEach(([i], k) => (ordered[i] = rows[k]));
  return z.every((_, i) => ordered[i] !== undefined) ? ordered : undefined;
}

/**
 * The torn form of a loop built by the relaxed elimination (relaxing paper,
 * eqs. 8-10) with the tearing variables z kept: every other unknown is
 * pivoted in relaxed BLT order, so the rows of the z are updated as the
 * elimination moves from the leaves to the root, and what is left of them is
 * H z = c (tearing paper, eq. 1: M(q) qdd = h). For a tree mechanism a body's
 * forces are summed into its parent's before the parent's motion is
 * substituted (the composite inertia of Walker and Orin's method 3), so H
 * costs O(n^2) small updates instead of a sensitivity dy/dz_j of every
 * variable y for every z_j.
 */
export function keptSystem(prefix: string, eqs: readonly FlatEquation[], vars: readonly Variable[], hinted: Set<number>, z: readonly Variable[]): KeptSystem {
  const keep = new Set(z.map((v) => v.id));
  const { elim } = eliminate(eqs, vars, hinted, new TempPool(prefix), keep);
  const rows = z.map((v) => {
    const r = elim.kept.get(v.id);
    if (r === undefined)
      throw new RelaxFailure(`relaxed elimination: ${v.name} was not matched to a row of its own`, { hint: 'the loop is torn by sensitivities instead' });
    const row = elim.rows[r];
    for (const u of row.coef.keys()) {
      if (!keep.has(u))
        throw new RelaxFailure(`relaxed elimination: ${elim.name(u)} is left in the row of ${v.name}`, { hint: 'the loop is torn by sensitivities instead' });
    }
    return r;
  });
  const ordered = pairedOrder(rows, eqs, z) ?? rows;
  const H = ordered.flatMap((r) => z.map((v) => elim.rows[r].coef.get(v.id) ?? ZERO));
  const c = ordered.map((r) => neg(elim.rows[r].b));
  const paired = ordered !== rows || rows.every((r, i) => eqs[r].residues.some((e) => variableOf(e)?.id === z[i].id));
  // H formed with divisions by pivots that can vanish (a massless link): sensitivities divide by none of them
  if (elim.pivots > 0)
    throw new RelaxFailure(`relaxed elimination: forming H divides by ${elim.pivots} pivots that are not constants`, {
      hint: 'the loop is torn by sensitivities instead',
    });
  return { prelude: elim.pool.assigns, H, c, paired };
}

/**
 * The relaxed BLT form of a loop and its elimination in that order, leaving
 * the variables in `keep` (and the rows matched to them) unpivoted. With
 * `iterate` the remainder is left as it is (iterate-plan.ts solves it by
 * sweeps): `rest` names its rows and the unknowns they hold.
 */
function eliminate(eqs: readonly FlatEquation[], vars: readonly Variable[], hinted: Set<number>, pool: TempPool, keep: Set<number>, iterate = false) {
  const local = new Map(vars.map((v, i) => [v.id, i]));
  const rows = eqs.map((eq) => [eq.residual, ...eq.residues].flatMap((e) => [...unrelaxedSymsOf(e)].map((id) => local.get(id) ?? -1)).filter((i) => i >= 0));
  const graph = bipartiteFromLists(vars.length, rows);
  const matching = maximumMatching(graph);
  // unmatched rows form the remainder (e.g. the node equations of MNA, section 6); a residue
  // equation there means the relax marks contradict the intended flow (the reversed gear, section 10)
  const unmatched = eqs.map((_, r) => r).filter((r) => matching.eqToVar[r] < 0);
  if (unmatched.some((r) => eqs[r].residues.length > 0)) throw relaxSingular(graph, matching, eqs, vars);
  // a variable's name is built from its component path on every read: each is asked for again and again (labels)
  const names = new Map<number, string>();
  const name = (id: number) => {
    let n = names.get(id);
    if (n === undefined) names.set(id, (n = vars[local.get(id)!].name));
    return n;
  };
  const elim = new Elimination(eqs, vars, pool, name, hinted, keep);
  const blocks: BlockReport[] = [];
  const matchedEqs = eqs.map((_, r) => r).filter((r) => matching.eqToVar[r] >= 0);
  const matched = subgraph(
    graph,
    matchedEqs,
    matchedEqs.map((r) => matching.eqToVar[r]),
  );
  const { order, blockStart } = bltBlocks(matched.graph, {
    eqToVar: Int32Array.from(matchedEqs, (_, k) => k),
    varToEq: Int32Array.from(matchedEqs, (_, k) => k),
    size: matchedEqs.length,
  });
  const bltOrder = [...Array(blockStart.length - 1).keys()].map((b) => [...order.subarray(blockStart[b], blockStart[b + 1])].map((k) => matchedEqs[k]));
  const sequence = relaxedOrder(bltOrder, eqs, local, matching.varToEq);
  for (const be of sequence) if (be.length === 1) elim.scalarRow.set(vars[matching.eqToVar[be[0]]].id, be[0]);
  for (const be of sequence) {
    const bv = be.map((e) => matching.eqToVar[e]);
    if (be.length === 1) {
      if (!elim.isDone(be[0])) elim.pivot(be[0], vars[bv[0]].id);
    } else blocks.push(elim.torn(be, bv, hinted));
    elim.eagerPivots();
  }
  const free = vars.map((_, v) => v).filter((v) => matching.varToEq[v] < 0);
  const remainder = unmatched.length && !iterate ? elim.remainder(unmatched, free, hinted) : [];
  blocks.push(...remainder, ...elim.finishDeferred(hinted, (id) => local.get(id)!));
  const rest = { rows: iterate ? unmatched : [], vars: iterate ? free.map((v) => vars[v]) : [] };
  return { elim, blocks, relaxedBlocks: blockStart.length - 1, remainder: unmatched.length + elim.deferred.length, rest };
}

function relaxSingular(g: Bipartite, m: ReturnType<typeof maximumMatching>, eqs: readonly FlatEquation[], vars: readonly Variable[]): StructuralError {
  const parts = singularParts(g, m);
  const involved = [...parts.overEqs, ...parts.underEqs].map((i) => eqs[i]);
  const marked = involved.filter((eq) => hasRelax(eq.residual));
  const culprits = [...new Set(marked.map((eq) => eq.origin))];
  const relaxedVars = new Set(
    marked.flatMap((eq) => {
      const visible = new Set(unrelaxedSymsOf(eq.residual));
      const named = variablesIn(eq.residual);
      return [...symsOf(eq.residual)].filter((id) => !visible.has(id)).map((id) => `relax(${named.get(id)?.name ?? id})`);
    }),
  );
  return new StructuralError(
    `relaxing leaves the loop structurally singular: the relax() marks in ${culprits.join(', ') || 'the loop'} cannot all be treated as known`,
    {
      component: culprits[0],
      equations: involved.map(describeEquation),
      variables: [...new Set([...parts.overVars, ...parts.underVars].map((i) => vars[i].name)), ...relaxedVars],
      hint: `relax() assumes components are connected in their intended direction (cut a/left to cut b/right); ${culprits.length ? `turn ${culprits.join(', ')} around, ` : ''}or compile with --mode torn`,
    },
  );
}
