// The run-time half of the tangents through torn blocks (plan-tangents.ts):
// at a point the compiled model has just solved, the tangent code takes each
// block's z (read from the model's workspace) and J^-1 (J evaluated by a
// generated function of the point and z, inverted here by LU with partial
// pivoting on the equilibrated J) as extra inputs. A singular J is the
// loop's dead point or change point: the model's own typed error says so.
//
// Glossary: u the derived codes' inputs: the model's m inputs, then the
// blocks' z (z~), then the entries of each J^-1 (plan-tangents.ts `extra`);
// w the model's workspace, unknown i at w[i].
import type { Expr } from '../expr/index.ts';
import type { SolvePlan } from '../structure/plan-types.ts';
import type { CompiledModel } from './compiled.ts';
import { type DerivedCode, derivedCode } from './derived.ts';
import type { PlanTangents } from './plan-tangents.ts';

export class TornPoint {
  /** each block's z: its unknown's index in the model's workspace */
  private readonly zFrom: Int32Array;
  private made?: DerivedCode;
  /** one block's J, then the matrix its inverse is formed in (k x k each, the largest block's size) */
  private readonly A: Float64Array;
  private readonly X: Float64Array;

  constructor(
    private readonly model: CompiledModel,
    private readonly plan: SolvePlan,
    private readonly pt: PlanTangents,
    /** u[m]: the first extra input */
    private readonly m: number,
  ) {
    const at = new Map(model.plan.unknowns.map((v, i) => [v.id, i]));
    this.zFrom = Int32Array.from(
      pt.blocks.flatMap((b) => b.z),
      (z) => {
        const i = at.get(z.id);
        if (i === undefined) throw new Error(`tangents: ${z.name} is not an unknown of ${model.report.model}'s compiled code`);
        return i;
      },
    );
    const k = Math.max(0, ...pt.blocks.map((b) => b.z.length));
    this.A = new Float64Array(k * k);
    this.X = new Float64Array(k * k);
  }

  /** the J of every block, row-major one after the other, as a function of the point and z */
  get code(): DerivedCode {
    const given = this.pt.extra.slice(0, this.zFrom.length);
    return (this.made ??= derivedCode(
      this.plan,
      given,
      this.pt.primal,
      this.pt.blocks.flatMap((b): readonly Expr[] => b.J),
      `${this.model.report.model}.loops`,
      this.model.fail,
    ));
  }

  /** after the model's own evaluation at (t, x, u) left its workspace in w: z and every J^-1 into u from m */
  fill(t: number, x: Float64Array, u: Float64Array, p: Float64Array, w: ArrayLike<number>): void {
    const { m, zFrom, pt } = this;
    if (pt.blocks.length === 0) return;
    for (let i = 0; i < zFrom.length; i++) u[m + i] = w[zFrom[i]];
    const code = this.code;
    code.run(t, x, u, p);
    let from = 0,
      to = m + zFrom.length;
    const { A, X } = this;
    for (const b of pt.blocks) {
      const k = b.z.length;
      for (let ij = 0; ij < k * k; ij++) A[ij] = code.w[code.slots[from + ij]];
      from += k * k;
      if (!invert(k, A, X)) return this.model.fail('deadpoint', b.block, t, 0);
      for (let ij = 0; ij < k * k; ij++) u[to + ij] = X[ij];
      to += k * k;
    }
  }
}

/** a pivot of the row-equilibrated matrix below this is zero to working precision (LAPACK's dgeequ scaling) */
const SINGULAR = 64 * Number.EPSILON;

/**
 * A^-1 into X (k x k row-major) by Gauss-Jordan with partial pivoting; A is
 * destroyed. Rows are scaled to a largest entry of 1 first (D A X = D gives
 * X = A^-1). False when A is singular to working precision or not finite.
 */
export function invert(k: number, A: Float64Array, X: Float64Array): boolean {
  for (let i = 0; i < k; i++) {
    let m = 0;
    for (let j = 0; j < k; j++) m = Math.max(m, Math.abs(A[i * k + j]));
    if (!(m > 0) || !Number.isFinite(m)) return false;
    for (let j = 0; j < k; j++) ((A[i * k + j] /= m), (X[i * k + j] = i === j ? 1 / m : 0));
  }
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let i = c + 1; i < k; i++) if (Math.abs(A[i * k + c]) > Math.abs(A[p * k + c])) p = i;
    if (!(Math.abs(A[p * k + c]) > SINGULAR)) return false;
    if (p !== c) {
      for (let j = 0; j < k; j++) {
        [A[c * k + j], A[p * k + j]] = [A[p * k + j], A[c * k + j]];
        [X[c * k + j], X[p * k + j]] = [X[p * k + j], X[c * k + j]];
      }
    }
    const d = 1 / A[c * k + c];
    for (let j = 0; j < k; j++) ((A[c * k + j] *= d), (X[c * k + j] *= d));
    for (let i = 0; i < k; i++) {
      const f = A[i * k + c];
      if (i === c || f === 0) continue;
      for (let j = 0; j < k; j++) ((A[i * k + j] -= f * A[c * k + j]), (X[i * k + j] -= f * X[c * k + j]));
    }
  }
  return true;
}
