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
import { type Expr, ZERO, diff, substitute, symsOf, unrelaxedSymsOf } from '../expr/index.ts';
import { StructuralError } from '../errors.ts';
import { type FlatEquation, type Variable, describeEquation, variableById } from '../model/index.ts';
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
export function relaxLoop(index: number, eqs: readonly FlatEquation[], vars: readonly Variable[], hinted: Set<number>): RelaxedLoop {
  const local = new Map(vars.map((v, i) => [v.id, i]));
  const rows = eqs.map((eq) => [eq.residual, ...eq.residues].flatMap((e) => [...unrelaxedSymsOf(e)].map((id) => local.get(id) ?? -1)).filter((i) => i >= 0));
  const graph = bipartiteFromLists(vars.length, rows);
  const matching = maximumMatching(graph);
  if (matching.size < eqs.length) throw relaxSingular(graph, matching, eqs, vars);
  const { order, blockStart } = bltBlocks(graph, matching);
  const pool = new TempPool(`r${index}.`);
  const name = (id: number) => vars[local.get(id)!].name;
  const state = new Elimination(eqs, vars, pool, name);
  const blocks: BlockReport[] = [];
  const sequence: number[][] = [];
  for (let b = 0; b + 1 < blockStart.length; b++) {
    const be = [...order.subarray(blockStart[b], blockStart[b + 1])];
    const bv = be.map((e) => matching.eqToVar[e]);
    sequence.push(bv);
    if (be.length === 1) state.solveScalar(be[0], bv[0]);
    else blocks.push(state.solveTorn(index, be, bv, graph, hinted));
  }
  const back: Assign[] = [];
  for (let b = sequence.length - 1; b >= 0; b--) {
    for (const v of sequence[b]) back.push({ target: vars[v], expr: affineExpr(state.forms.get(vars[v].id)!, (id) => vars[local.get(id)!].e) });
  }
  return { step: { kind: 'assign', assigns: [...pool.assigns, ...back] }, blocks, relaxedBlocks: sequence.length };
}

class Elimination {
  readonly rows: Affine[];
  readonly forms = new Map<number, Affine>();
  /** rows not yet processed that mention a variable */
  private readonly pending = new Map<number, Set<number>>();

  constructor(
    readonly eqs: readonly FlatEquation[],
    readonly vars: readonly Variable[],
    readonly pool: TempPool,
    readonly name: (id: number) => string,
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
    if (!this.pending.has(id)) this.pending.set(id, new Set());
    this.pending.get(id)!.add(row);
  }

  /** a block is solved: its rows are done, its forms go into every pending row */
  private eliminate(blockRows: number[], blockVars: number[]): void {
    for (const r of blockRows) for (const id of this.rows[r].coef.keys()) this.pending.get(id)?.delete(r);
    for (const v of blockVars) {
      const id = this.vars[v].id;
      const form = this.forms.get(id)!;
      for (const r of [...(this.pending.get(id) ?? [])].sort((a, b) => a - b)) {
        substituteForm(this.rows[r], id, form);
        this.rows[r] = materialize(this.rows[r], this.pool, `row${r}`, this.name);
        for (const u of this.rows[r].coef.keys()) this.mention(u, r);
      }
      this.pending.delete(id);
    }
  }

  solveScalar(row: number, v: number): void {
    const id = this.vars[v].id;
    this.forms.set(id, materialize(solveRow(this.rows[row], id), this.pool, this.vars[v].name, this.name));
    this.eliminate([row], [v]);
  }

  // relaxing paper eqs. 34-35: tear the block, express y and z in the later (relaxed) variables
  solveTorn(index: number, be: number[], bv: number[], graph: Bipartite, hinted: Set<number>): BlockReport {
    const sub = subgraph(graph, be, bv).graph;
    const rowsOf = be.map((r) => this.rows[r]);
    const idOf = bv.map((v) => this.vars[v].id);
    const z = idOf.map((id, i) => (hinted.has(id) ? i : -1)).filter((i) => i >= 0);
    const h = be.map((r, i) => (this.eqs[r].residues.length > 0 ? i : -1)).filter((i) => i >= 0);
    const solvable = (e: number, v: number) => rowsOf[e].coef.has(idOf[v]);
    const hintedTearing = z.length > 0 && z.length === h.length ? tearWithHints(sub, solvable, z, h) : undefined;
    const torn = hintedTearing?.ok ? hintedTearing.result : tearHeuristic(sub, solvable);
    if (torn.tearVars.length !== 1) {
      throw new StructuralError(`a block of the relaxed BLT form tears to ${torn.tearVars.length} variables; relaxing handles one tearing variable per block so far`, {
        variables: idOf.map(this.name),
        hint: 'use --mode torn for this model',
      });
    }
    const local = new Map<number, Affine>();
    const inLocal = (row: Affine) => {
      const r: Affine = { b: row.b, coef: new Map(row.coef) };
      for (const [id, f] of local) substituteForm(r, id, f);
      return materialize(r, this.pool, `b${index}`, this.name);
    };
    for (let k = 0; k < torn.assignEqs.length; k++) {
      const id = idOf[torn.assignVars[k]];
      local.set(id, materialize(solveRow(inLocal(rowsOf[torn.assignEqs[k]]), id), this.pool, this.name(id), this.name));
    }
    const zid = idOf[torn.tearVars[0]];
    const residue = inLocal(rowsOf[torn.residueEqs[0]]);
    const zForm = materialize(solveRow(residue, zid), this.pool, this.name(zid), this.name);
    this.forms.set(zid, zForm);
    for (const [id, f] of local) {
      const r: Affine = { b: f.b, coef: new Map(f.coef) };
      substituteForm(r, zid, zForm);
      this.forms.set(id, materialize(r, this.pool, this.name(id), this.name));
    }
    this.eliminate(be, bv);
    return {
      size: be.length,
      tearing: 1,
      linear: true,
      solver: 'division',
      variables: idOf.map(this.name),
      tearVariables: [this.name(zid)],
      residueEquations: [describeEquation(this.eqs[be[torn.residueEqs[0]]])],
      tearingFrom: hintedTearing?.ok ? 'hints' : 'heuristic',
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
    return [...symsOf(eq.residual)].filter((id) => !visible.has(id)).map((id) => `relax(${variableById(id)?.name ?? id})`);
  }));
  return new StructuralError(`relaxing leaves the loop structurally singular: the relax() marks in ${culprits.join(', ') || 'the loop'} cannot all be treated as known`, {
    component: culprits[0],
    equations: involved.map(describeEquation),
    variables: [...new Set([...parts.overVars, ...parts.underVars].map((i) => vars[i].name)), ...relaxedVars],
    hint: `relax() assumes components are connected in their intended direction (cut a/left to cut b/right); ${culprits.length ? `turn ${culprits.join(', ')} around, ` : ''}or compile with --mode torn`,
  });
}
