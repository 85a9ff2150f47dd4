// The relaxing iteration (Otter, Elmqvist & Cellier 1996, section 4, the
// scheme after eq. 11): "the relaxing definition can be utilized to solve the
// linear system iteratively, which can be useful for very large systems of
// equations (say > 10000 equations) ... the relaxed variables can be used as
// iteration variables in a fixed-point iteration", essentially Gauss-Seidel.
//
// Here the relaxed blocks are still eliminated symbolically (eqs. 8-10: each
// block's unknowns become affine forms in the later, relaxed variables), which
// is exact and cheap; what direct relaxing then eliminates densely, the rows
// the relaxed matching cannot place (section 6: the nodal equations of MNA,
// whose unknowns are exactly the relaxed potentials), becomes the iteration:
// each row solved for one remaining unknown, the others at their latest
// values (Gauss-Seidel), optionally over-relaxed. A loop without such rows
// (a drive train, a tree mechanism) has nothing to iterate: its relaxed form
// is already exact and it is eliminated as in direct relaxing.
import { type Expr, ZERO, div, mul, symsOf } from '../expr/index.ts';
import { type Variable, describeEquation } from '../model/index.ts';
import { bipartiteFromLists } from './graph.ts';
import { growMatching } from './matching.ts';
import { RelaxFailure } from './elimination.ts';
import { UsageError } from '../errors.ts';
import type { Elimination } from './elimination.ts';
import type { Affine } from './affine.ts';
import { type Assign, type IterateOptions, type IterateRow, type IterateStep, type RelaxedLoopReport, Temp } from './plan-types.ts';

export const DEFAULT_ITERATE: IterateOptions = { tol: 1e-10, maxSweeps: 500, omega: 1 };

/** the rows left by the relaxed elimination and their unknowns (relax.ts, eliminate with iterate) */
export interface Rest {
  rows: number[];
  vars: Variable[];
}

/**
 * The iteration over the remainder of an eliminated loop: the IterateStep and
 * the temporaries of the elimination it does not read (left for the back
 * substitution, which may run in the outputs pass).
 */
export function iterationStep(index: number, elim: Elimination, rest: Rest, options: IterateOptions): { step: IterateStep; others: Assign[] } {
  const pairs = pairRows(elim, rest);
  const pool = elim.pool;
  const position = new Map(pairs.map(([, v], k) => [v.id, k]));
  let pivots = 0;
  const rows = pairs.map(([r, z]) => {
    const row = elim.rows[r];
    let a = row.coef.get(z.id)!;
    if (a.op !== 'const') {
      // a diagonal that can vanish numerically: checked at run time like the elimination's pivots
      const p = new Temp(`${pool.prefix}pivot/${z.name}`);
      pool.assigns.push({ target: p, expr: a, pivot: true });
      a = p.e;
      pivots++;
    }
    return solvedFor(row, z, a, position, (e, label) => pool.use(e, label));
  });
  const reads = new Set<number>(rows.flatMap((r) => [r.b, ...r.terms.map(([, c]) => c)]).flatMap((e) => [...symsOf(e)]));
  // what the updates read (and every pivot, so that each is checked before the sweeps): the
  // prelude; the rest of the elimination's temporaries only feed the back substitution
  const prelude: Assign[] = [],
    others: Assign[] = [];
  for (let i = pool.assigns.length - 1; i >= 0; i--) {
    const a = pool.assigns[i];
    if (reads.has(a.target.id) || a.pivot) {
      prelude.push(a);
      for (const id of symsOf(a.expr)) reads.add(id);
    } else others.push(a);
  }
  const z = pairs.map(([, v]) => v);
  const step: IterateStep = {
    kind: 'iterate',
    block: index,
    prelude: prelude.reverse(),
    z,
    rows,
    nominal: z.map((v) => v.nominal),
    y: [],
    options,
    pivots: pivots + elim.pivots,
  };
  return { step, others: others.reverse() };
}

/** z from 0 = b + a z + sum_j c_j z_j:  z = -b/a - sum_j (c_j/a) z_j, coefficients bound once */
function solvedFor(row: Affine, z: Variable, a: Expr, position: Map<number, number>, use: (e: Expr, label: string) => Expr): IterateRow {
  const inverse = use(div(1, a), `iterate/${z.name}/inverse`);
  const terms: [number, Expr][] = [];
  for (const [u, c] of row.coef) {
    if (u === z.id) continue;
    const k = use(mul(-1, c, inverse), `iterate/${z.name}/${u}`);
    if (k !== ZERO) terms.push([position.get(u)!, k]);
  }
  return { b: use(mul(-1, row.b, inverse), `iterate/${z.name}@0`), terms };
}

