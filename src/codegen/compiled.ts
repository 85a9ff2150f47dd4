// A compiled model: the generated derivatives function, the layout of its
// arrays, the default values (parameters as compiled, start values), where
// every signal is read from, and run-time error reporting. It is immutable:
// runs happen on states (createState(), state.ts), each with its own arrays.
// The methods derivatives(), signal(), setInput()... act on one default
// state, for callers that run one simulation at a time.
import { ModelError, SimulationError, UsageError } from '../errors.ts';
import { didYouMean } from '../suggest.ts';
import type { ReducedModel } from '../model/index.ts';
import { FALLBACK_BLOCKS, type SolvePlan } from '../structure/plan-types.ts';
import type { Generated } from './generate.ts';
import type { CompileReport } from '../report.ts';
import { moduleSource } from './module.ts';
import type { CompiledData, SignalSource, SolvedUnknown } from './compiled-data.ts';
import { show } from '../expr/index.ts';
import { Component } from '../model/index.ts';
import { ModelState, NonFiniteError, type NonFiniteUnknown, type SignalReader } from './state.ts';
import { iterationFailure } from './relax-iterate.ts';
import { positionNames } from './coordinate-slots.ts';
import { type CoordinateNames, type DerivativeOptions, InverseDynamics } from './inverse.ts';
import type { ForwardDerivatives, InverseDerivatives } from './dynamics-derivatives.ts';
import type { Problem } from '../report.ts';
import { type Workspace, doubles } from './runtime.ts';
import { type WasmTarget, wasmTarget } from './wasm.ts';
import { shortTime } from './pose-watch.ts';
import { type EventFunctions, eventFunctions } from './events.ts';

export type { CompiledData, CompiledOptions, FailureTables, SignalSource, SolvedUnknown } from './compiled-data.ts';

/**
 * A compiled model as plain data for a worker thread or another machine
 * (structured-clonable and JSON-safe): what it lacks is the model itself, so
 * the components' own checks of new parameter values (setParameter) do not
 * run on it: check them on the CompiledModel it came from before sending a
 * run away. new CompiledModel(portable) runs it.
 */
export type PortableModel = CompiledData & {
  /** the format's name and version, checked when it is read */
  readonly format: 'kron-portable-model/1';
  /** the unknowns in the order the code computes them (firstNonFinite's diagnosis reads it) */
  readonly solveOrder: readonly SolvedUnknown[];
};

export type Derivatives = ((t: number, x: Float64Array, dx: Float64Array, u: Float64Array, p: Float64Array, w: Workspace) => void) & {
  outputs: (t: number, x: Float64Array, u: Float64Array, p: Float64Array, w: Workspace) => void;
  /** the generated module's functions by name (generate.ts), for the WebAssembly target's driver */
  functions: Record<string, unknown>;
};
/**
 * A loop that Newton cannot close, whose last closed position had an unscaled
 * rcond below this, is reported as a dead point: the RSSR of rest-choice.test
 * stops at its crank's extreme angle from a position of rcond 1.8e-3 (the
 * unscaled rcond is a pivot over the largest entry, ~0.1 to 1 for links of
 * similar length away from singular positions).
 */
const NEAR_DEAD_POINT_RCOND = 1e-2;
/** extra: for a kinematic loop that does not close, the condition of its last closed position (runtime/newton.ts, newtonStuck); for one that passed a singular position, the time of its last solve before it (newtonClosed); for a relaxing iteration, its last changes (relax-iterate.ts) */
type Fail = (kind: string, block: number, t: number, residual: number, extra?: number | ArrayLike<number> | null) => never;

/** values a state starts from, by name */
export interface StateValues {
  /** parameters kept symbolic (foldParameters: false); a folded one only at its compiled value */
  parameters?: Readonly<Record<string, number>>;
  /** start values of states (or their aliases), or first guesses of unknowns */
  start?: Readonly<Record<string, number>>;
}

/** what a compile derived its code from: the plan and the reduced model (a cached model rebuilds them on demand) */
export interface Origin {
  readonly plan: SolvePlan;
  readonly reduced: ReducedModel;
}

