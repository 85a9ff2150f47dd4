// The run state of one simulation of a compiled model (MuJoCo's mjData next
// to mjModel): inputs u, symbolic parameters p, the workspace w (unknowns,
// temporaries and the Newton warm starts), the start state x0, and where the
// last derivatives() call was. Any number of states of one compiled model
// run side by side, interleaved: the generated code keeps nothing between
// calls outside the arrays it is given.
import { type SubstitutionStats, substitutionStats } from './substitution.ts';
import { ModelError, SimulationError } from '../errors.ts';
import { didYouMean } from '../suggest.ts';
import type { CompiledModel, SignalSource } from './compiled.ts';
import { type Workspace, doubles } from './runtime.ts';
import { type IterationStats, iterationStats } from './relax-iterate.ts';
import { instantiate } from './wasm.ts';
import { PoseWatch } from './pose-watch.ts';

export type SignalReader = (x: Float64Array) => number;

/** derivatives() computed NaN or an infinity (simulate() names the step it happened in) */
export class NonFiniteError extends SimulationError {}

/** the first unknown in solve order that is not finite (ModelState.firstNonFinite) */
export interface NonFiniteUnknown {
  /** the unknown's name */
  name: string;
  /** the expression that computed it, printed */
  equation: string;
}

/** one state of a compiled model: its own workspace, inputs and parameters, so several runs can share the code */
export class ModelState {
  /** workspace: unknowns and temporaries, kept between calls (Newton warm start) */
  /** a plain array of doubles, not a Float64Array (runtime/dense.ts, doubles()) */
  readonly w: Workspace;
  /** inputs, in the order of generated.layout.inputs */
  readonly u: Float64Array;
  /** parameters kept symbolic, in the order of generated.layout.parameters */
  readonly p: Float64Array;
  private readonly start: Float64Array;
  private readonly fn: CompiledModel['fn'];
  private readonly readers = new Map<string, SignalReader>();
  private lastX: Float64Array;
  private lastT = 0;
  /** outputs() has not run since the last derivatives() */
  private stale = true;
  /** firstNonFinite() is evaluating: a non-finite result there is expected, not reported again */
  private diagnosing = false;
  /** the model's singular poses, watched at every evaluation (pose-watch.ts) */
  private readonly poses: PoseWatch | undefined;
  /** the state indices of each group of unit norm (a quaternion), for normalize() */
  private readonly unitGroups: readonly Int32Array[];

  constructor(
    /** the compiled model this state runs */
    readonly model: CompiledModel,
  ) {
    const d = model.defaults;
    // the WebAssembly target: this state's own instance, whose memory is the workspace
    const wasm = model.wasm && instantiate(model.wasm, model.fail, d.w.length);
    this.w = wasm ? wasm.w : doubles(d.w.length);
    for (let i = 0; i < d.w.length; i++) this.w[i] = d.w[i];
    this.u = Float64Array.from(d.u);
    this.p = Float64Array.from(d.p);
    this.start = Float64Array.from(d.x);
    this.lastX = Float64Array.from(d.x);
    this.fn = wasm ? Object.assign(wasm.derivatives, { outputs: wasm.outputs, functions: wasm.functions }) : model.fn;
    this.unitGroups = (model.data.unitNorms ?? []).map((g) => Int32Array.from(g, (name) => model.stateNames.indexOf(name)));
    const poses = model.data.singularPoses ?? [];
    this.poses = poses.length
      ? new PoseWatch(
          poses,
          poses.map((p) => ({ angle: this.reader(p.state), rates: p.rates.map((r) => this.reader(r)) })),
        )
      : undefined;
  }

  /** the state vector to start from: the compiled start values with this state's setStart() */
  x0(): Float64Array {
    return Float64Array.from(this.start);
  }

  /**
   * x's groups of unit norm (a joint's quaternion Q) brought back to norm 1,
   * in place: integrators call it after every step (RK4 drifts |Q| by ~1e-16
   * a step and more on fast spins; R(Q) does not depend on it, the Q signals
   * do). Nothing when the model has none.
   */
  normalize(x: Float64Array): void {
    for (const g of this.unitGroups) {
      let s = 0;
      for (let k = 0; k < g.length; k++) s += x[g[k]] * x[g[k]];
      if (!(s > 0 && s < Infinity)) continue; // a non-finite state is reported by the integrator
      const f = 1 / Math.sqrt(s);
      for (let k = 0; k < g.length; k++) x[g[k]] *= f;
    }
  }

  /** dx = f(t, x); afterwards every signal holds its value at (t, x) */
  derivatives(t: number, x: Float64Array, dx: Float64Array): void {
    this.lastX = x;
    this.lastT = t;
    this.stale = true;
    this.poses?.check(t, x);
    try {
      this.fn(t, x, dx, this.u, this.p, this.w);
    } catch (e) {
      if (e instanceof SimulationError) throw this.poses?.near(t, x, e) ?? (e instanceof NonFiniteError && !this.diagnosing ? this.nonFinite(t, x) : e);
      throw e;
    }
  }

  /** the generated code's non-finite derivatives, with the first non-finite variable in solve order */
  private nonFinite(t: number, x: Float64Array): NonFiniteError {
    const first = this.firstNonFinite(t, Float64Array.from(x));
    const what = first ? `${first.name} (${first.equation})` : 'a state';
    return new NonFiniteError(`the state derivatives are not finite at time ${t}: first non-finite variable ${what}`, {
      variables: first ? [first.name] : [],
      hint: 'a division by zero or a value growing without bound: check parameters and start values',
    });
  }

  /** evaluations so far in which a relaxed loop's pivot check failed and its torn form solved it */
  fallbackEvaluations(): number {
    return this.model.generated.layout.fallbackCounters.reduce((n, k) => n + this.w[k], 0);
  }

