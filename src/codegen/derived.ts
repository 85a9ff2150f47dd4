// Code derived from a compiled model's plan (its tangents, tangent.ts): a
// list of assignments and the expressions wanted from them become a plan of
// one assignment step over the model's own states, inputs and parameters
// (and extra inputs, a direction given at run time), printed by generate()
// like the model's own code. It is made on first use, never by compile(), so
// it costs the default compile nothing; its size and the time it took are
// reported (DerivedCode.report).
//
// Glossary: t, x, u, p as the model's code takes them (u: the model's inputs,
// then the extra ones); w this code's own workspace; outputs read from w.
import { type Expr, withLocalTable } from '../expr/index.ts';
import { Variable } from '../model/index.ts';
import type { Assign, SolvePlan } from '../structure/plan-types.ts';
import { generate } from './generate.ts';
import { type Workspace, doubles } from './runtime.ts';
import type { Derivatives } from './compiled.ts';
import type { OpCounts } from './ops.ts';
import { needed } from './tangent.ts';

/** what making the code cost, and its size */
export interface DerivedReport {
  /** generating and loading it, milliseconds */
  readonly ms: number;
  /** operations of one evaluation */
  readonly ops: OpCounts;
  /** characters of generated JavaScript */
  readonly chars: number;
  readonly functions: number;
}

export interface DerivedCode {
  /** compute every output into w; u holds the model's inputs, then the extra ones */
  run(t: number, x: Float64Array, u: Float64Array, p: Float64Array): void;
  readonly w: Workspace;
  /** the workspace slot of each output */
  readonly slots: Int32Array;
  readonly report: DerivedReport;
}

export type Fail = (kind: string, block: number, t: number, residual: number) => never;

// (plan, extra inputs, assignments, outputs) => generated code computing the outputs
export function derivedCode(
  plan: SolvePlan,
  extraInputs: readonly Variable[],
  list: readonly Assign[],
  outputs: readonly Expr[],
  name: string,
  fail: Fail,
): DerivedCode {
  const t0 = performance.now();
  const generated = withLocalTable(() => {
    const targets = outputs.map((_, k) => new Variable(undefined, `${name}[${k}]`, 'algebraic'));
    const assigns = [...needed(list, outputs), ...outputs.map((expr, k) => ({ target: targets[k], expr }))];
    const derived: SolvePlan = {
      ...plan,
      inputs: [...plan.inputs, ...extraInputs],
      unknowns: [...plan.unknowns, ...targets],
      outputs: targets,
      steps: [{ kind: 'assign', assigns }],
    };
    return generate(derived, { ir: false });
  });
  const fn = new Function('fail', generated.body)(fail) as Derivatives;
  const w = doubles(generated.layout.workspace.length);
  const dx = new Float64Array(plan.states.length);
  const first = plan.unknowns.length;
  const slots = Int32Array.from(outputs, (_, k) => first + k);
  const report = { ms: Math.round((performance.now() - t0) * 100) / 100, ops: generated.ops, chars: generated.body.length, functions: generated.functions };
  return { run: (t, x, u, p) => fn(t, x, dx, u, p, w), w, slots, report };
}
