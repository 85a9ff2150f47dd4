// The solve plan: what the code generator turns into JavaScript. A plan is a
// sequence of steps over symbols (model variables and compiler temporaries).
//
// Glossary (tearing paper, "Solving torn linear/non-linear systems")
//   y  variables computed one at a time from the non-residue equations g
//   z  tearing variables; h residue equations; H z = c the torn linear system
import { type Expr, type Sym, freshSymbol, newSymId } from '../expr/index.ts';
import type { Variable } from '../model/index.ts';
import type { OpCounts } from './costs.ts';
import type { OneTriangle } from './one-triangle.ts';
import type { SparseCholesky } from './sparse-pattern.ts';

/** a compiler temporary: coefficients of H and c, Jacobian entries */
export class Temp implements Sym {
  readonly id = newSymId();
  readonly e: Expr;
  constructor(readonly name: string) {
    this.e = freshSymbol(this); // made with the symbol: its node cannot exist yet
  }
}

export type Target = Variable | Temp;

export interface Assign {
  readonly target: Target;
  readonly expr: Expr;
  /**
   * a pivot of the relaxed elimination that the elimination divides by: checked
   * at run time against the largest pivot of its loop so far (PIVOT_EPS); a
   * failed check hands the loop to its fallback (`Checked`)
   */
  readonly pivot?: true;
}

/** v = expr, explicitly */
export interface AssignStep {
  readonly kind: 'assign';
  readonly assigns: readonly Assign[];
  /** a relaxed loop whose pivots are checked at run time, with the torn form it falls back to */
  readonly checked?: Checked;
}

/**
 * A relaxed loop's run-time safety net. The relaxing paper proves non-zero
 * pivots for bodies on every joint, not for every combination of the library
 * (a massless link between collinear joints, a point mass on a ball joint): a
 * structurally present pivot can be numerically zero. Each pivot p is tested
 * as |p| > PIVOT_EPS * max(|pivots of the loop so far|); when one fails, the
 * whole loop is solved again in the same evaluation by its torn form, whose
 * pivoted dense solve says whether the loop is singular.
 */
export interface Checked {
  /** set to 1 by a failed pivot check; reset at the start of each evaluation */
  readonly flag: Temp;
  /** the largest |pivot| of the loop so far in this evaluation */
  readonly scale: Temp;
  /** evaluations that fell back, kept across evaluations */
  readonly count: Temp;
  /** the loop torn, as --mode torn solves it */
  readonly fallback: Step;
  /** the torn loop's report: what a singular fallback's error names */
  readonly report: BlockReport;
  /** pivots checked */
  readonly pivots: number;
  /** an outputs-pass remainder of the loop: skipped when the fallback has run (it computes every unknown of the loop) */
  readonly continued?: true;
}

/**
 * Relative size below which a relaxed pivot is not trusted (see Checked). A
 * pivot that is zero in exact arithmetic (the articulated inertia of a joint
 * whose motion moves no mass) comes out as a few rounding units of the terms
 * it cancels from; one that is 1e-9 of the largest before it has lost about
 * half of the digits (a massless link under a 1.6e12 kg body: 7e-5 relative
 * error in the accelerations, where the torn form, whose mass matrix has a
 * condition number below 1e7, is good to 1e-9). Below it the torn form
 * decides, and solves the loop when it is regular.
 */
export const PIVOT_EPS = 1e-9;

/** tearing paper: H z = c formed symbolically, solved at run time, then y from g */
export interface LinearStep {
  readonly kind: 'linear';
  readonly block: number;
  /** temporaries the entries of H and c refer to, in order */
  readonly prelude: readonly Assign[];
  readonly z: readonly Variable[];
  /** H row-major, k x k */
  readonly H: readonly Expr[];
  readonly c: readonly Expr[];
  /** H_ij and H_ji are the same expression for all i, j: try Cholesky first */
  readonly symmetric: boolean;
  /** residue row i names z_i: H may be symmetric (mass matrices are); checked numerically at run time */
  readonly paired: boolean;
  /**
   * H_ij and H_ji are different expressions of the same value (symmetry.ts):
   * the run time forms one triangle for Cholesky, the other only when it
   * falls back to LU, and skips the numeric symmetry check
   */
  readonly symmetricByValue?: boolean;
  readonly y: readonly Assign[];
  /** how H z = c is solved (solve-form.ts) */
  readonly solver: Solver;
  /** the planner's whole choice for this step, set by its last stage (solve-form.ts, chooseSolvers); codegen prints it */
  readonly form?: SolveForm;
  /** solver 'cramer': z by Cramer's rule, and the Hadamard ratio |det H| / prod of row 1-norms that checks it */
  readonly cramer?: { readonly assigns: readonly Assign[]; readonly z: readonly Expr[]; readonly hadamard: Expr };
  /**
   * Set for a torn system too large to form symbolically: H and c are formed at
   * run time by columns (Walker and Orin's method 1, which the tearing paper
   * names as the torn form's equivalent), H and c are then empty and the
   * prelude holds the coefficients dy_i/dy_k, dy_i/dz_j the columns read.
   */
  readonly columns?: Columns;
}

