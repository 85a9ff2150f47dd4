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
import { type Expr, ZERO, diff, neg, substitute, symsOf, unrelaxedSymsOf } from '../expr/index.ts';
import { StructuralError } from '../errors.ts';
import { type FlatEquation, type Variable, describeEquation, variableOf, variablesIn } from '../model/index.ts';
import { type Bipartite, bipartiteFromLists, subgraph } from './graph.ts';
import { maximumMatching } from './matching.ts';
import { bltBlocks } from './blt.ts';
import { singularParts } from './singularity.ts';
import { tearHeuristic, tearWithHints } from './tearing.ts';
import { type Affine, TempPool, affineExpr, materialize, solveRow, substituteForm } from './affine.ts';
import type { Assign, AssignStep, BlockReport } from './plan-types.ts';

export interface RelaxedLoop {
  step: AssignStep;
  /** the blocks of the relaxed BLT form larger than one equation */
  blocks: BlockReport[];
  /** number of blocks of the relaxed BLT form */
  relaxedBlocks: number;
  /** equations left once the relaxed blocks are eliminated (the sparse MNA system of a circuit) */
  remainder: number;
}

/**
 * The relaxed elimination cannot proceed (a pivot cancels, a block is
 * singular): not the relax marks' fault, so the planner tears the loop instead.
 */
export class RelaxFailure extends StructuralError {}

/** torn blocks longer than this keep their causal order (the Markowitz search is quadratic in the length) */
const MARKOWITZ_LIMIT = 400;

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
export function relaxLoop(index: number, eqs: readonly FlatEquation[], vars: readonly Variable[], hinted: Set<number>): RelaxedLoop {
  const local = new Map(vars.map((v, i) => [v.id, i]));
  const { elim, blocks, relaxedBlocks, remainder } = eliminate(eqs, vars, hinted, new TempPool(`r${index}.`), new Set());
  // eq. 11 and back substitution: the last pivot first, each from the values after it
  const back: Assign[] = elim.order.map((id) => ({ target: vars[local.get(id)!], expr: affineExpr(elim.forms.get(id)!, (u) => vars[local.get(u)!].e) })).reverse();
  return {
    step: { kind: 'assign', assigns: [...elim.pool.assigns, ...back] },
    blocks,
    relaxedBlocks,
    remainder,
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
    if (r === undefined) throw new RelaxFailure(`relaxed elimination: ${v.name} was not matched to a row of its own`, { hint: 'the loop is torn by sensitivities instead' });
    const row = elim.rows[r];
    for (const u of row.coef.keys()) {
      if (!keep.has(u)) throw new RelaxFailure(`relaxed elimination: ${elim.name(u)} is left in the row of ${v.name}`, { hint: 'the loop is torn by sensitivities instead' });
    }
    return r;
  });
  const H = rows.flatMap((r) => z.map((v) => elim.rows[r].coef.get(v.id) ?? ZERO));
  const c = rows.map((r) => neg(elim.rows[r].b));
  const paired = rows.every((r, i) => eqs[r].residues.some((e) => variableOf(e)?.id === z[i].id));
  return { prelude: elim.pool.assigns, H, c, paired };
}

/**
 * The relaxed BLT form of a loop and its elimination in that order, leaving
 * the variables in `keep` (and the rows matched to them) unpivoted.
 */
