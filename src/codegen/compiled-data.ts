// What a compiled model needs to run, as plain data: the generated code and
// its layout, the report, the default arrays, where every signal is read
// from and the names a run-time error or a new parameter value is checked
// against. A compile derives it from the plan; the compile cache
// (node/compile-cache.ts) stores it as JSON and runs from it without the
// plan, which a CompiledModel then rebuilds only when a diagnosis needs it.
import { type ReducedModel, TIME, type Variable } from '../model/index.ts';
import type { BlockReport, IterateOptions, SolvePlan } from '../structure/plan-types.ts';
import type { CompileReport, Problem } from '../report.ts';
import type { Generated } from './generate.ts';
import type { CoordinateNames } from './inverse.ts';
import type { WatchedPose } from './pose-watch.ts';
import type { EventData } from './events.ts';

/** where a signal is read: sign * array[index] + offset (time: sign * t + offset; value: the constant offset) */
export interface SignalSource {
  readonly from: 'time' | 'x' | 'u' | 'w' | 'p' | 'value';
  readonly index: number;
  readonly sign: number;
  readonly offset: number;
}

export interface CompiledOptions {
  /** parameters were folded into the code (compile's foldParameters) */
  folded: boolean;
  /** start values overriding the declared ones, by name */
  start?: Readonly<Record<string, number>>;
  /** what the code computes (default 'forward') */
  problem?: Problem;
  /** problem 'inverse': the generalized coordinates' names, in the order inverse() takes them */
  coordinates?: readonly CoordinateNames[];
  /** 'wasm': the straight-line functions run as WebAssembly (wasm.ts); default 'js' */
  target?: Target;
}

export type Target = 'js' | 'wasm';

/** an unknown in solve order with the equation that computes it (ModelState.firstNonFinite) */
export interface SolvedUnknown {
  readonly name: string;
  readonly equation: string;
}

/** what the run-time error messages read of the plan, as plain data */
export interface FailureTables {
  readonly blocks: readonly BlockReport[];
  readonly fallbacks: readonly BlockReport[];
  /** the relaxing iterations: loop index, iteration variables, settings */
  readonly iterations: readonly { readonly block: number; readonly z: readonly { readonly name: string }[]; readonly options: IterateOptions }[];
}

/** a compiled model as JSON-able data */
export interface CompiledData {
  readonly generated: Generated;
  readonly report: CompileReport;
  /** the emitted module's header lines (kron compile --emit) */
  readonly header: Record<string, unknown>;
  /** the default arrays, before options.start is written into them */
  readonly defaults: { readonly x: readonly number[]; readonly w: readonly number[]; readonly u: readonly number[]; readonly p: readonly number[] };
  /** every signal by name */
  readonly sources: readonly (readonly [string, SignalSource])[];
  /** the unknowns lead the workspace: a start value may go to w[0 .. unknowns) */
  readonly unknowns: number;
  /** every parameter of the flat model, folded or not */
  readonly parameters: readonly string[];
  readonly options: CompiledOptions;
  readonly failures: FailureTables;
  /** the unknowns in solve order with their equations: computed from the plan when absent (CompiledModel.solveOrder) */
  readonly solveOrder?: readonly SolvedUnknown[];
  /** the components' singular poses that every run watches (pose-watch.ts); none when absent */
  readonly singularPoses?: readonly WatchedPose[];
  /** groups of states of unit norm (a joint's quaternion), by name: the integrators normalise them after every step */
  readonly unitNorms?: readonly (readonly string[])[];
  /** the components' zero-crossing events as code (events.ts); none when absent */
  readonly events?: EventData;
}

const source = (from: SignalSource['from'], index: number, sign = 1, offset = 0): SignalSource => ({ from, index, sign, offset });

// (plan, reduced model, generated code, report, options) => the data a compiled model runs from
export function compiledData(
  plan: SolvePlan,
  reduced: ReducedModel,
  generated: Generated,
  report: CompileReport,
  header: Record<string, unknown>,
  options: CompiledOptions,
): CompiledData {
  const values = reduced.flat.parameterValues;
  // a start value carried over from the variable's aliases if it has none itself
  const start = (v: Variable) => v.start ?? reduced.starts.get(v.id) ?? 0;
  const w = new Array<number>(generated.layout.workspace.length).fill(0);
  plan.unknowns.forEach((v, i) => (w[i] = start(v)));
  return {
    // the IR serves only the WebAssembly target: not carried (nor cached) for JavaScript
    generated: options.target === 'wasm' ? generated : { ...generated, ir: undefined, program: undefined },
    report,
    header,
    defaults: { x: plan.states.map(start), w, u: plan.inputs.map((v) => v.start ?? 0), p: plan.parameters.map((v) => values.get(v.id)!) },
    sources: [...signalSources(plan, reduced, generated)],
    unknowns: plan.unknowns.length,
    parameters: reduced.flat.variables.filter((v) => v.kind === 'parameter').map((v) => v.name),
    options,
    failures: {
      blocks: plan.blocks,
      fallbacks: plan.fallbacks,
      iterations: plan.steps.flatMap((s) => (s.kind === 'iterate' ? [{ block: s.block, z: s.z.map((v) => ({ name: v.name })), options: s.options }] : [])),
    },
  };
}

/** every signal's source: states, inputs, unknowns, parameters (folded ones as values), aliases, time */
function signalSources(plan: SolvePlan, reduced: ReducedModel, generated: Generated): Map<string, SignalSource> {
  const { layout } = generated;
  const values = reduced.flat.parameterValues;
  const sources = new Map<string, SignalSource>();
  const set = (name: string, s: SignalSource) => sources.set(name, s);
  layout.states.forEach((n, i) => set(n, source('x', i)));
  layout.inputs.forEach((n, i) => set(n, source('u', i)));
  plan.unknowns.forEach((v, i) => set(v.name, source('w', i)));
  layout.parameters.forEach((n, i) => set(n, source('p', i)));
  for (const v of reduced.flat.variables) {
    if (v.kind === 'parameter' && !sources.has(v.name)) set(v.name, source('value', 0, 0, values.get(v.id)!));
  }
  for (const a of reduced.aliases.values()) {
    const of = a.of && (a.of.id === TIME.id ? source('time', 0) : sources.get(a.of.name));
    set(a.variable.name, of ? source(of.from, of.index, a.sign * of.sign, a.sign * of.offset + a.offset) : source('value', 0, 0, a.offset));
  }
  sources.delete(TIME.name);
  set('time', source('time', 0));
  return sources;
}
