// The frames the contact needs, computed alone: the steps of the model's
// plan that its bodies' frame_a.R, r, v, w need, generated as code of their
// own (codegen/derived.ts), so that an evaluation with contact runs the
// model once (these few steps, then the contact forces, then the
// derivatives with them) instead of twice (run.ts).
//
// Which plan. Positions and velocities of a tree's frames are explicit
// assignments in both forms: a body's pose and twist follow its parent's
// and its joint's state; what tearing or relaxing solves (the loops of the
// accelerations and joint forces) comes after. So the compiled plan's own
// assignments are tried first: the same expressions the derivatives compute
// the frames with, so the same numbers. Where a frame is computed inside a
// solved block of the compiled plan (a kinematic loop, or a torn plan whose
// positions a block solves), the model's relaxed plan as straight-line code
// (analysis/linearize-generated.ts straightPlan) is tried; else there is no
// such code and run.ts evaluates the whole model for the frames, as before;
// also for a model rebuilt from its portable form, which has no plan.
//
// Glossary: plan the solve plan (structure/plan-types.ts); list its explicit
// assignments in solve order; wanted the frames' signals, by name.
import { type Expr, add, mul, num, symsOf, withLocalTable } from '../expr/index.ts';
import { TIME } from '../model/index.ts';
import { UsageError } from '../errors.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { type DerivedCode, derivedCode } from '../codegen/derived.ts';
import { needed } from '../codegen/tangent.ts';
import { straightPlan } from '../analysis/linearize-generated.ts';
import type { Assign, SolvePlan } from '../structure/plan-types.ts';

/** the frames' values at (t, x): run(), then w[slots[k]] holds wanted signal k */
export type FrameKinematics = Pick<DerivedCode, 'run' | 'w' | 'slots' | 'report'> & {
  /** the plan it was made from: the compiled model's own, or its relaxed plan as straight-line code */
  from: 'compiled' | 'relaxed';
};

/** per compiled model, per list of wanted signals: the code, or why there is none */
const made = new WeakMap<CompiledModel, Map<string, FrameKinematics | string>>();

// (compiled model, wanted signals) => code computing them from (t, x, u, p) alone, or why there is none
export function frameKinematics(compiled: CompiledModel, wanted: readonly string[]): FrameKinematics | string {
  let byKey = made.get(compiled);
  if (!byKey) made.set(compiled, (byKey = new Map()));
  const key = wanted.join(' ');
  let code = byKey.get(key);
  if (code === undefined) byKey.set(key, (code = withLocalTable(() => make(compiled, wanted))));
  return code;
}

function make(compiled: CompiledModel, wanted: readonly string[]): FrameKinematics | string {
  let own: SolvePlan;
  try {
    own = compiled.plan;
  } catch (e) {
    // a model rebuilt from its portable form (a worker's) runs without its plan: the model is evaluated for the frames
    if (e instanceof UsageError) return `the compiled model carries no plan (${e.message})`;
    throw e;
  }
  const tried = fromPlan(compiled, own, wanted);
  if (typeof tried !== 'string') return { ...tried, from: 'compiled' };
  const straight = straightPlan(compiled);
  if (straight === own) return tried;
  const relaxed = fromPlan(compiled, straight, wanted);
  return typeof relaxed === 'string' ? relaxed : { ...relaxed, from: 'relaxed' };
}

// (compiled model, a plan of it, wanted signals) => the code from the plan's explicit assignments, or why not
function fromPlan(compiled: CompiledModel, plan: SolvePlan, wanted: readonly string[]): DerivedCode | string {
  const value = signalExpr(compiled, plan);
  const outputs: Expr[] = [];
  for (const name of wanted) {
    const e = value(name);
    if (typeof e === 'string') return e;
    outputs.push(e);
  }
  // a checked loop's assignments may be replaced by its fallback at run time: not taken
  const list: Assign[] = plan.steps.flatMap((s) => (s.kind === 'assign' && !s.checked ? s.assigns : []));
  const keep = needed(list, outputs);
  const known = new Set<number>([TIME.id, ...plan.states.map((v) => v.id), ...plan.inputs.map((v) => v.id), ...plan.parameters.map((v) => v.id)]);
  for (const a of keep) known.add(a.target.id);
  const missing = (e: Expr) => [...symsOf(e)].find((id) => !known.has(id));
  for (const e of [...outputs, ...keep.map((a) => a.expr)]) {
    if (missing(e) !== undefined) return 'a frame is computed inside a block the plan solves (a loop), not by explicit assignments';
  }
  return derivedCode(plan, [], keep, outputs, `${compiled.report.model}.contactFrames`, compiled.fail);
}

/** a signal as an expression of the plan's symbols: sign * (state, input, parameter or unknown) + offset (compiled-data.ts), or why not */
function signalExpr(compiled: CompiledModel, plan: SolvePlan): (name: string) => Expr | string {
  const unknowns = compiled.plan.unknowns;
  return (name) => {
    const s = compiled.signalSource(name);
    if (s.from === 'value') return num(s.offset);
    const v: { e: Expr } | undefined =
      s.from === 'x'
        ? plan.states[s.index]
        : s.from === 'u'
          ? plan.inputs[s.index]
          : s.from === 'p'
            ? plan.parameters[s.index]
            : s.from === 'w' && s.index < unknowns.length
              ? unknowns[s.index]
              : undefined;
    return v ? add(mul(s.sign, v.e), s.offset) : `${name} is not a state, input, parameter or unknown of the plan`;
  };
}
