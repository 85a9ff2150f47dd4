// Simulation over the compiled derivatives, sampled every `interval`, by
// one of the steppers (sim/steppers): fixed-step RK4 (the default) or an
// error-controlled integrator with relative and absolute tolerances.
// A non-finite state stops the run with the time and the first non-finite
// variable in solve order. Every run has a state of its own (createState()),
// so runs of one compiled model do not disturb each other. simulate() keeps
// every sample (up to MAX_RESULT_BYTES); simulateBlocks() hands them on block
// by block as they are computed, in constant memory, for runs of any length.
import type { SubstitutionStats } from '../codegen/substitution.ts';
import { UsageError } from '../errors.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { ModelState } from '../codegen/state.ts';
import { SimulationResult } from './result.ts';
import { checkRk4Step, syncProbe } from './stability.ts';
import { DEFAULT_INTEGRATOR, INTEGRATORS, type IntegrationStats, type Integrator, STEPPERS } from './steppers/index.ts';
import { StepFailure, type StepperSettings } from './steppers/stepper.ts';
import { timeAt } from './steppers/rk4.ts';
import { autoStart } from './steppers/auto.ts';
import { type Controller, controllerHook } from './controller.ts';
import { type EventCount, type EventStepper, type MakeStepper, withEventSource, withEvents } from './events.ts';
import { contactEventSource } from './contact-events.ts';
import { type IterationStats, statsSince } from '../codegen/relax-iterate.ts';
import { ContactRun } from '../contact/run.ts';
import { Bristles } from '../contact/bristles.ts';
import { expandContactSignals, isContactSignal, pairSignalIndex } from '../contact/signals.ts';
import type { ContactScene } from '../contact/scene.ts';
import { checkStickStep } from './stick-step.ts';
import { nonFinite } from './non-finite.ts';
import { type ContactJacobianParts, type ContactJacobianStats, contactJacobianFor } from './contact-jacobian.ts';

export { INTEGRATORS, type IntegrationStats, type Integrator };

/** what simulate() runs: the time span, step, integrator, signals, start values, inputs, controller and contact */
export interface SimulateOptions<S extends string = string> {
  /** end time (s), >= 0 */
  stop: number;
  /** rk4 and auto: the integration step (s), > 0; adaptive and radau: the first step tried; default DEFAULT_STEP (1e-3 s, as the CLI's --step) */
  step?: number;
  /** sampling interval (s), a multiple of step; default: every step */
  interval?: number;
  /**
   * 'auto' (the default): 'rk4' while its step is stable for the model, 'radau' from the first point where it is
   * not (sim/steppers/auto.ts); 'rk4': fixed step, an unstable step stops the run; 'adaptive' (explicit, Cash-Karp)
   * or 'radau' (implicit, for stiff models): steps chosen by error control between samples
   */
  integrator?: Integrator;
  /** adaptive: relative tolerance per state (default 1e-6) */
  rtol?: number;
  /** adaptive: absolute tolerance per state (default 1e-9) */
  atol?: number;
  /** adaptive: accepted steps before the run is given up as too stiff (default 1e6) */
  maxSteps?: number;
  /** signals to record; default: the states */
  signals?: readonly S[];
  /** input values or functions of time, by input name */
  inputs?: Readonly<Record<string, number | ((t: number) => number)>>;
  /** parameter values by name, for parameters kept symbolic (compile with foldParameters: false) */
  parameters?: Readonly<Record<string, number>>;
  /** start values by name: states (e.g. 'j1.q'), or first guesses of unknowns */
  start?: Readonly<Record<string, number>>;
  /**
   * A controller from code, `(t, state, inputs) => void` (sim/controller.ts): called at
   * every evaluation of the derivatives — each RK4 stage (4 per step), each stage of an
   * adaptive step, accepted or rejected, and once per sample when a recorded signal is
   * not a state or a parameter — after the `inputs` functions and before the compiled
   * code; it reads the stage's time and states by name
   * (`state['j1.q']`) and assigns inputs by name (`inputs['j1.tau'] = ...`).
   */
  controller?: Controller;
  /** how errors name the controller (default: its function name, else "controller") */
  controllerName?: string;
  /**
   * Contact (src/contact): the scene of a mechanism with collision geometry
   * (ContactScene.of(mechanism)); at every evaluation, after the controller,
   * its forces are written into the bodies' contact inputs (contact/run.ts).
   * Without it a body's contact inputs keep their values (0: no contact).
   */
  contact?: ContactScene;
  /**
   * Contact with radau (or auto once it goes on with radau): its Jacobian ∂f/∂x by the chain rule through
   * the contact wrenches, the rigid part kept between calls ('contact', the default; sim/contact-jacobian.ts),
   * or by differences of the whole derivatives, n evaluations each ('differences', as before)
   */
  jacobian?: 'contact' | 'differences';
  /** contact: locate each pair's making and breaking (its least distance through 0) as events and restart there (sim/contact-events.ts); default false */
  contactEvents?: boolean;
  /** called with the fraction done, at most every 1% */
  onProgress?: (fraction: number) => void;
  /**
   * rk4: run even where the step is beyond RK4's stability region for a mode of the model
   * (checked at the start and every STABILITY_EVERY steps, sim/stability.ts); default false:
   * such a run stops with a SimulationError naming the mode and the step it needs
   */
  unsafeStep?: boolean;
  /** the Zeno guard (sim/events.ts): events of one indicator closer than this (s, default 1e-6) ... */
  minEventInterval?: number;
  /** ... this many times in a row (default 10) stop the run with a SimulationError */
  zenoCount?: number;
}

