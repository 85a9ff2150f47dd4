// Linearization by generated code: when the model's equations solve as
// straight-line code (a tree in its relaxed form, the recursive O(n)
// algorithm; a circuit without algebraic loops), the tangents of that code
// (codegen/tangent.ts) along every state and chosen input are generated once
// per compiled model, inputs and outputs, and give A, B, C, D exactly, in
// one evaluation: microseconds where the symbolic path (implicit.ts) takes
// milliseconds. A model compiled torn is planned again relaxed for this (the
// same reduced equations, relax() hints honoured); a model whose relaxed
// plan still has a torn loop (a kinematic loop) is differentiated through
// its compiled plan's blocks implicitly (codegen/plan-tangents.ts: each
// block's z and J^-1 from the point the compiled model solved,
// torn-point.ts). linearize() takes the symbolic path where there is no
// such code (a relaxing iteration), and when the generated code
// does not reproduce the compiled model's own x' at the point (a relaxed
// pivot near zero: the compiled code then ran its torn fallback). The code
// is made on the second linearization of a compiled model with the same
// inputs and outputs (codeFor), so a one-off `kron linearize` stays as fast
// as before.
//
// Glossary: n states, m chosen inputs, D = n + m directions (state j is
// direction j, chosen input k direction n + k); rows of A, B: der(x_i).
import { type Expr, ONE, ZERO, add, mul, num, withLocalTable } from '../expr/index.ts';
import type { Sym } from '../expr/index.ts';
import type { CompiledModel, SignalSource } from '../codegen/compiled.ts';
import { type DerivedCode, derivedCode } from '../codegen/derived.ts';
import { planTangents } from '../codegen/plan-tangents.ts';
import { TornPoint } from '../codegen/torn-point.ts';
import { planModel } from '../structure/plan.ts';
import type { SolvePlan } from '../structure/plan-types.ts';
import type { ModelState } from '../codegen/state.ts';

/** A, B, C, D (row-major arrays of rows) and x' at the point, from generated code */
export interface GeneratedLinearization {
  A: number[][];
  B: number[][];
  C: number[][];
  D: number[][];
}

export interface Code {
  code: DerivedCode;
  /** directions: states, then chosen inputs */
  D: number;
  /** signals whose values the code computes too, checked against the compiled model's */
  checked: number;
  rows: number;
  /** a kinematic loop's blocks: their z and J^-1, extra inputs after the model's */
  loops?: { point: TornPoint; u: Float64Array };
}

const made = new WeakMap<CompiledModel, Map<string, Code | string | 'asked once'>>();