/** a model compiled to code: its derivatives, signals, inputs and parameters, the compile report, and a default state to run it */
export class CompiledModel {
  /** the states, in the order of the state vector x */
  readonly stateNames: readonly string[];
  /** the generated code, shared by every state: it keeps nothing between calls outside the arrays it is given */
  readonly fn: Derivatives;
  /** what a new state starts with; never written */
  readonly defaults: {
    /** the start states */
    readonly x: Float64Array;
    /** the workspace (unknowns, with their start values as guesses) */
    readonly w: Workspace;
    /** the inputs' values */
    readonly u: Float64Array;
    /** the parameters' values */
    readonly p: Float64Array;
  };
  private readonly sources: ReadonlyMap<string, SignalSource>;
  private readonly folded: boolean;
  private defaultState: ModelState | undefined;
  private defaultInverse: InverseDynamics | undefined;
  private origin: Origin | (() => Origin) | undefined;
  private order: readonly SolvedUnknown[] | undefined;
  /** what the code computes: 'forward' (qdd from tau) or 'inverse' (tau from qdd) */
  readonly problem: Problem;
  /** problem 'inverse': the generalized coordinates (the state joints' q, qd, qdd, tau), the order of inverse()'s arrays */
  readonly coordinates: readonly CoordinateNames[];
  /** problem 'inverse': the names of q's entries, the coordinates' q with a free or ball joint's quaternion Q[1..4] once for its three rotations (n_q >= n) */
  readonly positions: readonly string[];
  /** the generated functions and the layout of x, u, p and the workspace */
  readonly generated: Generated;
  /** the compile report (kron compile --json) */
  readonly report: CompileReport;
  /** target 'wasm': the straight-line functions as a WebAssembly module, instantiated per state (wasm.ts) */
  readonly wasm: WasmTarget | undefined;
  /** target 'wasm' asked for but not possible: why (compile() reports it) */
  readonly wasmUnavailable: string | undefined;
  /** the components' events (Component.when): their indicators and actions as functions, undefined when there are none */
  readonly events: EventFunctions | undefined;

  /**
   * From the data a compile derived (compiled-data.ts) and what it derived it
   * from; `origin` may be a function that rebuilds them (a model run from the
   * compile cache compiles again only for a diagnosis that needs the plan);
   * without one (a portable model in a worker) it runs but has no plan
   */
  constructor(
    /** what the compile derived, as data (portable() adds what a worker needs) */
    readonly data: CompiledData,
    origin?: Origin | (() => Origin),
  ) {
    const { generated, options } = data;
    this.generated = generated;
    this.report = data.report;
    this.origin = origin;
    this.order = data.solveOrder;
    this.stateNames = generated.layout.states;
    this.folded = options.folded;
    this.problem = options.problem ?? 'forward';
    this.coordinates = options.coordinates ?? [];
    this.positions = positionNames(this.coordinates);
    const w = doubles(data.defaults.w.length);
    data.defaults.w.forEach((v, i) => (w[i] = v));
    this.defaults = { x: Float64Array.from(data.defaults.x), w, u: Float64Array.from(data.defaults.u), p: Float64Array.from(data.defaults.p) };
    this.fn = new Function('fail', generated.body)(this.fail) as Derivatives;
    const wasm = options.target === 'wasm' ? wasmTarget(generated) : undefined;
    this.wasm = typeof wasm === 'string' ? undefined : wasm;
    this.wasmUnavailable = typeof wasm === 'string' ? wasm : undefined;
    this.sources = new Map(data.sources);
    this.events = data.events && eventFunctions(data.events);
    for (const [name, value] of Object.entries(options.start ?? {})) this.writeStart(name, value, this.defaults.x, this.defaults.w);
  }

  /** the generated code as a readable ES module */
  source(): string {
    return moduleSource(this.generated, this.data.header);
  }

  /** the solve plan the code was generated from */
  get plan(): SolvePlan {
    return this.from().plan;
  }

  /** the model after alias elimination */
  get reduced(): ReducedModel {
    return this.from().reduced;
  }

  private from(): Origin {
    if (!this.origin)
      throw new UsageError('this compiled model was rebuilt from its portable form: it runs, but carries no plan or flat model', {
        hint: 'use the CompiledModel that compile() returned',
      });
    if (typeof this.origin === 'function') this.origin = this.origin();
    return this.origin;
  }

  /** the model as plain data for a worker thread or another machine: new CompiledModel(portable) runs it */
  portable(): PortableModel {
    return { ...this.data, format: 'kron-portable-model/1', solveOrder: this.solveOrder() };
  }

  /** the unknowns in solve order, each with the equation that computes it (a loop's tearing variables first) */
  solveOrder(): readonly SolvedUnknown[] {
    if (this.order) return this.order;
    const out: SolvedUnknown[] = [];
    for (const step of this.plan.steps) {
      if (step.kind !== 'assign') for (const z of step.z) out.push({ name: z.name, equation: `tearing variable of block ${step.block}` });
      for (const a of step.kind === 'assign' ? step.assigns : step.y) out.push({ name: a.target.name, equation: `${a.target.name} = ${show(a.expr)}` });
    }
    return (this.order = out);
  }

