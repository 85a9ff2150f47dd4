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
import { type Expr, ExprError, abs, add, div, isConst, mul } from '../expr/index.ts';
import { StructuralError } from '../errors.ts';
import type { FlatEquation, Variable } from '../model/index.ts';
import { type OpCounts, choleskyOps, modeCost, noOps, refinedLuOps } from './costs.ts';
import { cramerSolve, expressionOps } from './cramer.ts';
import { type BlockReport, FALLBACK_BLOCKS, type LinearStep, type SolveForm, type Solver, type Step } from './plan-types.ts';
import { oneTriangle } from './one-triangle.ts';
import { sparseCholesky } from './sparse-pattern.ts';
import { keptSystem } from './relax.ts';
import { type FormedLinear, type TornBlock, columnsStep, linearStep, newtonStep, tornLinearStep, withSymmetryByValue } from './torn.ts';

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
export function formTorn(
  t: TornBlock,
  linear: boolean,
  relaxable: boolean,
  eqs: FlatEquation[],
  vars: Variable[],
  hinted: Set<number>,
): [Step, Formation | undefined] {
  if (!linear) return [newtonStep(t), undefined];
  const symbolicUpTo = t.block >= FALLBACK_BLOCKS ? FALLBACK_SYMBOLIC_UP_TO : SYMBOLIC_UP_TO;
  const [formed, by] =
    t.z.length > symbolicUpTo
      ? [columnsStep(t), 'columns' as const]
      : relaxable
        ? relaxedTornStep(t, eqs, vars, hinted)
        : [linearStep(t), 'sensitivities' as const];
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
  // formed two ways, H's symmetry by value is tested on the one kept only (it makes no node: the same plan)
  const compared = t.z.length <= COMPARE_UP_TO;
  let eliminated: FormedLinear;
  try {
    eliminated = tornLinearStep(t, keptSystem(`b${t.block}.`, eqs, vars, hinted, t.z), !compared);
  } catch (e) {
    if (e instanceof StructuralError || e instanceof ExprError) return [linearStep(t), 'sensitivities'];
    throw e;
  }
  if (!compared) return [eliminated, 'elimination'];
  const bySensitivities = linearStep(t, false);
  return formOps(bySensitivities) < formOps(eliminated)
    ? [withSymmetryByValue(bySensitivities), 'sensitivities']
    : [withSymmetryByValue(eliminated), 'elimination'];
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
 * propagated): each torn linear step's SolveForm, the one record of how it is
 * solved, which codegen prints and the report copies. A block of 2 to 4
 * tearing variables is solved by Cramer's rule when that, with its check,
 * costs fewer operations than its run-time factorisation. The check: |det H|
 * over the product of the rows' 1-norms (bounded by 1, Hadamard's
 * inequality); within 16 k rounding units of zero H is singular to working
 * precision and the step falls back to LU, whose verdict is the one both
 * modes share. A Cholesky solve of a sparse H (a branched tree's mass
 * matrix) walks its pattern when that saves a fifth of the dense
 * factorisation (sparse-pattern.ts); an H symmetric by value forms one
 * triangle on the common path (one-triangle.ts).
 */
export function chooseSolvers(steps: readonly Step[], reportOf: (block: number) => BlockReport): Step[] {
  return steps.map((s) => {
    if (s.kind === 'assign' && s.checked) return { ...s, checked: { ...s.checked, fallback: chooseSolvers([s.checked.fallback], reportOf)[0] } };
    if (s.kind !== 'linear') return s;
    const cramer = s.columns ? undefined : cramerIfCheaper(s);
    const chosen: LinearStep = cramer ? { ...s, solver: 'cramer', cramer: cramer.solution } : s;
    const form = cramer
      ? {
          kind: 'cramer' as const,
          why: `Cramer's rule with its check, ${total(cramer.ops)} operations, below ${total(cramer.factor)} of ${s.solver}`,
          solveOps: cramer.ops,
        }
      : solveForm(s);
    const report = reportOf(s.block);
    report.solver = chosen.solver;
    report.form = form.kind;
    report.why = form.why;
    return { ...chosen, form };
  });
}

/** the step's SolveForm, as chooseSolvers recorded it (made now for a step planned without that stage) */
export function formOf(s: LinearStep): SolveForm {
  return s.form ?? solveForm(s);
}