/** the pieces of H and c by columns: c = -h(y(0), 0); column j = the derivative of h along dz = e_j */
export interface Columns {
  /** h(y(z), z), evaluated after the causal sequence y */
  readonly residuals: readonly Expr[];
  /** the direction, set to e_j at run time */
  readonly dz: readonly Temp[];
  /** dy_i = sum_k dy_i/dy_k dy_k + sum_j dy_i/dz_j dz_j, in sequence order */
  readonly dy: readonly Assign[];
  /** the same derivative of h: column j of H */
  readonly dh: readonly Expr[];
}

/** tearing paper: Newton on H(z) = h(g~(z), z) = 0 with dH/dz = dh/dy dg~/dz + dh/dz */
export interface NewtonStep {
  readonly kind: 'newton';
  readonly block: number;
  readonly z: readonly Variable[];
  /** y = g~(z), in order */
  readonly y: readonly Assign[];
  readonly residuals: readonly Expr[];
  /** temporaries for dy/dz, in order */
  readonly jacobianPrelude: readonly Assign[];
  /** dH/dz row-major, k x k */
  readonly jacobian: readonly Expr[];
  /**
   * the position level of a kinematic loop, torn on the tree joints' q: dH/dz is the
   * constraint Jacobian, singular at dead points and change points of the linkage
   */
  readonly closure?: true;
}

export type Step = AssignStep | LinearStep | NewtonStep | IterateStep;

/** how a relaxing iteration stops (relaxing paper section 4, the iteration scheme after eq. 11) */
export interface IterateOptions {
  /** converged when every change of a sweep is below tol * max(nominal, |value|) */
  readonly tol: number;
  /** sweeps before the evaluation fails with a SimulationError */
  readonly maxSweeps: number;
  /** successive over-relaxation factor (1: Gauss-Seidel), in (0, 2) */
  readonly omega: number;
}

/** z_k = b + sum_j a_j z_(index_j): one row of a relaxing iteration */
export interface IterateRow {
  readonly b: Expr;
  /** [index into z, coefficient] */
  readonly terms: readonly (readonly [number, Expr])[];
}

/**
 * A relaxed loop's remainder solved by Gauss-Seidel sweeps instead of being
 * eliminated (relaxing paper section 4, after eq. 11): the relaxed blocks are
 * eliminated symbolically as in direct relaxing, leaving the rows the relaxed
 * matching could not place (the nodal equations of MNA, section 6) as affine
 * rows in the loop's remaining unknowns z; each row is solved for its own z_k
 * with the other z at their latest values, sweep after sweep, warm-started
 * from the previous evaluation (z lives in the workspace).
 */
export interface IterateStep {
  readonly kind: 'iterate';
  /** the relaxed loop's index (report.relaxedLoops) */
  readonly block: number;
  /** temporaries the updates read (coefficients, pivots), computed once per evaluation */
  readonly prelude: readonly Assign[];
  /** the iteration variables */
  readonly z: readonly Variable[];
  /** z_k's row solved for z_k, in sweep order: z_k = b + sum a z_j over the other z */
  readonly rows: readonly IterateRow[];
  /** nominal value of each z_k: the scale of the convergence test */
  readonly nominal: readonly number[];
  /** nothing is computed after the sweeps here (the back substitution is an AssignStep after it) */
  readonly y: readonly Assign[];
  readonly options: IterateOptions;
  /** pivots of the prelude checked at run time (a failed check is a SimulationError) */
  readonly pivots: number;
}

/** every expression the columns evaluate */
export const columnExprs = (c: Columns): Expr[] => [...c.residuals, ...c.dy.map((a) => a.expr), ...c.dh];

/** every expression a step evaluates, its fallback's included */
export function stepExprs(s: Step): Expr[] {
  switch (s.kind) {
    case 'assign':
      return [...s.assigns.map((a) => a.expr), ...(s.checked ? stepExprs(s.checked.fallback) : [])];
    case 'linear':
      return [
        ...s.prelude.map((a) => a.expr),
        ...s.H,
        ...s.c,
        ...s.y.map((a) => a.expr),
        ...(s.columns ? columnExprs(s.columns) : []),
        ...(s.cramer ? [...s.cramer.assigns.map((a) => a.expr), ...s.cramer.z, s.cramer.hadamard] : []),
      ];
    case 'newton':
      return [...s.y.map((a) => a.expr), ...s.residuals, ...s.jacobianPrelude.map((a) => a.expr), ...s.jacobian];
    case 'iterate':
      return [...s.prelude.map((a) => a.expr), ...s.rows.flatMap((r) => [r.b, ...r.terms.map(([, a]) => a)])];
  }
}