  /**
   * The owning component's own check of a new parameter value (e.g. a body's
   * mass and inertia), as at compile time; `read` gives the values by name.
   * A model rebuilt from its portable form has no components: nothing is checked.
   */
  checkParameter(name: string, read: (name: string) => number): void {
    if (!this.origin) return;
    const owner = this.reduced.flat.variables.find((v) => v.name === name)?.owner;
    if (!(owner instanceof Component)) return;
    owner.checkParameters((local) => {
      const full = owner.path ? `${owner.path}.${local}` : local;
      if (!this.hasSignal(full)) throw new ModelError(`${owner.path} has no parameter ${local} to check`, { component: owner.path });
      return read(full);
    });
  }

  /** a new run state: its own workspace, inputs, parameters and start values */
  createState(values: StateValues = {}): ModelState {
    const state = new ModelState(this);
    for (const [name, value] of Object.entries(values.parameters ?? {})) state.setParameter(name, value);
    for (const [name, value] of Object.entries(values.start ?? {})) state.setStart(name, value);
    return state;
  }

  /** the default state behind derivatives(), signal(), setInput(), w, u, p... */
  get state(): ModelState {
    return (this.defaultState ??= new ModelState(this));
  }

  /** the default state's workspace (unknowns and temporaries) */
  get w(): Workspace {
    return this.state.w;
  }

  /** the default state's inputs, in the order of generated.layout.inputs */
  get u(): Float64Array {
    return this.state.u;
  }

  /** the default state's parameters (those kept symbolic) */
  get p(): Float64Array {
    return this.state.p;
  }

  /** the state vector at the start values */
  x0(): Float64Array {
    return this.state.x0();
  }

  /** dx = f(t, x) on the default state; afterwards every signal holds its value at (t, x) */
  derivatives(t: number, x: Float64Array, dx: Float64Array): void {
    this.state.derivatives(t, x, dx);
  }

  /**
   * Inverse dynamics (compiled with { problem: 'inverse' }): the generalized
   * forces tau that give the accelerations qdd at (q, qd), into tau
   * (returned); arrays in the order of `coordinates`. A kinematic loop is
   * closed by the code (its rest joints follow); only the state joints'
   * forces are computed, other inputs keep their values. Runs on the default
   * state; inverseDynamics() gives a run of its own.
   */
  inverse(t: number, q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, tau?: Float64Array): Float64Array {
    return (this.defaultInverse ??= new InverseDynamics(this, this.state)).evaluate(t, q, qd, qdd, tau);
  }

  /** M(q) of M(q) qdd + h(q, qd) = tau (n x n, row-major): generated code for a tree, n + 1 inverse-dynamics evaluations with a loop; problem 'inverse' */
  massMatrix(q: ArrayLike<number>, out?: Float64Array): Float64Array {
    return this.inverseRun.massMatrix(q, out);
  }

  /** qdd = FD(q, qd, tau) and its exact Jacobians by q, qd, tau, and by chosen symbolic parameters (generated on first use; loops included); problem 'inverse' */
  forwardDerivatives(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, options?: DerivativeOptions): ForwardDerivatives {
    return this.inverseRun.forwardDerivatives(q, qd, tau, 0, options);
  }

  /** tau = ID(q, qd, qdd) and its exact Jacobians by q, qd, qdd, and by chosen symbolic parameters (generated on first use; loops included); problem 'inverse' */
  inverseDerivatives(q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, options?: DerivativeOptions): InverseDerivatives {
    return this.inverseRun.inverseDerivatives(q, qd, qdd, 0, options);
  }

  private get inverseRun(): InverseDynamics {
    return (this.defaultInverse ??= new InverseDynamics(this, this.state));
  }

  /** h(q, qd) of M(q) qdd + h(q, qd) = tau: gravity, velocity terms, springs and dampers; problem 'inverse' */
  bias(q: ArrayLike<number>, qd: ArrayLike<number>, out?: Float64Array): Float64Array {
    return (this.defaultInverse ??= new InverseDynamics(this, this.state)).bias(q, qd, out);
  }

  /** an inverse-dynamics run with a state of its own (problem 'inverse') */
  inverseDynamics(values: StateValues = {}): InverseDynamics {
    return new InverseDynamics(this, this.createState(values));
  }

  /** the default state's evaluations in which a relaxed loop's pivot check failed and its torn form solved it */
  fallbackEvaluations(): number {
    return this.state.fallbackEvaluations();
  }

  /** sets an input of the default state (a ModelError names an unknown input, with "did you mean") */
  setInput(name: string, value: number): void {
    this.state.setInput(name, value);
  }