/** the step simulate() and `kron simulate` take when none is given (s) */
export const DEFAULT_STEP = 1e-3;
/** the relative tolerance of the adaptive and radau integrators when none is given */
export const DEFAULT_RTOL = 1e-6;
/** the absolute tolerance of the adaptive and radau integrators when none is given */
export const DEFAULT_ATOL = 1e-9;
export const DEFAULT_MAX_STEPS = 1e6;

/** throws a UsageError for options simulate() cannot run with */
export function checkSimulateOptions(options: SimulateOptions): void {
  const { stop, step = DEFAULT_STEP, interval } = options;
  const integrator = integratorOf(options);
  if (options.unsafeStep && integrator !== 'rk4')
    throw new UsageError(`unsafeStep applies to the rk4 integrator, not ${integrator}`, {
      hint: `the ${integrator} integrator ${integrator === 'auto' ? "goes on with radau where RK4's step is unstable" : 'controls its own steps'}: drop unsafeStep, or ask for integrator 'rk4'`,
    });
  if (!(Number.isFinite(stop) && stop >= 0)) throw new UsageError(`stop time ${stop} must be a finite number >= 0`, { hint: 'e.g. --stop 2' });
  if (!(Number.isFinite(step) && step > 0)) throw new UsageError(`step ${step} must be a finite number > 0`, { hint: 'e.g. --step 1e-3' });
  if (interval !== undefined && !(Number.isFinite(interval) && interval > 0)) throw new UsageError(`interval ${interval} must be > 0`);
  if (!INTEGRATORS.includes(integrator)) throw new UsageError(`integrator "${integrator}" is not known`, { hint: `use ${INTEGRATORS.join(' or ')}` });
  if (options.contactEvents && !options.contact)
    throw new UsageError('contactEvents asks for the contacts of a run without contact', {
      hint: 'give the run its contact scene (contact), or drop contactEvents',
    });
  const { minEventInterval: gap, zenoCount: count } = options;
  if (gap !== undefined && !(Number.isFinite(gap) && gap >= 0))
    throw new UsageError(`minEventInterval ${gap} must be a finite number >= 0`, { hint: 'e.g. 1e-6 (s)' });
  if (count !== undefined && !(Number.isInteger(count) && count >= 1)) throw new UsageError(`zenoCount ${count} must be an integer >= 1`, { hint: 'e.g. 10' });
  for (const k of ['rtol', 'atol'] as const) {
    const v = options[k];
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw new UsageError(`${k} ${v} must be a finite number > 0`, { hint: `e.g. --${k} 1e-8` });
  }
}

/**
 * Bytes of samples a SimulationResult may hold (1 GiB): simulate() refuses a
 * longer run before it starts. The CLI streams its CSV and never holds a run
 * (simulateBlocks); a run of --stop 2000 at the default step holds 16 MB per
 * signal.
 */
