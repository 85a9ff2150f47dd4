// The solve plan: what the code generator turns into JavaScript. A plan is a
// sequence of steps over symbols (model variables and compiler temporaries).
//
// Glossary (tearing paper, "Solving torn linear/non-linear systems")
//   y  variables computed one at a time from the non-residue equations g
//   z  tearing variables; h residue equations; H z = c the torn linear system
import { type Expr, type Sym, newSymId, symbol } from '../expr/index.ts';
import type { Variable } from '../model/index.ts';

/** a compiler temporary: coefficients of H and c, Jacobian entries */
export class Temp implements Sym {
  readonly id = newSymId();
  readonly e: Expr;
  constructor(readonly name: string) {
    this.e = symbol(this);
  }
}

export type Target = Variable | Temp;

export interface Assign {
  readonly target: Target;
  readonly expr: Expr;
}

/** v = expr, explicitly */
export interface AssignStep {
  readonly kind: 'assign';
  readonly assigns: readonly Assign[];
}

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
  readonly y: readonly Assign[];
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
}

export type Step = AssignStep | LinearStep | NewtonStep;

/** every expression the columns evaluate */
export const columnExprs = (c: Columns): Expr[] => [...c.residuals, ...c.dy.map((a) => a.expr), ...c.dh];

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
}

export interface SolvePlan {
  readonly name: string;
  readonly states: readonly Variable[];
  readonly inputs: readonly Variable[];
  /** parameters left symbolic (foldParameters: false) */
  readonly parameters: readonly Variable[];
  readonly unknowns: readonly Variable[];
  readonly steps: readonly Step[];
  readonly blocks: readonly BlockReport[];
  readonly diagnostics: readonly string[];
  readonly relaxedLoops: readonly RelaxedLoopReport[];
  /** scalar equations after flattening, before alias elimination */
  readonly flatEquations: number;
  /** equations the solver sees after alias elimination */
  readonly sortedEquations: number;
}