  /** per relaxing iteration (compiled with relaxIterate): evaluations and sweeps so far on this state */
  iterationStats(): IterationStats[] {
    return (this.model.generated.layout.iterations ?? []).map((it) => iterationStats(it, this.w));
  }

  /** per torn loop solved by successive substitution (compiled with tornSubstitution): evaluations, sweeps, fallbacks to Newton so far */
  substitutionStats(): SubstitutionStats[] {
    return (this.model.generated.layout.substitutions ?? []).map((s) => substitutionStats(s, this.w));
  }

  /** compute the signals the derivatives do not need, once per derivatives() call */
  private refresh(): void {
    if (!this.stale) return;
    this.stale = false;
    this.fn.outputs(this.lastT, this.lastX, this.u, this.p, this.w);
  }

  /** sets an input (a ModelError names an unknown input, with "did you mean") */
  setInput(name: string, value: number): void {
    const i = this.model.generated.layout.inputs.indexOf(name);
    if (i < 0) {
      const inputs = `inputs: ${this.model.generated.layout.inputs.join(', ') || '(none)'}`;
      // a joint's tau that a controller in the model defines is an unknown now, not an input
      const defined = this.model.hasSignal(name)
        ? `${name} is computed by the model's equations (an equation defines it, e.g. a controller in the model); `
        : '';
      throw new SimulationError(`no input named ${name}`, {
        variables: [name],
        hint: `${defined || didYouMean(name, this.model.generated.layout.inputs)}${inputs}`,
      });
    }
    this.u[i] = value;
  }

  /**
   * A parameter kept symbolic (compiled with foldParameters: false) takes a
   * new value for the next derivatives() call; a folded one cannot change.
   */
  setParameter(name: string, value: number): void {
    if (!Number.isFinite(value)) throw new ModelError(`parameter ${name} set to ${value}`, { variables: [name], hint: 'use a finite number' });
    const i = this.model.parameterIndex(name, value);
    if (i === undefined) return;
    const before = this.p[i];
    this.p[i] = value;
    try {
      this.checkParameters(name);
    } catch (e) {
      this.p[i] = before;
      throw e;
    }
  }

  /** the owning component's own check of its parameter values (e.g. a body's mass and inertia), as at compile time */
  private checkParameters(name: string): void {
    this.model.checkParameter(name, (full) => this.signal(full));
  }

  /**
   * The start value of a state (or of a variable that is an alias of one), or
   * the first guess of an unknown (a tearing variable's Newton start).
   */
  setStart(name: string, value: number): void {
    this.model.writeStart(name, value, this.start, this.w);
  }

  /** every signal the model can report */
  signalNames(): string[] {
    return this.model.signalNames();
  }

  /** whether the model has a signal of that name */
  hasSignal(name: string): boolean {
    return this.model.hasSignal(name);
  }

  /** value of any variable (state, unknown, alias, input, parameter) after the last derivatives() call */
  signal(name: string): number {
    return this.reader(name)(this.lastX);
  }

  /** a reader for one signal, for sampling without name lookups */
  reader(name: string): SignalReader {
    let r = this.readers.get(name);
    if (!r) this.readers.set(name, (r = this.makeReader(this.model.signalSource(name))));
    return r;
  }

  private makeReader(s: SignalSource): SignalReader {
    const { index: i, sign: k, offset: c } = s;
    const { w, u, p } = this;
    switch (s.from) {
      case 'time':
        return () => k * this.lastT + c;
      case 'x':
        return k === 1 && c === 0 ? (x) => x[i] : (x) => k * x[i] + c;
      case 'u':
        return () => k * u[i] + c;
      case 'p':
        return () => k * p[i] + c;
      case 'w':
        return () => (this.refresh(), k * w[i] + c);
      case 'value':
        return () => c;
    }
  }

  /**
   * The event indicators at (t, x) into g, in the order of model.data.events.
   * When one reads an unknown (data.events.readsModel), the caller has
   * evaluated the derivatives at (t, x) first, with its inputs and
   * controller (sim/events.ts); the outputs pass follows here if needed.
   */
  indicators(t: number, x: Float64Array, g: Float64Array): void {
    if (this.model.data.events!.readsModel) this.refresh();
    this.model.events!.indicators(t, x, this.u, this.p, this.w, g);
  }

  /** event k's actions at (t, x), evaluated there as for indicators(): its states reinitialised in x, its modes set in u */
  applyEvent(k: number, t: number, x: Float64Array): void {
    if (this.model.data.events!.readsModel) this.refresh();
    this.model.events!.apply(k, t, x, this.u, this.p, this.w);
  }

  /**
   * After non-finite values appeared at (t, x): the first unknown in solve
   * order that is not finite, with the expression that computed it.
   */
  firstNonFinite(t: number, x: Float64Array): NonFiniteUnknown | undefined {
    this.diagnosing = true;
    try {
      this.derivatives(t, x, new Float64Array(x.length));
    } catch {
      /* the values computed so far are still in w */
    }
    try {
      this.refresh();
    } catch {
      /* likewise */
    } finally {
      this.diagnosing = false;
    }
    const { layout } = this.model.generated;
    const bad = (name: string) => {
      const k = layout.workspace.indexOf(name);
      return k >= 0 && !Number.isFinite(this.w[k]);
    };
    const first = this.model.solveOrder().find((u) => bad(u.name));
    if (first) return { name: first.name, equation: first.equation };
    const i = x.findIndex((v) => !Number.isFinite(v));
    return i >= 0 ? { name: this.model.stateNames[i], equation: 'state' } : undefined;
  }
}