export const MAX_RESULT_BYTES = 2 ** 30;

/** one block of consecutive samples; its arrays are reused for the next block: read them before asking for it */
export interface SampleBlock<S extends string = string> {
  /** the signals, in the order of columns */
  readonly names: readonly S[];
  /** the block's times: time[0 .. length - 1] (the arrays are longer in the last block) */
  readonly time: Float64Array;
  /** columns[k][i]: signal names[k] at time[i] */
  readonly columns: readonly Float64Array[];
  /** the number of samples in this block */
  readonly length: number;
}

/** what a run reports besides its samples: its integration, and (compiled with relaxIterate or tornSubstitution) its iterations */
export interface RunStats {
  /** the integrator's steps, evaluations and rejections */
  integration?: IntegrationStats;
  /** compiled with relaxIterate: each iterated block's sweeps */
  iterations?: IterationStats[];
  /** compiled with tornSubstitution: each substituted block's iterations */
  substitutions?: SubstitutionStats[];
  /** a model with events (Component.when): how often each happened */
  events?: EventCount[];
}

/**
 * (compiled model or a state of it, options) => sampled signals from t = 0 to stop;
 * a compiled model runs on a fresh state, a given state is used (and changed) as it is
 */
export function simulate<S extends string = string>(compiled: CompiledModel | ModelState, given: SimulateOptions<S>): SimulationResult<S> {
  const options = withDefaults(given);
  checkSimulateOptions(options);
  const run = prepare(compiled, options);
  const { names, samples } = run;
  const bytes = samples * (names.length + 1) * 8;
  if (bytes > MAX_RESULT_BYTES) {
    throw new UsageError(
      `a run of ${samples} samples of ${names.length} signals and the time would hold ${(bytes / 2 ** 30).toPrecision(3)} GiB in memory, more than the 1 GiB a result may`,
      {
        hint: 'sample less often (--interval, options.interval) or record fewer signals; or stream the samples: kron simulate --out run.csv, simulateBlocks() from code',
      },
    );
  }
  const time = new Float64Array(samples);
  const columns = names.map(() => new Float64Array(samples));
  const { readers } = run;
  let k = 0;
  for (const _ of integrate(
    run,
    options,
    (t, x) => {
      time[k] = t;
      for (let i = 0; i < readers.length; i++) columns[i][k] = readers[i](x);
      k++;
    },
    Infinity,
  ));
  return Object.assign(new SimulationResult(time, names, columns), stats(run));
}

/**
 * (compiled model or a state of it, options, samples per block) => the run's samples block by block, as they are computed,
 * in constant memory; returns the run's iteration statistics
 */
export function* simulateBlocks<S extends string = string>(
  compiled: CompiledModel | ModelState,
  given: SimulateOptions<S>,
  size = 1024,
): Generator<SampleBlock<S>, RunStats, void> {
  const options = withDefaults(given);
  checkSimulateOptions(options);
  const run = prepare(compiled, options);
  const block = { names: run.names, time: new Float64Array(size), columns: run.names.map(() => new Float64Array(size)), length: 0 };
  const { readers } = run;
  const record = (t: number, x: Float64Array) => {
    block.time[block.length] = t;
    for (let i = 0; i < readers.length; i++) block.columns[i][block.length] = readers[i](x);
    block.length++;
  };
  for (const _ of integrate(run, options, record, size)) {
    yield block;
    block.length = 0;
  }
  if (block.length) yield block;
  return stats(run);
}

/** the options with the step filled in: what every function below simulate() reads */
type Settled<S extends string> = SimulateOptions<S> & { step: number };
const withDefaults = <S extends string>(options: SimulateOptions<S>): Settled<S> => ({ ...options, step: options.step ?? DEFAULT_STEP });

/** samples a run of these options records: the start, every interval, and the stop time */
export function sampleCount(options: Pick<SimulateOptions, 'stop' | 'step' | 'interval'>): number {
  const { steps, every } = grid({ ...options, step: options.step ?? DEFAULT_STEP });
  return Math.floor(steps / every) + 1 + (steps % every ? 1 : 0);
}