/** the run-time solve of a torn linear block */
export type Solver = 'division' | 'lu' | 'cholesky' | 'cramer';

/** how a block is solved, in full: a torn linear block's solver with Cholesky's sparse variant, Newton, or relaxed */
export type SolveFormKind = 'division' | 'cramer' | 'lu' | 'cholesky' | 'sparse-cholesky' | 'newton' | 'relaxed';

/**
 * The one record of how a torn linear step is solved (solve-form.ts,
 * chooseSolvers, the last stage of planning): what codegen prints and the
 * report says, and what mode auto bounds the torn form's cost by
 * (tornSolveBound) instead of working it out again.
 */
export interface SolveForm {
  readonly kind: SolveFormKind;
  /** why this form: the comparison that chose it */
  readonly why: string;
  /** kind 'sparse-cholesky': H's pattern ordered for the factorisation (sparse-pattern.ts) */
  readonly sparse?: SparseCholesky;
  /** a Cholesky solve of H symmetric by value: the one triangle formed on the common path (one-triangle.ts) */
  readonly triangle?: OneTriangle;
  /** operations of the run-time solve per evaluation (costs.ts; Cramer's rule: its shared subdeterminants and check) */
  readonly solveOps: OpCounts;
  /** a symbolic H: operations forming what the common path forms of H and c (the triangle and its prelude), shared subexpressions once */
  readonly formOps?: OpCounts;
}

export interface BlockReport {
  /** equations in the loop before tearing */
  size: number;
  /** tearing variables after tearing (= size if not torn) */
  tearing: number;
  linear: boolean;
  /** how the torn system is solved at run time */
  solver: 'lu' | 'cholesky' | 'division' | 'newton' | 'elimination' | 'cramer';
  variables: string[];
  tearVariables: string[];
  residueEquations: string[];
  /** 'hints' from residue(), 'heuristic' when the block had none */
  tearingFrom: 'hints' | 'heuristic';
  /** a block of the relaxed BLT form of a relaxed loop */
  relaxed?: boolean;
  /**
   * how a torn linear block's H z = c is formed: 'elimination' (relaxed elimination
   * with z kept), 'sensitivities' (affine forms of y in z), 'columns' (at run time,
   * the derivative of the causal sequence along each z_j)
   */
  formedBy?: 'elimination' | 'sensitivities' | 'columns';
  /** how the block is solved, in full (SolveForm): also 'sparse-cholesky' where solver says 'cholesky', 'relaxed' where it says 'elimination' */
  form?: SolveFormKind;
  /** why that form (SolveForm.why) */
  why?: string;
  /** a nonlinear block: 'newton', or 'substitution' (compile option tornSubstitution) with Newton finishing what it does not converge in */
  iteration?: 'newton' | 'substitution';
}

/** a loop solved by relaxing: its size and how it fell apart in relaxed BLT form */
export interface RelaxedLoopReport {
  size: number;
  /** blocks of the relaxed BLT form */
  relaxedBlocks: number;
  /** equations in its largest block */
  largest: number;
  /** equations left for a final elimination once the relaxed blocks are gone (0: none) */
  remainder: number;
  /** pivots checked at run time (divisions by pivots that are not constants) */
  checkedPivots: number;
  /** how the loop is solved when a pivot check fails: its torn form's solver */
  fallback?: BlockReport['solver'];
  /**
   * only when compiled with relaxIterate: 'iteration' (the remainder solved by
   * Gauss-Seidel sweeps) or 'elimination' (no remainder: the relaxed form is exact)
   */
  method?: 'elimination' | 'iteration';
  /** method 'iteration': the iteration variables and the stopping rule */
  iteration?: { variables: number } & IterateOptions;
}

/** fallback steps' block numbers start here (they are not blocks of the sorted model) */
export const FALLBACK_BLOCKS = 1 << 20;

export interface SolvePlan {
  readonly name: string;
  readonly states: readonly Variable[];
  readonly inputs: readonly Variable[];
  /** inputs an equation defines (a controller in the model): among the unknowns, not in `inputs` (defined-inputs.ts) */
  readonly definedInputs: readonly Variable[];
  /** parameters left symbolic (foldParameters: false) */
  readonly parameters: readonly Variable[];
  readonly unknowns: readonly Variable[];
  /** unknowns computed with the state derivatives, not in the outputs pass (inverse dynamics: the joint forces) */
  readonly outputs: readonly Variable[];
  readonly steps: readonly Step[];
  readonly blocks: readonly BlockReport[];
  readonly diagnostics: readonly string[];
  readonly relaxedLoops: readonly RelaxedLoopReport[];
  /** reports of the relaxed loops' torn fallbacks, block FALLBACK_BLOCKS + i */
  readonly fallbacks: readonly BlockReport[];
  /** scalar equations after flattening, before alias elimination */
  readonly flatEquations: number;
  /** equations the solver sees after alias elimination */
  readonly sortedEquations: number;
}