/**
 * Each remainder row paired with the unknown it updates. Gauss-Seidel
 * converges for diagonally dominant rows (a node's own potential in its
 * current law), so each row first takes its free unknown of largest constant
 * coefficient; rows left over are matched by augmenting paths.
 */
function pairRows(elim: Elimination, rest: Rest): [number, Variable][] {
  const byId = new Map(rest.vars.map((v, i) => [v.id, i]));
  const lists = rest.rows.map((r) => {
    const row = elim.rows[r];
    for (const u of row.coef.keys()) {
      if (!byId.has(u))
        throw new RelaxFailure(`relaxing iteration: ${elim.name(u)} is left in a remainder row`, {
          equations: [describeEquation(elim.eqs[r])],
          hint: 'compile without relaxIterate',
        });
    }
    const size = (e: Expr) => (e.op === 'const' ? Math.abs(e.value) : 0);
    return [...row.coef].sort((x, y) => size(y[1]) - size(x[1])).map(([u]) => byId.get(u)!);
  });
  const eqToVar = new Int32Array(lists.length).fill(-1),
    varToEq = new Int32Array(rest.vars.length).fill(-1);
  let size = 0;
  lists.forEach((list, r) => {
    const v = list.find((u) => varToEq[u] < 0);
    if (v !== undefined) [eqToVar[r], varToEq[v], size] = [v, r, size + 1];
  });
  const m = growMatching(bipartiteFromLists(rest.vars.length, lists), { eqToVar, varToEq, size });
  if (m.size < rest.rows.length || rest.rows.length !== rest.vars.length) {
    throw new RelaxFailure('the equations left after relaxing are structurally singular', {
      equations: rest.rows.slice(0, 8).map((r) => describeEquation(elim.eqs[r])),
      variables: rest.vars.slice(0, 8).map((v) => v.name),
      hint: 'check the connections (a node without a path to ground, a loop of voltage sources), or use --mode torn',
    });
  }
  return rest.rows.map((r, i) => [r, rest.vars[m.eqToVar[i]]]);
}

/** the report's word on a relaxed loop compiled with relaxIterate: iterated, or exact without a remainder */
export function iterationReport(step: IterateStep | undefined, options: IterateOptions): Pick<RelaxedLoopReport, 'method' | 'iteration'> {
  return step ? { method: 'iteration', iteration: { variables: step.z.length, ...options } } : { method: 'elimination' };
}

/** relaxIterate as given to compile(): true for the defaults, or some of them */
export function iterateOptions(given: boolean | Partial<IterateOptions> | undefined): IterateOptions | undefined {
  if (given === undefined || given === false) return undefined;
  return { ...DEFAULT_ITERATE, ...(given === true ? {} : given) };
}

/** compile()'s relaxIterate checked: the full options, or undefined; a UsageError for what cannot run */
export function checkIterate(options: { mode?: string; relaxIterate?: boolean | Partial<IterateOptions> }): IterateOptions | undefined {
  const it = iterateOptions(options.relaxIterate);
  if (!it) return undefined;
  if (options.mode !== undefined && options.mode !== 'relaxed' && options.mode !== 'auto') {
    throw new UsageError(`relaxIterate iterates on the relax() marks, which mode "${options.mode}" ignores`, {
      hint: 'leave the mode out (relaxIterate implies --mode relaxed) or use --mode relaxed',
    });
  }
  const { tol, maxSweeps, omega } = it;
  if (!(Number.isFinite(tol) && tol > 0)) throw new UsageError(`iteration tolerance ${tol} must be a finite number > 0`, { hint: 'e.g. --iterate-tol 1e-10' });
  if (!(Number.isInteger(maxSweeps) && maxSweeps >= 1))
    throw new UsageError(`maximum sweep count ${maxSweeps} must be an integer >= 1`, { hint: 'e.g. --iterate-max-sweeps 500' });
  if (!(omega > 0 && omega < 2))
    throw new UsageError(`over-relaxation factor ${omega} must lie in (0, 2)`, {
      hint: 'successive over-relaxation converges only for 0 < omega < 2; 1 is Gauss-Seidel, e.g. --iterate-omega 1.3',
    });
  return it;
}