function eliminate(eqs: readonly FlatEquation[], vars: readonly Variable[], hinted: Set<number>, pool: TempPool, keep: Set<number>) {
  const local = new Map(vars.map((v, i) => [v.id, i]));
  const rows = eqs.map((eq) => [eq.residual, ...eq.residues].flatMap((e) => [...unrelaxedSymsOf(e)].map((id) => local.get(id) ?? -1)).filter((i) => i >= 0));
  const graph = bipartiteFromLists(vars.length, rows);
  const matching = maximumMatching(graph);
  // unmatched rows form the remainder (e.g. the node equations of MNA, section 6); a residue
  // equation there means the relax marks contradict the intended flow (the reversed gear, section 10)
  const unmatched = eqs.map((_, r) => r).filter((r) => matching.eqToVar[r] < 0);
  if (unmatched.some((r) => eqs[r].residues.length > 0)) throw relaxSingular(graph, matching, eqs, vars);
  const name = (id: number) => vars[local.get(id)!].name;
  const elim = new Elimination(eqs, vars, pool, name, hinted, keep);
  const blocks: BlockReport[] = [];
  const matchedEqs = eqs.map((_, r) => r).filter((r) => matching.eqToVar[r] >= 0);
  const matched = subgraph(graph, matchedEqs, matchedEqs.map((r) => matching.eqToVar[r]));
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
  const remainder = unmatched.length ? elim.remainder(unmatched, vars.map((_, v) => v).filter((v) => matching.varToEq[v] < 0), hinted) : [];
  blocks.push(...remainder, ...elim.finishDeferred(hinted, (id) => local.get(id)!));
  return { elim, blocks, relaxedBlocks: blockStart.length - 1, remainder: unmatched.length + elim.deferred.length };
}

/**
 * The blocks of the relaxed BLT form in an order that also honours the relax
 * marks where it can: a block whose rows relax x goes before the block that
 * computes x (x is "later", as in eq. 7), so that x's form reaches the rows
 * that need it and the updates stay as sparse as in eq. 12. The BLT
 * dependencies are hard; the relax precedences break ties, so the result does
 * not depend on the order in which components were declared.
 */
function relaxedOrder(blocks: number[][], eqs: readonly FlatEquation[], local: Map<number, number>, varToEq: Int32Array): number[][] {
  const blockOfEq = new Map<number, number>();
  blocks.forEach((b, i) => b.forEach((e) => blockOfEq.set(e, i)));
  const blockOfVar = (id: number) => {
    const v = local.get(id);
    return v === undefined || varToEq[v] < 0 ? undefined : blockOfEq.get(varToEq[v]);
  };
  const hard = blocks.map(() => new Set<number>());
  const soft = blocks.map(() => new Set<number>());
  blocks.forEach((rows, i) => {
    for (const r of rows) {
      const visible = new Set(unrelaxedSymsOf(eqs[r].residual));
      for (const id of symsOf(eqs[r].residual)) {
        const j = blockOfVar(id);
        if (j === undefined || j === i) continue;
        if (visible.has(id)) hard[i].add(j); // i needs j's variable
        else soft[j].add(i); // i relaxes j's variable: i should go first
      }
    }
  });
  // Kahn's algorithm on the hard edges; among ready blocks first those whose relaxing rows are all
  // done (class 0), then those nobody relaxes (1), then the rest (2); ties in BLT order
  const hardLeft = hard.map((h) => h.size);
  const softLeft = soft.map((x) => x.size);
  const dependents = blocks.map(() => [] as number[]);
  const relaxes = blocks.map(() => [] as number[]);
  hard.forEach((h, i) => h.forEach((j) => dependents[j].push(i)));
  soft.forEach((x, i) => x.forEach((j) => relaxes[j].push(i)));
  const n = blocks.length;
  const rank = (i: number) => (softLeft[i] === 0 ? (soft[i].size > 0 ? 0 : 1) : 2) * n + i;
  const heap = new MinHeap();
  blocks.forEach((_, i) => hardLeft[i] === 0 && heap.push(rank(i)));
  const done = new Uint8Array(n);
  const out: number[][] = [];
  while (heap.size > 0) {
    const i = heap.pop() % n;
    if (done[i]) continue;
    done[i] = 1;
    out.push(blocks[i]);
    for (const d of dependents[i]) if (--hardLeft[d] === 0) heap.push(rank(d));
    for (const s of relaxes[i]) if (--softLeft[s] === 0 && hardLeft[s] === 0 && !done[s]) heap.push(rank(s));
  }
  return out;
}