/** steps of the RK4 grid and steps per sample */
function grid({ stop, step, interval }: Pick<Settled<string>, 'stop' | 'step' | 'interval'>) {
  return { steps: Math.max(0, Math.ceil(stop / step - 1e-9)), every: Math.max(1, Math.round((interval ?? step) / step)) };
}

type Derivatives = (dx: Float64Array, x: Float64Array, t: number) => void;

/** a run set up: its state with the options' values, what it records, the derivatives with inputs and controller */
interface Run<S extends string> {
  readonly state: ModelState;
  readonly names: readonly S[];
  readonly readers: readonly ((x: Float64Array) => number)[];
  readonly deriv: Derivatives;
  /** the derivatives of a probe state set like the run's (inputs, parameters, workspace): the stability check's */
  readonly prober: () => Derivatives;
  /** contact: the probe state's contact, once the probe is made */
  readonly probeContact: () => ContactRun | undefined;
  readonly samples: number;
  readonly before: { iterations: readonly IterationStats[]; substitutions: readonly SubstitutionStats[] };
  /** the stepper's statistics, kept current while the run goes */
  integration?: IntegrationStats;
  /** a model with events: the stepper that stops at them */
  events?: EventStepper;
  /** contact with radau: the chain rule's Jacobians, whole and kept */
  jacobian?: ContactJacobianStats;
  /** contact: the run's contact (the last evaluation's contacts and regime) */
  contact?: ContactRun;
  /** contact: the probe state's parts for radau's Jacobian by the chain rule (sim/contact-jacobian.ts) */
  readonly jacobianParts: () => ContactJacobianParts | undefined;
  /** a recorded signal is the run's, not the model's (per-pair contact signals): every sample evaluates at (t, x) */
  readonly evaluates: boolean;
}

function prepare<S extends string>(compiled: CompiledModel | ModelState, options: SimulateOptions<S>): Run<S> {
  const state = compiled instanceof ModelState ? compiled : compiled.createState();
  for (const [name, value] of Object.entries(options.parameters ?? {})) state.setParameter(name, value);
  for (const [name, value] of Object.entries(options.start ?? {})) state.setStart(name, value);
  const asked = options.signals ?? (state.model.stateNames as readonly string[] as readonly S[]);
  // per-pair contact signals (contact/signals.ts): contact.* spelt out; read from the run's contact, made below
  const perPair = (n: string) => options.contact !== undefined && isContactSignal(n) && !state.model.hasSignal(n);
  const names = (options.contact && asked.some(perPair) ? expandContactSignals(asked, options.contact) : asked) as readonly S[];
  if (!options.contact) {
    const n = asked.find((a) => isContactSignal(a) && !state.model.hasSignal(a));
    if (n)
      throw new UsageError(`signal ${n} is a contact signal, and this run has no contact`, {
        variables: [n],
        hint: 'give the run its contact scene (simulate(compiled, { contact: ContactScene.of(mechanism) }); kron simulate --contact)',
      });
  }
  const readers: ((x: Float64Array) => number)[] = names.map((n) => (perPair(n) ? () => 0 : state.reader(n)));
  const inputFns = Object.entries(options.inputs ?? {})
    .map(([name, f]) => {
      if (typeof f === 'number') state.setInput(name, f);
      return typeof f === 'function' ? ([name, f] as const) : undefined;
    })
    .filter((x) => x !== undefined);
  // elasto-plastic friction: one set of bristles for the run's ContactRuns (contact/bristles.ts), kept after every accepted step
  const bristles = options.contact?.friction === 'elasto-plastic' ? new Bristles(options.contact.pairs.length) : undefined;
  // the derivatives of a state with the run's input functions and controller
  const derivativesOf = (s: ModelState, made?: (c: ContactRun, held: Derivatives) => void): Derivatives => {
    const control = options.controller && controllerHook(s, options.controller, options.controllerName ?? (options.controller.name || 'controller'));
    const touch = options.contact && new ContactRun(options.contact, s, 'kinematics', bristles);
    if (touch)
      made?.(touch, (dx, x, t) => {
        for (const [name, f] of inputFns) s.setInput(name, f(t));
        if (control) control(t, x);
        s.derivatives(t, x, dx);
      });
    // nothing to set before the compiled code: the call alone (it runs 4 times a step)
    if (!control && !touch && inputFns.length === 0) return (dx, x, t) => s.derivatives(t, x, dx);
    return (dx, x, t) => {
      for (const [name, f] of inputFns) s.setInput(name, f(t));
      if (control) control(t, x);
      if (touch) touch.apply(t, x);
      s.derivatives(t, x, dx);
    };
  };
  let contact: ContactRun | undefined;
  const deriv = derivativesOf(state, (c) => (contact = c));
  const pairSignals = names.filter(perPair);
  if (contact && pairSignals.length) {
    const records = contact.recordPairs();
    names.forEach((n, i) => {
      if (!perPair(n)) return;
      const at = pairSignalIndex(options.contact!, n);
      readers[i] = () => records[at];
    });
  }
  // a second state for the stability check's probes, so that they touch neither the run's workspace
  // (Newton's warm start, the closures' sign records) nor its statistics; made at the first check
  let probe: { state: ModelState; deriv: Derivatives } | undefined;
  let probeContact: ContactRun | undefined;
  let held: Derivatives | undefined;
  const prober = (): Derivatives => {
    if (!probe) {
      const s = state.model.createState();
      probe = { state: s, deriv: derivativesOf(s, (c, h) => ((probeContact = c), (held = h))) };
    }
    syncProbe(probe.state, state);
    return probe.deriv;
  };
  const before = { iterations: state.iterationStats(), substitutions: state.substitutionStats() };
  return {
    state,
    names,
    readers,
    deriv,
    prober,
    probeContact: () => probeContact,
    jacobianParts: () => {
      prober();
      return held && { state: probe!.state, held, touch: new ContactRun(options.contact!, probe!.state, 'kinematics', bristles), before: prober };
    },
    samples: sampleCount(options),
    before,
    contact,
    evaluates: pairSignals.length > 0,
  };
}