  /** every signal the model can report (states, unknowns, inputs, parameters), time excepted */
  signalNames(): string[] {
    return [...this.sources.keys()].filter((n) => n !== 'time');
  }

  /** whether the model has a signal of that name */
  hasSignal(name: string): boolean {
    return this.sources.has(name);
  }

  /** value of any variable (state, unknown, alias, input, parameter) after the default state's last derivatives() call */
  signal(name: string): number {
    return this.state.signal(name);
  }

  /** a reader for one signal of the default state, for sampling without name lookups */
  reader(name: string): SignalReader {
    return this.state.reader(name);
  }

  /** the first non-finite unknown at (t, x), on the default state */
  firstNonFinite(t: number, x: Float64Array): NonFiniteUnknown | undefined {
    return this.state.firstNonFinite(t, x);
  }

  /** where the signal `name` is read from */
  signalSource(name: string): SignalSource {
    const s = this.sources.get(name);
    if (!s)
      throw new SimulationError(`no signal named ${name}`, {
        variables: [name],
        hint: `${didYouMean(name, this.sources.keys())}see signalNames() or \`kron compile --json\` for the names`,
      });
    return s;
  }

  /**
   * The index in p that a run-time value of parameter `name` goes to;
   * undefined when the value is the one folded into the code; otherwise a
   * typed error: no such parameter, folded, or read by no equation.
   */
  parameterIndex(name: string, value: number): number | undefined {
    if (!this.data.parameters.includes(name)) {
      throw new ModelError(`no parameter named ${name}`, {
        variables: [name],
        hint: `${didYouMean(name, this.data.parameters)}parameters of this model: ${shortList(this.data.parameters)}`,
      });
    }
    const s = this.sources.get(name)!;
    if (s.from === 'p') return s.index;
    if (value === s.offset) return undefined;
    if (this.folded) {
      throw new UsageError(`parameter ${name} was folded into the generated code (as ${s.offset}) and cannot change without compiling again`, {
        variables: [name],
        hint: `compile with foldParameters: false (kron: --keep-parameters) to change parameters between runs, or compile again with parameters: { '${name}': ${value} }`,
      });
    }
    throw new UsageError(`parameter ${name} enters no equation of the compiled model, so a new value would change nothing`, {
      variables: [name],
      hint: 'set it when compiling (parameters: { ... }; kron: --set)',
    });
  }

  /** the start value of `name` written where it goes: into the start state x0, or an unknown's first guess into w */
  writeStart(name: string, value: number, x0: Float64Array, w: Workspace): void {
    if (!Number.isFinite(value)) throw new ModelError(`start value of ${name} set to ${value}`, { variables: [name], hint: 'use a finite number' });
    const s = this.startSource(name);
    (s.from === 'x' ? x0 : w)[s.index] = (value - s.offset) / s.sign;
  }

  /** where a start value of `name` goes: a state (x) or an unknown's first guess (w) */
  private startSource(name: string): SignalSource {
    const s = this.sources.get(name);
    if (s && (s.from === 'x' || (s.from === 'w' && s.index < this.data.unknowns))) return s;
    if (s?.from === 'value')
      throw new ModelError(`${name} is fixed at ${s.offset} by the equations and has no start value`, {
        variables: [name],
        hint: `states: ${shortList(this.stateNames)}`,
      });
    throw new ModelError(`no state named ${name} to give a start value`, {
      variables: [name],
      hint: `${didYouMean(name, this.stateNames)}states: ${shortList(this.stateNames)} (unknowns such as tearing variables take a first guess too)`,
    });
  }

