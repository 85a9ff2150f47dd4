// Symbolic forms of a torn block (tearing paper, "Solving torn linear
// systems" and "Solving torn non-linear systems").
//
// Glossary
//   y_i = f_i(y_<i, z)  the causal sequence from the non-residue equations g
//   z                   tearing variables; h the residue equations
//   sensitivity         dy_i/dz_j, propagated forward through the sequence:
//                       dy_i/dz_j = df_i/dz_j + sum_k df_i/dy_k dy_k/dz_j
//   H z = c             linear case: H = A22 - A21 L^-1 A12, c = b2 - A21 L^-1 b1,
//                       formed here by propagating the affine forms of y in z
import { type Expr, ZERO, add, dependsOn, diff, div, linearIn, mul, neg, substitute, symsOf } from '../expr/index.ts';
import type { Variable } from '../model/index.ts';
import { type Assign, type LinearStep, type NewtonStep, Temp } from './plan-types.ts';
import { TempPool } from './affine.ts';
import { symmetricByValue } from './symmetry.ts';

/** a torn linear step as formed, before the planner chooses its solver (solve-form.ts) */
export type FormedLinear = Omit<LinearStep, 'solver'>;

/** v from residual = a v + b = 0, i.e. v = -b / a; null if not solvable explicitly */
export function solveFor(residual: Expr, v: Variable): Expr | null {
  const lin = linearIn(residual, v);
  return !lin || lin.a === ZERO ? null : div(neg(lin.b), lin.a);
}

/**
 * v = -b / a from residual = a v + b = 0 and whether a is steady: free of
 * everything but the given parameters and constants. Linear in v when a is
 * free of v; b (the residual at v = 0) and the solution are formed on first
 * use: tearing asks for every incidence of a loop (4 x 10^4 at chain n = 256),
 * the causal sequence uses one per variable.
 */
export function solveWithPivot(residual: Expr, v: Variable, parameters: ReadonlySet<number>): PivotSolution | null {
  if (!dependsOn(residual, v.id)) return null;
  const a = diff(residual, v);
  if (a === ZERO || dependsOn(a, v.id)) return null;
  return new PivotSolution(
    residual,
    v,
    a,
    symsOf(a).every((id) => parameters.has(id)),
  );
}

/** an incidence's solution, formed on first use (an object, not a closure per incidence: tsx names each closure it makes) */
class PivotSolution {
  private formed: Expr | undefined;
  constructor(
    private readonly residual: Expr,
    private readonly v: Variable,
    private readonly a: Expr,
    readonly steady: boolean,
  ) {}
  solution(): Expr {
    return (this.formed ??= div(neg(substitute(this.residual, new Map([[this.v.id, ZERO]]))), this.a));
  }
}

/**
 * Row of d f / d z (total, through the y's of the sequence): for each j,
 * df/dz_j + sum_k df/dy_k dy_k/dz_j, with dy_k/dz_j from `known`.
 */
function totalDerivatives(f: Expr, z: readonly Variable[], known: Map<number, Expr[]>, byId: Map<number, Variable>): Expr[] {
  const occurs = symsOf(f);
  const row: Expr[][] = z.map((zj) => [dependsOn(f, zj.id) ? diff(f, zj) : ZERO]);
  for (const id of occurs) {
    const dy = known.get(id);
    if (!dy) continue;
    const dfdy = diff(f, byId.get(id)!);
    dy.forEach((d, j) => d !== ZERO && row[j].push(mul(dfdy, d)));
  }
  return row.map((terms) => add(...terms));
}

interface TornBlock {
  block: number;
  /** y_i = f_i in causal order */
  sequence: readonly { v: Variable; f: Expr }[];
  z: readonly Variable[];
  residues: readonly Expr[];
  /** residue i names z_i in its residue(): H is symmetric for mechanisms (checked at run time) */
  paired: boolean;
}

// (torn linear block) => H z = c with H, c symbolic; y recomputed from g after the solve (byValue: tornLinearStep's)
export function linearStep(t: TornBlock, byValue = true): FormedLinear {
  const pool = new TempPool(`b${t.block}.`);
  const byId = new Map<number, Variable>([...t.z, ...t.sequence.map((s) => s.v)].map((v) => [v.id, v]));
  const zero = new Map<number, Expr>([...byId.keys()].map((id) => [id, ZERO]));
  // affine forms y = y0 + sum_j dy/dz_j z_j; dy/dz_j via totalDerivatives, y0 via f at y = z = 0
  const coef = new Map<number, Expr[]>();
  const offset = new Map<number, Expr>();
  const affine = (f: Expr, label: string) => {
    const row = totalDerivatives(f, t.z, coef, byId).map((e, j) => pool.use(e, () => `d${label}/d${t.z[j].name}`));
    const terms = [substitute(f, zero)];
    for (const id of symsOf(f)) {
      const o = offset.get(id);
      if (o && o !== ZERO) terms.push(mul(diff(f, byId.get(id)!), o));
    }
    return { row, c0: pool.use(add(...terms), () => `${label}@0`) };
  };
  for (const { v, f } of t.sequence) {
    const { row, c0 } = affine(f, v.name);
    coef.set(v.id, row);
    offset.set(v.id, c0);
  }
  const H: Expr[] = [];
  const c: Expr[] = [];
  t.residues.forEach((h, r) => {
    const { row, c0 } = affine(h, `h${r}`);
    H.push(...row);
    c.push(neg(c0));
  });
  return tornLinearStep(t, { prelude: pool.assigns, H, c, paired: t.paired }, byValue);
}