/**
 * Integrates from 0 to stop and calls record(t, x) at every sample, the
 * model evaluated at (t, x) first when a recorded signal needs it; yields
 * after every `per` samples (simulateBlocks hands a block on then).
 */
function* integrate<S extends string>(run: Run<S>, options: Settled<S>, record: (t: number, x: Float64Array) => void, per: number): Generator<void> {
  const { state, deriv } = run;
  const { stop, step } = options;
  const { steps, every } = grid(options);
  const scratch = new Float64Array(state.model.stateNames.length);
  const fromState = !run.evaluates && recordsStateOnly(state, run.names);
  let since = 0;
  // the algebraic signals at (t, x) need one more evaluation (RK4's last stage ran at
  // another state); states, parameters and constants are read as they are
  const sample = (t: number, x: Float64Array) => {
    if (!fromState) deriv(scratch, x, t);
    record(t, x);
    return ++since === per;
  };
  const progress = reporter(options.onProgress);
  const x = state.x0();
  if (sample(0, x)) ((since = 0), yield);
  const integrator = integratorOf(options);
  const settings: StepperSettings = {
    step,
    stop,
    rtol: options.rtol ?? DEFAULT_RTOL,
    atol: options.atol ?? DEFAULT_ATOL,
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    project: (y) => state.normalize(y),
  };
  // implicit methods evaluate their trial states on the probe state, synced from the run's last accepted evaluation each time
  if (integrator === 'radau' || integrator === 'auto') settings.trial = (dx, y, t) => run.prober()(dx, y, t);
  // a fixed step beyond RK4's stability region for a mode of the model stops the run (sim/stability.ts), or (auto) goes on with radau
  if (integrator === 'auto') settings.switched = autoStart(options.contact?.friction);
  // contact: radau's J by the chain rule through the contact wrenches (sim/contact-jacobian.ts), unless differences are asked for
  const chain = contactJacobianFor(run.contact && run.jacobianParts, integrator, options.jacobian, state.model.stateNames.length);
  if (chain) ((run.jacobian = chain.stats), Object.assign(settings, chain.settings));
  // contact: its stiffness changes where contacts make, break or stick, so RK4's stability is checked there again
  const { contact } = run;
  if (contact) {
    let regime = contact.regime;
    settings.recheck = () => regime !== contact.regime && ((regime = contact.regime), true);
  }
  if ((integrator === 'rk4' && !options.unsafeStep) || integrator === 'auto') {
    settings.guard = (t, y, h) => {
      const probe = run.prober();
      checkRk4Step(state.model.stateNames, (dx, z) => probe(dx, z, t), y, t, h);
      // contacts that stick: their friction's stiffness, which the Jacobian at y may not show (sim/stick-step.ts)
      if (run.contact) {
        probe(new Float64Array(y.length), y, t);
        checkStickStep(run.contact, run.probeContact()!, t, y, h);
      }
    };
  }
  // a model with events: a stepper that stops at them (sim/events.ts)
  const stepper = state.model.data.events
    ? (run.events = withEvents(state, deriv, restarts(integrator, deriv, settings), x, options))
    : options.contact && options.contactEvents
      ? (run.events = withEventSource(contactEventSource(options.contact, state.model.createState()), deriv, restarts(integrator, deriv, settings), x, options))
      : STEPPERS[integrator](x, deriv, 0, settings);
  run.integration = { integrator: integrator === 'auto' ? 'rk4' : integrator, ...stepper.stats };
  const { switched } = settings;
  for (let s = every; s < steps + every; s += every) {
    const t = s >= steps ? stop : timeAt(s, step); // the RK4 sampling grid
    try {
      while (stepper.t < t) {
        stepper.step(t);
        // elasto-plastic friction: the bristles the next step starts from (contact/bristles.ts)
        contact?.accept(stepper.t, stepper.x);
      }
    } catch (e) {
      if (e instanceof StepFailure) throw nonFinite(state, e.t, e.x, e.h, deriv);
      throw e;
    } finally {
      Object.assign(run.integration, stepper.stats);
      // auto: the integrator that integrates, and where it switched
      if (switched) Object.assign(run.integration, switched.time === undefined ? { integrator: 'rk4' } : { integrator: 'radau', switched });
    }
    if (sample(t, stepper.x)) ((since = 0), yield);
    progress(t / stop);
  }
}