  /** what the generated code calls on a failure: a typed error naming the block and variables (also the WebAssembly driver's) */
  readonly fail: Fail = (kind, block, t, residual, extra) => {
    const rcond = typeof extra === 'number' ? extra : undefined,
      detail = typeof extra === 'number' ? null : extra;
    // the state that ran the code names the first non-finite variable (ModelState.derivatives)
    if (kind === 'nonfinite') throw new NonFiniteError(`the state derivatives are not finite at time ${t}`);
    const { failures } = this.data;
    const iteration = kind === 'iterate' && failures.iterations.find((s) => s.block === block);
    if (iteration) throw iterationFailure(iteration, t, residual, detail ?? null);
    const b = block >= FALLBACK_BLOCKS ? failures.fallbacks[block - FALLBACK_BLOCKS] : failures.blocks[block];
    const loops = (this.report.kinematics?.loops ?? []).filter((l) => [l.cut, ...l.joints].some((j) => b.variables.some((v) => v.startsWith(`${j}.`))));
    const mechanism = loops.map((l) => `; kinematic loop cut at ${l.cut} with joints ${l.joints.join(', ')}`).join('');
    const where = `the algebraic loop of ${b.variables.length} unknowns (tearing variables ${b.tearVariables.join(', ')}${mechanism})`;
    // a loop that stops closing right after a position of poor condition ran into a dead point of its state joints
    const nearDeadPoint = kind === 'newton' && rcond !== undefined && rcond < NEAR_DEAD_POINT_RCOND;
    if (kind === 'deadpoint' || nearDeadPoint) {
      const loop = loops.length ? `the kinematic loop cut at ${loops.map((l) => `${l.cut} (joints ${l.joints.join(', ')})`).join(' and ')}` : where;
      const r = nearDeadPoint ? rcond : residual;
      const condition = r > 0 ? `condition estimate ${(1 / r).toExponential(1)}` : 'singular';
      const what = nearDeadPoint
        ? `does not close at time ${t} (Newton's residual ${residual.toExponential(3)}) after a position near a singular one: its constraint Jacobian there is ill-conditioned (${condition}), the motion ran into a dead point of the linkage with these state joints`
        : `is at a singular position at time ${t}: its constraint Jacobian is ${r > 0 ? 'ill-conditioned' : 'singular'} (${condition}), a dead point or change point of the linkage`;
      throw new SimulationError(`${loop} ${what}`, {
        variables: b.tearVariables,
        hint: 'here the joints the loop determines cannot follow the state joints (their speeds grow without bound); start away from the dead point, choose state joints that drive the linkage through it (mark joints { state: true }), or change the dimensions',
      });
    }
    if (kind === 'changepoint' || kind === 'turnback') {
      const loop = loops.length ? `the kinematic loop cut at ${loops.map((l) => `${l.cut} (joints ${l.joints.join(', ')})`).join(' and ')}` : where;
      const span =
        typeof extra === 'number' && extra !== t
          ? `between time ${shortTime(Math.min(extra, t))} and ${shortTime(Math.max(extra, t))}`
          : `at time ${shortTime(t)}`;
      const what =
        kind === 'changepoint'
          ? `left its assembly branch ${span}: the determinant of its constraint Jacobian changed sign, so the motion passed a singular position (a change point or dead point, where assembly branches meet) or the step was too large and Newton landed on the mirror assembly`
          : `may have left its assembly branch ${span}: the determinant of its constraint Jacobian, extrapolated from the last positions, crosses zero there while the solution's keeps its sign, so the motion came near a singular position (where, at a change point, the solution turns back onto the other branch) or moved too far in one step to be followed`;
      throw new SimulationError(`${loop} ${what}`, {
        variables: b.tearVariables,
        hint: 'reduce --step (or use --integrator adaptive); if the error stays at the same time, the loop is at a singular position: past a change point (a loop that folds flat, e.g. a four-bar with a + d = b + c) the motion may go on along either branch and the equations do not say which, so no step size passes it; a dead point of these state joints others may drive through (mark joints { state: true }); else start away from it, stop before it, or change the dimensions',
      });
    }
    const messages: Record<string, string> = {
      newton: `Newton iteration did not converge at time ${t} in ${where}; residual ${residual.toExponential(3)}`,
      jacobian: `the Jacobian of ${where} is singular at time ${t}; residual ${residual.toExponential(3)}`,
      singular: `the torn linear system H z = c of ${where} is singular at time ${t}`,
      branch: `Newton may have left the assembly branch at time ${t} in ${where}: its solution is ${residual.toExponential(2)} away from the change the last position predicts`,
    };
    throw new SimulationError(messages[kind] ?? `${kind} in block ${block} at time ${t}`, {
      variables: b.variables,
      hint:
        kind === 'singular'
          ? 'the model is singular here (e.g. a zero mass or inertia, a massless link between joints with parallel axes, a point mass on a ball joint, a zero gear ratio, or a parameter that vanishes); check the parameters'
          : kind === 'branch'
            ? 'the step is too large for the loop to follow its motion (or it passes near a singular position): reduce --step, or use --integrator adaptive'
            : loops.length
              ? 'the loop may not close with these dimensions, the position may be singular (a dead point), or the start values of its joints are too far from a closed position: check the lengths and give better start values'
              : 'the position may be singular or the start values far from a solution: give better start values to the tearing variables, or check the loop closes',
    });
  };
}

const shortList = (names: readonly string[], n = 20) =>
  names.length > n ? `${names.slice(0, n).join(', ')}, ... (${names.length} in all)` : names.join(', ') || '(none)';