/**
 * (torn linear block, H z = c formed some way) => the plan's step: y recomputed from g after the solve.
 * byValue false leaves out the test of H's symmetry by value (withSymmetryByValue makes it later):
 * the planner forms some blocks two ways and keeps one (solve-form.ts, relaxedTornStep).
 */
export function tornLinearStep(t: TornBlock, s: { prelude: readonly Assign[]; H: Expr[]; c: Expr[]; paired: boolean }, byValue = true): FormedLinear {
  const { H, c } = s;
  const k = t.z.length;
  let symmetric = true;
  for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) if (H[i * k + j] !== H[j * k + i]) symmetric = false;
  // a structural zero on the diagonal (the constraint rows of cut joints: H = [M G^T; G 0],
  // tearing paper eqs. 2a, 2d) is not positive definite: no Cholesky to try and abandon
  let definite = true;
  for (let i = 0; i < k; i++) if (H[i * k + i] === ZERO) definite = false;
  const formed: FormedLinear = {
    kind: 'linear',
    block: t.block,
    prelude: s.prelude,
    z: t.z,
    H,
    c,
    symmetric: symmetric && definite,
    paired: s.paired && definite,
    y: sequenceAssigns(t),
  };
  return byValue ? withSymmetryByValue(formed) : formed;
}

/** the step marked symmetricByValue when H is paired (and definite), not the same expressions, but the same values (symmetry.ts) */
export function withSymmetryByValue(s: FormedLinear): FormedLinear {
  const k = s.z.length;
  // symmetric and paired as tornLinearStep records them: both false for an H that is not definite
  return !s.symmetric && s.paired && k > 1 && symmetricByValue(s.prelude, s.H, k) ? { ...s, symmetricByValue: true } : s;
}

/** y from the causal sequence, recomputed once z is known */
const sequenceAssigns = (t: TornBlock): Assign[] => t.sequence.map(({ v, f }) => ({ target: v, expr: f }));

// (torn linear block) => H z = c left to the run time, formed there by columns
export function columnsStep(t: TornBlock): FormedLinear {
  const pool = new TempPool(`b${t.block}.`);
  const byId = new Map<number, Variable>([...t.z, ...t.sequence.map((s) => s.v)].map((v) => [v.id, v]));
  /** block variable id -> its direction */
  const direction = new Map<number, Expr>();
  // the derivative of f along the direction: its coefficients are free of the block's
  // unknowns (the block is linear), computed once per evaluation in the prelude
  const along = (f: Expr, label: string) =>
    add(
      ZERO,
      ...Array.from(symsOf(f), (id) => {
        const d = direction.get(id);
        // no coefficient for what does not move with z: it would be computed and never read
        return d === undefined || d === ZERO
          ? ZERO
          : mul(
              pool.use(diff(f, byId.get(id)!), () => `d${label}/d${byId.get(id)!.name}`),
              d,
            );
      }),
    );
  const dz = t.z.map((v) => new Temp(`d${v.name}`));
  t.z.forEach((v, j) => direction.set(v.id, dz[j].e));
  const dy = t.sequence
    .map(({ v, f }) => {
      const target = new Temp(`d${v.name}`);
      const expr = along(f, v.name);
      direction.set(v.id, expr === ZERO ? ZERO : target.e);
      return { target, expr };
    })
    .filter((a) => a.expr !== ZERO);
  const dh = t.residues.map((h, r) => along(h, `h${r}`));
  return {
    kind: 'linear',
    block: t.block,
    prelude: pool.assigns,
    z: t.z,
    H: [],
    c: [],
    symmetric: false,
    paired: t.paired,
    y: sequenceAssigns(t),
    columns: { residuals: t.residues, dz, dy, dh },
  };
}

// (torn non-linear block) => residuals and the symbolic Jacobian for Newton on z
export function newtonStep(t: TornBlock): NewtonStep {
  const pool = new TempPool(`b${t.block}.`);
  const byId = new Map<number, Variable>([...t.z, ...t.sequence.map((s) => s.v)].map((v) => [v.id, v]));
  const sens = new Map<number, Expr[]>();
  for (const { v, f } of t.sequence) {
    sens.set(
      v.id,
      totalDerivatives(f, t.z, sens, byId).map((e, j) => pool.use(e, () => `d${v.name}/d${t.z[j].name}`)),
    );
  }
  const jacobian = t.residues.flatMap((h) => totalDerivatives(h, t.z, sens, byId));
  return {
    kind: 'newton',
    block: t.block,
    z: t.z,
    y: sequenceAssigns(t),
    residuals: t.residues,
    jacobianPrelude: pool.assigns,
    jacobian,
  };
}

export type { TornBlock };