/** a binary min-heap of integers */
class MinHeap {
  private readonly a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  push(x: number): void {
    const a = this.a;
    let i = a.push(x) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= a[i]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): number {
    const a = this.a;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && a[l] < a[m]) m = l;
        if (r < a.length && a[r] < a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Gaussian elimination with a fixed pivot sequence, formed symbolically: each
 * pivot solves its row for its variable in terms of the variables not yet
 * eliminated, and substitutes that form into every pending row.
 */
class Elimination {
  readonly rows: Affine[];
  readonly forms = new Map<number, Affine>();
  /** variable ids in pivot order */
  readonly order: number[] = [];
  /** pivots whose row does not contain their variable, put off to the end */
  readonly deferred: [number, number][] = [];
  private finishing = false;
  /** pending rows that mention a variable */
  private readonly pending = new Map<number, Set<number>>();
  private readonly done = new Set<number>();
  /** variable id -> its row, for the scalar blocks of the relaxed BLT form (eager pivot candidates) */
  readonly scalarRow = new Map<number, number>();
  /** kept variable id -> the row it was matched to, left pending */
  readonly kept = new Map<number, number>();
  /** variables that substitutions brought into rows where they did not occur */
  private readonly arrived = new Set<number>();

  constructor(
    readonly eqs: readonly FlatEquation[],
    readonly vars: readonly Variable[],
    readonly pool: TempPool,
    readonly name: (id: number) => string,
    /** tearing-variable candidates (residue hints) */
    readonly hinted: Set<number>,
    /** variables never pivoted: their rows stay pending and collect every update (the torn form) */
    readonly keep: Set<number> = new Set(),
  ) {
    const byId = new Map(vars.map((v) => [v.id, v]));
    const zero = new Map<number, Expr>([...byId.keys()].map((id) => [id, ZERO]));
    this.rows = eqs.map((eq, r) => {
      const coef = new Map<number, Expr>();
      for (const id of symsOf(eq.residual)) if (byId.has(id)) coef.set(id, diff(eq.residual, byId.get(id)!));
      for (const id of coef.keys()) this.mention(id, r);
      return { b: substitute(eq.residual, zero), coef };
    });
  }

  private mention(id: number, row: number): void {
    let rows = this.pending.get(id);
    if (!rows) this.pending.set(id, (rows = new Set()));
    if (!rows.has(row)) {
      rows.add(row);
      if (this.scalarRow.has(id)) this.arrived.add(id);
    }
  }

  isDone(row: number): boolean {
    return this.done.has(row);
  }

  /**
   * Pivots taken ahead of the relaxed BLT order: a variable x that fill-in
   * brought into pending rows (a relaxed acceleration at the far end of a
   * bar, say), whose own scalar row has a constant coefficient for x, is
   * eliminated at once when that makes no pending row longer. The bar's
   * a_b = a_a + z_a x r then turns the child's articulated inertia, formed
   * over a_b, into one over a_a before the joint's update (the spatial
   * transform of the articulated-body algorithm) instead of carrying the
   * columns of a_b through it.
   */
  eagerPivots(): void {
    // one round: what the eager pivots bring in waits for the next regular pivot (no cascades)
    const ready = [...this.arrived].filter((x) => this.worthPivoting(x));
    for (const x of ready) if (!this.forms.has(x)) this.pivot(this.scalarRow.get(x)!, x);
    this.arrived.clear();
  }

  private worthPivoting(x: number): boolean {
    const r = this.scalarRow.get(x)!;
    if (this.done.has(r) || this.forms.has(x) || this.deferred.some(([d]) => d === r)) return false;
    const row = this.rows[r];
    const c = row.coef.get(x);
    if (c === undefined || c.op !== 'const') return false;
    // a joint's own rows (z_b = z_a + n qdd + ...) carry its tearing variable: they stay in the joint's block
    for (const u of row.coef.keys()) if (this.hinted.has(u)) return false;
    for (const p of this.pending.get(x) ?? []) {
      if (p === r) continue;
      const have = this.rows[p].coef;
      let added = 0;
      for (const u of row.coef.keys()) if (u !== x && !have.has(u)) added++;
      if (added > 1) return false;
    }
    return true;
  }

  // eqs. 8-10: x from its row, then A_ij^(k+1) = A_ij^(k) - A_ik^(k) A_kk^(k)-1 A_kj^(k) in every pending row
  pivot(row: number, id: number): void {
    if (this.keep.has(id)) {
      this.kept.set(id, row);
      return;
    }
    if (!this.rows[row].coef.has(id) && !this.finishing) {
      // matched only through residue(id) (a massless link between two joints): the row stays
      // pending and id stays a symbol in every form; both are eliminated last
      this.deferred.push([row, id]);
      return;
    }
    if (!this.rows[row].coef.has(id)) {
      throw new RelaxFailure(`relaxed elimination: ${this.name(id)} cancels out of its pivot equation`, {
        equations: [describeEquation(this.eqs[row])],
        hint: 'use --mode torn for this model',
      });
    }
    this.done.add(row);
    for (const u of this.rows[row].coef.keys()) this.pending.get(u)?.delete(row);
    const form = materialize(solveRow(this.rows[row], id), this.pool, this.name(id), this.name);
    this.forms.set(id, form);
    this.order.push(id);
    for (const r of [...(this.pending.get(id) ?? [])].sort((a, b) => a - b)) {
      substituteForm(this.rows[r], id, form, this.pool, `row${r}`, this.name);
      for (const u of form.coef.keys()) if (this.rows[r].coef.has(u)) this.mention(u, r);
    }
    this.pending.delete(id);
  }

  /**
   * The causal sequence of a torn block, pivoted in the order that fills in
   * least (Markowitz): each y_i's row holds only y_<i, so no substitution of
   * another y touches y_i's own coefficient, and any order divides by the same
   * structural pivots as the causal one. Cheapest first means, for a joint
   * with its body, that the body's forces are summed with the child's at the
   * node before z_b = z_a + n qdd is substituted into the sum (the
   * articulated-body algorithm's I_A = I + X^T I_A^child X, then U = I_A S),
   * not into the body's rows and the child's rows one by one.
   */
  private pivotSequence(sequence: [number, number][]): void {
    if (sequence.length > MARKOWITZ_LIMIT) return sequence.forEach(([r, x]) => this.pivot(r, x));
    const left = [...sequence];
    while (left.length > 0) {
      let best = 0, bestCost = Infinity;
      left.forEach(([r, x], k) => {
        const c = this.markowitz(r, x);
        if (c < bestCost) [best, bestCost] = [k, c];
      });
      const [[r, x]] = left.splice(best, 1);
      this.pivot(r, x);
    }
  }

  /** (entries of row r besides x) x (other pending rows holding x): the fill-in bound of pivoting x there */
  private markowitz(r: number, x: number): number {
    let others = 0;
    for (const p of this.pending.get(x) ?? []) if (p !== r) others++;
    return (this.rows[r].coef.size - 1) * others;
  }

  /** the deferred pivots, as one last small system on their present structure */
  finishDeferred(hinted: Set<number>, localOf: (id: number) => number): BlockReport[] {
    this.finishing = true;
    const rows = this.deferred.map(([r]) => r), vars = this.deferred.map(([, id]) => localOf(id));
    return rows.length ? this.remainder(rows, vars, hinted) : [];
  }

  /**
   * The rows the relaxed matching could not place, in the variables it left:
   * after the substitutions they form a smaller system (relaxing paper
   * section 6: "reduces the system of equations from five down to two"),
   * sorted on its present structure and eliminated block by block.
   */
  remainder(rows: number[], vars: number[], hinted: Set<number>): BlockReport[] {
    const ids = vars.map((v) => this.vars[v].id);
    const g = bipartiteFromLists(vars.length, rows.map((r) => ids.map((id, j) => (this.rows[r].coef.has(id) ? j : -1)).filter((j) => j >= 0)));
    const m = maximumMatching(g);
    if (m.size < rows.length) {
      throw new RelaxFailure('the equations left after relaxing are structurally singular', {
        equations: rows.map((r) => describeEquation(this.eqs[r])),
        variables: ids.map(this.name),
        hint: 'check the connections (a node without a path to ground, a loop of voltage sources), or use --mode torn',
      });
    }
    const { order, blockStart } = bltBlocks(g, m);
    const out: BlockReport[] = [];
    for (let b = 0; b + 1 < blockStart.length; b++) {
      const be = [...order.subarray(blockStart[b], blockStart[b + 1])];
      if (be.length === 1) this.pivot(rows[be[0]], ids[m.eqToVar[be[0]]]);
      else out.push(this.torn(be.map((e) => rows[e]), be.map((e) => vars[m.eqToVar[e]]), hinted));
    }
    return out;
  }

  // relaxing paper eqs. 34-35: a block of the relaxed BLT form is torn from its residue hints;
  // y are pivoted in causal order, then the residue rows for z, which is Gaussian elimination of A22^(2)
  torn(be: number[], bv: number[], hinted: Set<number>): BlockReport {
    const idOf = bv.map((v) => this.vars[v].id);
    // the block's structure now: substitutions of earlier pivots may have filled it in
    const sub = bipartiteFromLists(bv.length, be.map((r) => idOf.map((id, j) => (this.rows[r].coef.has(id) ? j : -1)).filter((j) => j >= 0)));
    const z = idOf.map((id, i) => (hinted.has(id) ? i : -1)).filter((i) => i >= 0);
    const h = be.map((r, i) => (this.eqs[r].residues.length > 0 ? i : -1)).filter((i) => i >= 0);
    const solvable = (e: number, v: number) => this.rows[be[e]].coef.has(idOf[v]);
    const hinted_ = z.length > 0 && z.length === h.length ? tearWithHints(sub, solvable, z, h) : undefined;
    const torn = hinted_?.ok ? hinted_.result : tearHeuristic(sub, solvable);
    this.pivotSequence([...torn.assignEqs].map((e, k) => [be[e], idOf[torn.assignVars[k]]]));
    // pair residue rows with tearing variables on the reduced structure, in BLT order
    const hr = [...torn.residueEqs].map((e) => be[e]);
    const zs = [...torn.tearVars].map((v) => idOf[v]);
    const reduced = bipartiteFromLists(zs.length, hr.map((r) => zs.map((id, j) => (this.rows[r].coef.has(id) ? j : -1)).filter((j) => j >= 0)));
    const m = maximumMatching(reduced);
    if (m.size < zs.length) {
      throw new RelaxFailure('relaxed elimination: the torn system of a relaxed block is structurally singular', {
        variables: zs.map(this.name),
        equations: hr.map((r) => describeEquation(this.eqs[r])),
        hint: 'use --mode torn for this model',
      });
    }
    for (const r of bltBlocks(reduced, m).order) this.pivot(hr[r], zs[m.eqToVar[r]]);
    return {
      size: be.length,
      tearing: zs.length,
      linear: true,
      solver: 'elimination',
      variables: idOf.map(this.name),
      tearVariables: zs.map(this.name),
      residueEquations: hr.map((r) => describeEquation(this.eqs[r])),
      tearingFrom: hinted_?.ok ? 'hints' : 'heuristic',
    };
  }
}

function relaxSingular(g: Bipartite, m: ReturnType<typeof maximumMatching>, eqs: readonly FlatEquation[], vars: readonly Variable[]): StructuralError {
  const parts = singularParts(g, m);
  const involved = [...parts.overEqs, ...parts.underEqs].map((i) => eqs[i]);
  const marked = involved.filter((eq) => hasRelax(eq.residual));
  const culprits = [...new Set(marked.map((eq) => eq.origin))];
  const relaxedVars = new Set(marked.flatMap((eq) => {
    const visible = new Set(unrelaxedSymsOf(eq.residual));
    const named = variablesIn(eq.residual);
    return [...symsOf(eq.residual)].filter((id) => !visible.has(id)).map((id) => `relax(${named.get(id)?.name ?? id})`);
  }));
  return new StructuralError(`relaxing leaves the loop structurally singular: the relax() marks in ${culprits.join(', ') || 'the loop'} cannot all be treated as known`, {
    component: culprits[0],
    equations: involved.map(describeEquation),
    variables: [...new Set([...parts.overVars, ...parts.underVars].map((i) => vars[i].name)), ...relaxedVars],
    hint: `relax() assumes components are connected in their intended direction (cut a/left to cut b/right); ${culprits.length ? `turn ${culprits.join(', ')} around, ` : ''}or compile with --mode torn`,
  });
}