/** the form of a step solved by division or a run-time factorisation, and why */
function solveForm(s: LinearStep): SolveForm {
  const k = s.z.length;
  if (s.solver === 'division') return { kind: 'division', why: 'one tearing variable', solveOps: { ...noOps(), div: 1 } };
  const dense = s.solver === 'cholesky' ? choleskyOps(k) : refinedLuOps(k);
  const symmetric = s.symmetric
    ? 'H symmetric (the same expressions)'
    : s.symmetricByValue
      ? 'H symmetric by value (symmetry.ts)'
      : s.paired
        ? 'H paired (residue i names z_i), checked symmetric at run time'
        : 'H not symmetric';
  if (s.columns) return { kind: s.solver, why: `H formed at run time by columns (k = ${k} above the symbolic limit); ${symmetric}`, solveOps: dense };
  const sparse = s.solver === 'cholesky' ? sparseCholesky(k, s.H) : undefined;
  // the triangle Cholesky reads, of H with its structural zeros left out when the pattern is used (linear.ts)
  const triangle =
    s.symmetricByValue && s.solver === 'cholesky'
      ? oneTriangle(k, sparse ? s.H.map((e) => (isConst(e, 0) ? undefined : e)) : s.H, s.c, s.prelude, sparse?.order)
      : undefined;
  const formed = triangle
    ? [...triangle.first.map((a) => a.expr), ...triangle.H.filter((e) => e !== undefined), ...s.c]
    : [...s.prelude.map((a) => a.expr), ...s.H, ...s.c];
  const formOps = expressionOps(formed);
  if (sparse)
    return {
      kind: 'sparse-cholesky',
      why: `${symmetric}; its sparse pattern factors in ${total(sparse.ops)} operations, dense Cholesky ${total(dense)}`,
      sparse,
      triangle,
      solveOps: sparse.ops,
      formOps,
    };
  const why = s.solver === 'cholesky' ? `${symmetric}${k >= 4 ? '; no sparsity that saves a fifth of dense Cholesky' : ''}` : symmetric;
  return { kind: s.solver, why, ...(triangle && { triangle }), solveOps: dense, formOps };
}

/** Cramer's rule for H z = c when it costs fewer operations than the factorisation: its solution, its and the factorisation's operations */
function cramerIfCheaper(s: LinearStep): { solution: NonNullable<LinearStep['cramer']>; ops: OpCounts; factor: OpCounts } | undefined {
  const k = s.z.length;
  if (k < 2 || k > 4) return undefined;
  let solution;
  try {
    solution = cramerSolve(s.H, s.c, k, `b${s.block}.`);
  } catch (e) {
    // a structurally singular H: the numeric solve reports it at run time, with the block's values
    if (e instanceof StructuralError) return undefined;
    throw e;
  }
  const rows = Array.from({ length: k }, (_, i) => add(...s.H.slice(i * k, i * k + k).map((h) => abs(h))));
  const hadamard: Expr = div(abs(solution.det), mul(...rows));
  const ops = expressionOps([...solution.assigns.map((a) => a.expr), ...solution.z, hadamard]);
  const factor = s.solver === 'cholesky' ? choleskyOps(k) : refinedLuOps(k);
  return total(ops) < total(factor) ? { solution: { assigns: solution.assigns, z: solution.z, hadamard }, ops, factor } : undefined;
}

/**
 * A lower bound of the torn form's weighted operations (costs.ts modeCost),
 * read from a relaxed plan's records: the run-time solves of its checked
 * loops' torn fallbacks, which the torn form solves the same way (k > 4:
 * Cramer's rule never applies), and the forming of their symbolic H and c,
 * at 0.8 of the count: a margin for what the generated code's counting
 * differs in. A fallback formed by columns (k > FALLBACK_SYMBOLIC_UP_TO)
 * leaves H's pattern unknown, and the torn form forms H symbolically up to
 * SYMBOLIC_UP_TO, sparse on a branched tree: there the dense solve counts
 * at half its cost (a tree's sparse solve is far below that; a chain's is
 * the dense one). Undefined when nothing bounds it. Mode auto skips the
 * torn form when this exceeds the relaxed form's cost (compile.ts).
 */
export function tornSolveBound(steps: readonly Step[]): number | undefined {
  let bound = 0;
  for (const s of steps) {
    const f = s.kind === 'assign' ? s.checked?.fallback : undefined;
    if (f?.kind !== 'linear' || f.z.length <= 4) continue;
    const form = formOf(f);
    const cost = modeCost(form.solveOps);
    if (f.columns) {
      bound += f.z.length > SYMBOLIC_UP_TO ? cost : cost / 2;
      continue;
    }
    bound += cost;
    bound += 0.8 * modeCost(form.formOps!);
  }
  return bound > 0 ? bound : undefined;
}
