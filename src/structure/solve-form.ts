// The planner's choice of solve form, made here and only here; codegen prints
// what the step says and the report reads it from the step.
//   formation  how a torn linear block's H z = c is formed: symbolically from
//              the relaxed elimination with z kept ('elimination') or from the
//              sensitivities of the causal sequence ('sensitivities'), or at
//              run time by columns ('columns')
//   solver     how H z = c is solved: one division, Cramer's rule with its
//              subdeterminants shared (Carpanzano & Formenti 1994), or a
//              run-time factorisation, Cholesky or LU (tearing paper)
// Nonlinear blocks are solved by Newton, always.
import { type Expr, ExprError, abs, add, div, mul } from '../expr/index.ts';
import { StructuralError } from '../errors.ts';
import type { FlatEquation, Variable } from '../model/index.ts';
import { type OpCounts, choleskyOps, refinedLuOps } from './costs.ts';
import { cramerSolve, expressionOps } from './cramer.ts';
import { type BlockReport, FALLBACK_BLOCKS, type LinearStep, type Solver, type Step } from './plan-types.ts';
import { keptSystem } from './relax.ts';
import { type FormedLinear, type TornBlock, columnsStep, linearStep, newtonStep, tornLinearStep } from './torn.ts';

/** torn blocks up to this size are also formed by sensitivities, and the cheaper form is kept */
const COMPARE_UP_TO = 12;
/**
 * Torn linear blocks with more tearing variables form H at run time by columns:
 * symbolic H is O(k^2) code (a chain of 128: 10 MB, 8 s to compile, minutes for
 * V8 to optimise), the columns O(k) code run k times (the derivative of the
 * causal sequence along each z_j). The chain of 64, CPU time on a loaded
 * 2-core machine: symbolic (one triangle, symmetry.ts) 94545 mul, 150 µs after
 * a 5.3 s compile; columns 236878 mul, 259 µs after 2.8 s. The price is V8's
 * warm-up: ~9 s of CPU before the symbolic code's ~400 functions run
 * optimised, ~2 s for the columns. The torn fallback of a relaxed loop runs
 * only when a pivot check fails: it keeps the small code above 32.
 */
const SYMBOLIC_UP_TO = 64;
const FALLBACK_SYMBOLIC_UP_TO = 32;

export type Formation = NonNullable<BlockReport['formedBy']>;

// (torn block, its equations) => the step that forms and solves it, and how H is formed
export function formTorn(t: TornBlock, linear: boolean, relaxable: boolean, eqs: FlatEquation[], vars: Variable[], hinted: Set<number>): [Step, Formation | undefined] {
  if (!linear) return [newtonStep(t), undefined];
  const symbolicUpTo = t.block >= FALLBACK_BLOCKS ? FALLBACK_SYMBOLIC_UP_TO : SYMBOLIC_UP_TO;
  const [formed, by] = t.z.length > symbolicUpTo ? [columnsStep(t), 'columns' as const] : relaxable ? relaxedTornStep(t, eqs, vars, hinted) : [linearStep(t), 'sensitivities' as const];
  return [{ ...formed, solver: numericSolver(t.z.length, formed.symmetric || formed.paired) }, by];
}

/**
 * A linear loop that carries relax() marks, torn: H z = c formed by the
 * relaxed elimination with the tearing variables kept (keptSystem): ~24
 * operations per entry of a chain's H, where the sensitivities of every
 * variable to every z take ~56. Small blocks (PUMA-560) can be cheaper by sensitivities:
 * both are formed and the one with fewer operations is kept. Sensitivities
 * also when the elimination cannot proceed.
 */
function relaxedTornStep(t: TornBlock, eqs: FlatEquation[], vars: Variable[], hinted: Set<number>): [FormedLinear, Formation] {
  let eliminated: FormedLinear;
  try {
    eliminated = tornLinearStep(t, keptSystem(`b${t.block}.`, eqs, vars, hinted, t.z));
  } catch (e) {
    if (e instanceof StructuralError || e instanceof ExprError) return [linearStep(t), 'sensitivities'];
    throw e;
  }
  if (t.z.length > COMPARE_UP_TO) return [eliminated, 'elimination'];
  const bySensitivities = linearStep(t);
  return formOps(bySensitivities) < formOps(eliminated) ? [bySensitivities, 'sensitivities'] : [eliminated, 'elimination'];
}

/** operations to form H and c (shared subexpressions counted once) */
function formOps(s: FormedLinear): number {
  return total(expressionOps([...s.prelude.map((a) => a.expr), ...s.H, ...s.c]));
}

const total = (o: OpCounts) => o.mul + o.add + o.div + o.fn;

/** the run-time solve of a torn linear step: a division, Cholesky for a (possibly) symmetric H, else LU */
function numericSolver(k: number, symmetric: boolean): Solver {
  return k === 1 ? 'division' : symmetric ? 'cholesky' : 'lu';
}

/**
 * The last stage of planning, on the steps as they will run (trivial values
 * propagated): a torn linear block of 2 to 4 tearing variables is solved by
 * Cramer's rule when that, with its check, costs fewer operations than its
 * run-time factorisation. The check: |det H| over the product of the rows'
 * 1-norms (bounded by 1, Hadamard's inequality); within 16 k rounding units of
 * zero H is singular to working precision and the step falls back to LU,
 * whose verdict is the one both modes share.
 */
export function chooseSolvers(steps: readonly Step[], reportOf: (block: number) => BlockReport): Step[] {
  return steps.map((s) => {
    if (s.kind === 'assign' && s.checked) return { ...s, checked: { ...s.checked, fallback: chooseSolvers([s.checked.fallback], reportOf)[0] } };
    if (s.kind !== 'linear' || s.columns) return s;
    const cramer = cramerIfCheaper(s);
    if (!cramer) return s;
    reportOf(s.block).solver = 'cramer';
    return { ...s, solver: 'cramer' as const, cramer };
  });
}

function cramerIfCheaper(s: LinearStep): LinearStep['cramer'] {
  const k = s.z.length;
  if (k < 2 || k > 4) return undefined;
  let solution;
  try {
    solution = cramerSolve(s.H, s.c, k, `b${s.block}.`);
  } catch {
    return undefined; // structurally singular H: the numeric solve reports it at run time
  }
  const rows = Array.from({ length: k }, (_, i) => add(...s.H.slice(i * k, i * k + k).map((h) => abs(h))));
  const hadamard: Expr = div(abs(solution.det), mul(...rows));
  const ops = expressionOps([...solution.assigns.map((a) => a.expr), ...solution.z, hadamard]);
  return total(ops) < total(s.solver === 'cholesky' ? choleskyOps(k) : refinedLuOps(k)) ? { assigns: solution.assigns, z: solution.z, hadamard } : undefined;
}