/** the model's relaxed plan as straight-line code, states and inputs in the compiled order; else its compiled plan (torn blocks: a loop) */
export function straightPlan(compiled: CompiledModel): SolvePlan {
  const straight = (p: SolvePlan) => p.steps.every((s) => s.kind === 'assign');
  if (straight(compiled.plan)) return compiled.plan;
  const plan = withLocalTable(() => planModel(compiled.reduced, { relaxed: true, outputs: compiled.plan.outputs }));
  const same = (a: readonly Sym[], b: readonly Sym[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  if (
    !straight(plan) ||
    !same(plan.states, compiled.plan.states) ||
    !same(plan.inputs, compiled.plan.inputs) ||
    !same(plan.parameters, compiled.plan.parameters)
  )
    return compiled.plan;
  return plan;
}

/**
 * The generated tangent code of these rows (signals, by name) along every
 * state and the chosen inputs, with the values of `checked` signals, made on
 * the second call with them (or the first, `eager`): making it costs more
 * than one symbolic linearization (PUMA: ~0.5 s against ~0.1 s), and pays
 * from the next call on. Undefined: not made yet; a string: why there is none.
 */
export function codeFor(
  compiled: CompiledModel,
  inputs: readonly number[],
  rows: readonly string[],
  checked: readonly string[],
  eager: boolean,
): Code | string | undefined {
  let byKey = made.get(compiled);
  if (!byKey) made.set(compiled, (byKey = new Map()));
  const key = `${inputs.join(',')}|${rows.join(' ')}|${checked.join(' ')}`;
  const code = byKey.get(key);
  if (code !== undefined && code !== 'asked once') return code;
  if (code === undefined && !eager) {
    byKey.set(key, 'asked once');
    return undefined;
  }
  const c = makeCode(compiled, inputs, rows, checked);
  byKey.set(key, c);
  return c;
}

function makeCode(compiled: CompiledModel, inputs: readonly number[], rowNames: readonly string[], checked: readonly string[]): Code | string {
  const plan = straightPlan(compiled);
  const n = plan.states.length,
    D = n + inputs.length;
  const seeds = new Map<number, Expr[]>();
  const unit = (d: number) => Array.from({ length: D }, (_, k) => (k === d ? ONE : ZERO));
  plan.states.forEach((v, j) => seeds.set(v.id, unit(j)));
  inputs.forEach((k, i) => seeds.set(plan.inputs[k].id, unit(n + i)));
  const t = planTangents(plan, plan.steps, seeds, D);
  if (typeof t === 'string') return `its compiled plan has no implicit tangents: ${t}`;
  // a signal is sign * (state, input or unknown) + offset (compiled-data.ts): its value and its tangents
  const unknowns = compiled.plan.unknowns;
  const at = (s: SignalSource) =>
    s.from === 'x' ? plan.states[s.index] : s.from === 'u' ? plan.inputs[s.index] : s.from === 'w' && s.index < unknowns.length ? unknowns[s.index] : undefined;
  const value = (s: SignalSource) => {
    const v = at(s);
    return v ? add(mul(s.sign, v.e), s.offset) : num(s.from === 'value' ? s.offset : 0);
  };
  const row = (s: SignalSource) => {
    const v = at(s);
    const d = v && t.tangent(v.id);
    return Array.from({ length: D }, (_, k) => (d ? mul(s.sign, d[k]) : ZERO));
  };
  const source = (name: string) => compiled.signalSource(name);
  const exprs = [...checked.map((y) => value(source(y))), ...rowNames.flatMap((y) => row(source(y)))];
  const code = derivedCode(plan, t.extra, t.assigns, exprs, `${compiled.report.model}.tangents`, compiled.fail);
  const loops = t.blocks.length
    ? { point: new TornPoint(compiled, plan, t, plan.inputs.length), u: new Float64Array(plan.inputs.length + t.extra.length) }
    : undefined;
  return { code, D, checked: checked.length, rows: rowNames.length, ...(loops && { loops }) };
}

/**
 * The rows' derivatives by (states, chosen inputs) at the point, each row
 * n + m numbers, from generated code; or why not. `expected` are the
 * compiled model's values of the checked signals: the generated code must
 * compute the same (else a relaxed pivot was not trusted there).
 */
export function generatedRows(
  compiled: CompiledModel,
  state: ModelState,
  x: Float64Array,
  t: number,
  inputs: readonly number[],
  rows: readonly string[],
  checked: readonly string[],
  expected: ArrayLike<number>,
  eager: boolean,
): number[][] | string {
  const c = codeFor(compiled, inputs, rows, checked, eager);
  if (c === undefined) return 'the first call with this compiled model, inputs and outputs is symbolic (generating costs more than one)';
  if (typeof c === 'string') return c;
  const { code, D, loops } = c;
  if (loops) {
    loops.u.set(state.u);
    loops.point.fill(t, x, loops.u, state.p, state.w);
  }
  code.run(t, x, loops ? loops.u : state.u, state.p);
  const out = (k: number) => code.w[code.slots[k]];
  for (let i = 0; i < c.checked; i++) {
    const v = out(i),
      want = expected[i];
    if (!(Math.abs(v - want) <= 1e-9 * (1 + Math.abs(want)))) return `its relaxed code computes ${checked[i]} = ${v} here, the compiled model ${want}`;
  }
  const result: number[][] = [];
  for (let r = 0; r < c.rows; r++) {
    const full = Array.from({ length: D }, (_, k) => out(c.checked + r * D + k));
    if (!full.every(Number.isFinite)) return `its generated derivatives of ${rows[r]} are not finite`;
    result.push(full);
  }
  return result;
}

// (compiled model, its state solved at the point, x' there, chosen inputs, outputs) => A, B, C, D; or why not
export function generatedLinearization(
  compiled: CompiledModel,
  state: ModelState,
  x: Float64Array,
  t: number,
  dx: Float64Array,
  inputs: readonly number[],
  outputs: readonly string[],
  eager: boolean,
): GeneratedLinearization | string {
  const n = x.length;
  const derivatives = compiled.stateNames.map((s) => `der(${s})`);
  const rows = generatedRows(compiled, state, x, t, inputs, [...derivatives, ...outputs], derivatives, dx, eager);
  if (typeof rows === 'string') return rows;
  return {
    A: rows.slice(0, n).map((r) => r.slice(0, n)),
    B: rows.slice(0, n).map((r) => r.slice(n)),
    C: rows.slice(n).map((r) => r.slice(0, n)),
    D: rows.slice(n).map((r) => r.slice(n)),
  };
}