/** the integrator a run uses: the one named, else auto (rk4 with --unsafe-step, which asks for RK4 whatever its step does) */
export function integratorOf(options: Pick<SimulateOptions, 'integrator' | 'unsafeStep'>): Integrator {
  return options.integrator ?? (options.unsafeStep ? 'rk4' : DEFAULT_INTEGRATOR);
}

/** the steppers an event restarts integration with (sim/events.ts); within a step already taken, without the stability check */
function restarts(integrator: Integrator, deriv: Derivatives, settings: StepperSettings): MakeStepper {
  return (x0, t0, within = false) => STEPPERS[integrator](x0, deriv, t0, within ? { ...settings, guard: undefined } : settings);
}

/**
 * Every recorded signal is a state (or its alias), a parameter or a
 * constant: a sample reads it without evaluating the model at (t, x).
 * Time, inputs (set by input functions and controllers at each evaluation)
 * and workspace unknowns need the evaluation.
 */
function recordsStateOnly(state: ModelState, names: readonly string[]): boolean {
  return names.every((n) => {
    const from = state.model.signalSource(n).from;
    return from === 'x' || from === 'p' || from === 'value';
  });
}

/** the run's sweeps per evaluation of each relaxing iteration and successive substitution (none: the fields stay absent) */
function stats(run: Run<string>): RunStats {
  const { state, before } = run;
  const out: RunStats = run.integration ? { integration: { ...run.integration } } : {};
  if (out.integration && run.jacobian && out.integration.integrator === 'radau') out.integration.jacobian = { ...run.jacobian };
  if (run.events) out.events = run.events.counts();
  if (before.iterations.length) out.iterations = statsSince(before.iterations, state.iterationStats());
  if (before.substitutions.length) {
    out.substitutions = statsSince(before.substitutions, state.substitutionStats()).map((s, i) => ({
      ...s,
      fallbacks: s.fallbacks - before.substitutions[i].fallbacks,
    }));
  }
  return out;
}

/** calls back with the fraction done when it has grown by 1% or more */
function reporter(onProgress: ((fraction: number) => void) | undefined): (fraction: number) => void {
  let reported = 0;
  return (f) => {
    if (onProgress && f - reported >= 0.01) onProgress((reported = f));
  };
}
