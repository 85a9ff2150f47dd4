// The elimination engine of relaxing (relaxing paper, eqs. 8-11, 34-35):
// Gaussian elimination with a fixed pivot sequence, formed symbolically, and
// the pivot rules: eager pivots ahead of the relaxed BLT order, the
// Markowitz order within a torn block, deferred pivots of massless links,
// and the run-time check of every pivot that is not a constant.
import { type Expr, ZERO, diff, substitute, symsOf } from '../expr/index.ts';
import { StructuralError } from '../errors.ts';
import { type FlatEquation, type Variable, describeEquation } from '../model/index.ts';
import { bipartiteFromLists } from './graph.ts';
import { maximumMatching } from './matching.ts';
import { bltBlocks } from './blt.ts';
import { tearHeuristic, tearWithHints } from './tearing.ts';
import { type Affine, type TempPool, materialize, solveRow, substituteForm } from './affine.ts';
import { type BlockReport, Temp } from './plan-types.ts';

/**
 * The relaxed elimination cannot proceed (a pivot cancels, a block is
 * singular): not the relax marks' fault, so the planner tears the loop instead.
 */
export class RelaxFailure extends StructuralError {}

/** torn blocks longer than this keep their causal order (the Markowitz search is quadratic in the length) */
const MARKOWITZ_LIMIT = 400;

/**
 * Gaussian elimination with a fixed pivot sequence, formed symbolically: each
 * pivot solves its row for its variable in terms of the variables not yet
 * eliminated, and substitutes that form into every pending row.
 */
export class Elimination {
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
  /** pivots that are not constants: each is bound to a Temp marked for the run-time check */
  pivots = 0;

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
    // a coefficient that folded to zero is no pivot (never a division by the constant zero)
    if (this.rows[row].coef.get(id) === ZERO) this.rows[row].coef.delete(id);
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
    const a = this.rows[row].coef.get(id)!;
    if (a.op !== 'const') {
      // the division by a pivot that can vanish numerically: checked at run time (plan-types, Checked)
      const p = new Temp(`${this.pool.prefix}pivot/${this.name(id)}`);
      this.pool.assigns.push({ target: p, expr: a, pivot: true });
      this.pool.fingerprints.bind(p, a);
      this.rows[row].coef.set(id, p.e);
      this.pivots++;
    }
    const form = materialize(solveRow(this.rows[row], id), this.pool, this.name(id), this.name);
    this.forms.set(id, form);
    this.order.push(id);
    for (const r of [...(this.pending.get(id) ?? [])].sort((a, b) => a - b)) {
      substituteForm(this.rows[r], id, form, this.pool, `row${r}`, this.name);
      // an entry that cancelled (its value identically zero) leaves the row
      for (const u of form.coef.keys())
        if (this.rows[r].coef.has(u)) this.mention(u, r);
        else this.pending.get(u)?.delete(r);
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
      let best = 0,
        bestCost = Infinity;
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
    const rows = this.deferred.map(([r]) => r),
      vars = this.deferred.map(([, id]) => localOf(id));
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
    const g = bipartiteFromLists(
      vars.length,
      rows.map((r) => ids.map((id, j) => (this.rows[r].coef.has(id) ? j : -1)).filter((j) => j >= 0)),
    );
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
      else
        out.push(
          this.torn(
            be.map((e) => rows[e]),
            be.map((e) => vars[m.eqToVar[e]]),
            hinted,
          ),
        );
    }
    return out;
  }

  // relaxing paper eqs. 34-35: a block of the relaxed BLT form is torn from its residue hints;
  // y are pivoted in causal order, then the residue rows for z, which is Gaussian elimination of A22^(2)
  torn(be: number[], bv: number[], hinted: Set<number>): BlockReport {
    const idOf = bv.map((v) => this.vars[v].id);
    // the block's structure now: substitutions of earlier pivots may have filled it in
    const sub = bipartiteFromLists(
      bv.length,
      be.map((r) => idOf.map((id, j) => (this.rows[r].coef.has(id) ? j : -1)).filter((j) => j >= 0)),
    );
    const z = idOf.map((id, i) => (hinted.has(id) ? i : -1)).filter((i) => i >= 0);
    const h = be.map((r, i) => (this.eqs[r].residues.length > 0 ? i : -1)).filter((i) => i >= 0);
    const solvable = (e: number, v: number) => this.rows[be[e]].coef.has(idOf[v]);
    const hinted_ = z.length > 0 && z.length === h.length ? tearWithHints(sub, solvable, z, h) : undefined;
    const torn = hinted_?.ok ? hinted_.result : tearHeuristic(sub, solvable);
    this.pivotSequence([...torn.assignEqs].map((e, k) => [be[e], idOf[torn.assignVars[k]]]));
    // pair residue rows with tearing variables on the reduced structure, in BLT order
    const hr = [...torn.residueEqs].map((e) => be[e]);
    const zs = [...torn.tearVars].map((v) => idOf[v]);
    const reduced = bipartiteFromLists(
      zs.length,
      hr.map((r) => zs.map((id, j) => (this.rows[r].coef.has(id) ? j : -1)).filter((j) => j >= 0)),
    );
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
      form: 'relaxed',
      why: 'relaxed: the loop eliminated in relaxed BLT order, its pivots that are not constants checked at run time',
    };
  }
}
