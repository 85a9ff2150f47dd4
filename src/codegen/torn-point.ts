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
import { isSingular, luFactor, luSolve } from '../analysis/dense-lu.ts';
import type { Expr } from '../expr/index.ts';
import type { SolvePlan } from '../structure/plan-types.ts';
import type { CompiledModel } from './compiled.ts';
import { type DerivedCode, derivedCode } from './derived.ts';
import type { PlanTangents } from './plan-tangents.ts';

export class TornPoint {
  /** each block's z: its unknown's index in the model's workspace */
  private readonly zFrom: Int32Array;
  private made?: DerivedCode;
  private readonly e: Float64Array;

  constructor(
    private readonly model: CompiledModel,
    private readonly plan: SolvePlan,
    private readonly pt: PlanTangents,
    /** u[m]: the first extra input */
    private readonly m: number,
  ) {
    const at = new Map(model.plan.unknowns.map((v, i) => [v.id, i]));
    this.zFrom = Int32Array.from(pt.blocks.flatMap((b) => b.z), (z) => {
      const i = at.get(z.id);
      if (i === undefined) throw new Error(`tangents: ${z.name} is not an unknown of ${model.report.model}'s compiled code`);
      return i;
    });
    this.e = new Float64Array(Math.max(0, ...pt.blocks.map((b) => b.z.length)));
  }

  /** the J of every block, row-major one after the other, as a function of the point and z */
  get code(): DerivedCode {
    const given = this.pt.extra.slice(0, this.zFrom.length);
    return (this.made ??= derivedCode(this.plan, given, this.pt.primal, this.pt.blocks.flatMap((b): readonly Expr[] => b.J), `${this.model.report.model}.loops`, this.model.fail));
  }

  /** after the model's own evaluation at (t, x, u) left its workspace in w: z and every J^-1 into u from m */
  fill(t: number, x: Float64Array, u: Float64Array, p: Float64Array, w: ArrayLike<number>): void {
    const { m, zFrom, pt } = this;
    if (pt.blocks.length === 0) return;
    for (let i = 0; i < zFrom.length; i++) u[m + i] = w[zFrom[i]];
    const code = this.code;
    code.run(t, x, u, p);
    let from = 0, to = m + zFrom.length;
    for (const b of pt.blocks) {
      const k = b.z.length;
      const J = Float64Array.from({ length: k * k }, (_, ij) => code.w[code.slots[from + ij]]);
      from += k * k;
      const f = J.every(Number.isFinite) ? luFactor(k, J) : undefined;
      if (!f || isSingular(f)) return this.model.fail('deadpoint', b.block, t, 0);
      for (let j = 0; j < k; j++) {
        this.e.fill(0);
        this.e[j] = 1;
        const col = luSolve(f, this.e.subarray(0, k));
        for (let i = 0; i < k; i++) u[to + i * k + j] = col[i];
      }
      to += k * k;
    }
  }
}
