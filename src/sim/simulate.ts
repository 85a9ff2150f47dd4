// Simulation over the compiled derivatives, sampled every `interval`:
// fixed-step RK4 (the ode-rk4 package, the default) or adaptive Cash-Karp
// RK45 (the ode45-cash-karp package) with relative and absolute tolerances.
// A non-finite state stops the run with the time and the first non-finite
// variable in solve order. Every run has a state of its own (createState()),
// so runs of one compiled model do not disturb each other.
import rk4 from 'ode-rk4';
import type { SubstitutionStats } from '../codegen/substitution.ts';
import { SimulationError, UsageError } from '../errors.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { ModelState, NonFiniteError } from '../codegen/state.ts';
import { SimulationResult } from './result.ts';
import { AdaptiveStepper, StepFailure } from './adaptive.ts';
import { type Controller, controllerHook } from './controller.ts';
import { type IterationStats, statsSince } from '../codegen/relax-iterate.ts';

export type Integrator = 'rk4' | 'adaptive';
export const INTEGRATORS: readonly Integrator[] = ['rk4', 'adaptive'];

export interface SimulateOptions<S extends string = string> {
  /** end time (s), >= 0 */
  stop: number;
  /** rk4: the integration step (s), > 0; adaptive: the first step tried */
  step: number;
  /** sampling interval (s), a multiple of step; default: every step */
  interval?: number;
  /** 'rk4' (fixed step, default) or 'adaptive' (steps chosen by error control between samples) */
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
  /** called with the fraction done, at most every 1% */
  onProgress?: (fraction: number) => void;
}

export const DEFAULT_RTOL = 1e-6;
export const DEFAULT_ATOL = 1e-9;
export const DEFAULT_MAX_STEPS = 1e6;

/** time after k steps of size h, without the rounding noise of k * h (0.009000000000000001) */
const timeAt = (k: number, h: number) => Number((k * h).toPrecision(14));

/** throws a UsageError for options simulate() cannot run with */
export function checkSimulateOptions(options: SimulateOptions): void {
  const { stop, step, interval, integrator = 'rk4' } = options;
  if (!(Number.isFinite(stop) && stop >= 0)) throw new UsageError(`stop time ${stop} must be a finite number >= 0`, { hint: 'e.g. --stop 2' });
  if (!(Number.isFinite(step) && step > 0)) throw new UsageError(`step ${step} must be a finite number > 0`, { hint: 'e.g. --step 1e-3' });
  if (interval !== undefined && !(Number.isFinite(interval) && interval > 0)) throw new UsageError(`interval ${interval} must be > 0`);
  if (!INTEGRATORS.includes(integrator)) throw new UsageError(`integrator "${integrator}" is not known`, { hint: `use ${INTEGRATORS.join(' or ')}` });
  for (const k of ['rtol', 'atol'] as const) {
    const v = options[k];
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw new UsageError(`${k} ${v} must be a finite number > 0`, { hint: `e.g. --${k} 1e-8` });
  }
}

// (compiled model or a state of it, options) => sampled signals from t = 0 to stop;
// a compiled model runs on a fresh state, a given state is used (and changed) as it is
export function simulate<S extends string = string>(compiled: CompiledModel | ModelState, options: SimulateOptions<S>): SimulationResult<S> {
  checkSimulateOptions(options);
  const state = compiled instanceof ModelState ? compiled : compiled.createState();
  for (const [name, value] of Object.entries(options.parameters ?? {})) state.setParameter(name, value);
  for (const [name, value] of Object.entries(options.start ?? {})) state.setStart(name, value);
  const { stop, step } = options;
  const names = options.signals ?? (state.model.stateNames as readonly string[] as readonly S[]);
  const readers = names.map((n) => state.reader(n));
  const inputFns = Object.entries(options.inputs ?? {}).map(([name, f]) => {
    if (typeof f === 'number') state.setInput(name, f);
    return typeof f === 'function' ? ([name, f] as const) : undefined;
  }).filter((x) => x !== undefined);
  const control = options.controller && controllerHook(state, options.controller, options.controllerName ?? (options.controller.name || 'controller'));
  const deriv = (dx: Float64Array, x: Float64Array, t: number) => {
    for (const [name, f] of inputFns) state.setInput(name, f(t));
    if (control) control(t, x);
    state.derivatives(t, x, dx);
  };
  const steps = Math.max(0, Math.ceil(stop / step - 1e-9));
  const every = Math.max(1, Math.round((options.interval ?? step) / step));
  const samples = Math.floor(steps / every) + 1 + (steps % every ? 1 : 0);
  const time = new Float64Array(samples);
  const columns = names.map(() => new Float64Array(samples));
  const scratch = new Float64Array(state.model.stateNames.length);
  const fromState = recordsStateOnly(state, names);
  let k = 0;
  const sample = (t: number, x: Float64Array) => {
    // the algebraic signals at (t, x) need one more evaluation (RK4's last stage ran at
    // another state); states, parameters and constants are read as they are
    if (!fromState) deriv(scratch, x, t);
    time[k] = t;
    readers.forEach((r, i) => (columns[i][k] = r(x)));
    k++;
  };
  const progress = reporter(options.onProgress);
  const before = { iterations: state.iterationStats(), substitutions: state.substitutionStats() };
  const x = state.x0();
  sample(0, x);
  if (options.integrator === 'adaptive') {
    const tolerances = { rtol: options.rtol ?? DEFAULT_RTOL, atol: options.atol ?? DEFAULT_ATOL };
    const stepper = new AdaptiveStepper(x, deriv, step, stop, tolerances, options.maxSteps ?? DEFAULT_MAX_STEPS);
    for (let s = every; s < steps + every; s += every) {
      const t = s >= steps ? stop : timeAt(s, step); // the RK4 sampling grid
      try {
        sample(t, stepper.advance(t));
      } catch (e) {
        if (e instanceof StepFailure) throw nonFinite(state, e.t, e.x, e.h, deriv);
        throw e;
      }
      progress(t / stop);
    }
    return withIterations(new SimulationResult(time, names, columns), state, before);
  }
  const integrator = rk4(x, deriv, 0, step);
  const previous = new Float64Array(x.length);
  for (let s = 1; s <= steps; s++) {
    previous.set(integrator.y);
    const t0 = timeAt(s - 1, step); // from the step count, so that times do not drift
    integrator.t = t0;
    integrator.dt = Math.min(step, stop - t0);
    try {
      integrator.step();
    } catch (e) {
      if (e instanceof NonFiniteError) throw nonFinite(state, t0, previous, integrator.dt, deriv);
      throw e;
    }
    if (!integrator.y.every(Number.isFinite)) throw nonFinite(state, t0, previous, integrator.dt, deriv);
    if (s % every === 0 || s === steps) sample(s === steps ? stop : timeAt(s, step), integrator.y);
    progress(s / steps);
  }
  return withIterations(new SimulationResult(time, names, columns), state, before);
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
function withIterations<S extends string>(result: SimulationResult<S>, state: ModelState, before: { iterations: readonly IterationStats[]; substitutions: readonly SubstitutionStats[] }): SimulationResult<S> {
  if (before.iterations.length) result.iterations = statsSince(before.iterations, state.iterationStats());
  if (before.substitutions.length) {
    result.substitutions = statsSince(before.substitutions, state.substitutionStats()).map((s, i) => ({ ...s, fallbacks: s.fallbacks - before.substitutions[i].fallbacks }));
  }
  return result;
}

/** calls back with the fraction done when it has grown by 1% or more */
function reporter(onProgress: ((fraction: number) => void) | undefined): (fraction: number) => void {
  let reported = 0;
  return (f) => {
    if (onProgress && f - reported >= 0.01) onProgress((reported = f));
  };
}

/**
 * Replays the failed step as an RK4 step stage by stage (same stages as
 * ode-rk4; for the adaptive integrator a probe over the step it tried) and
 * names the first non-finite variable, in solve order, at the first stage
 * whose derivatives are not finite.
 */
function nonFinite(
  state: ModelState, t: number, x: Float64Array, h: number,
  deriv: (dx: Float64Array, x: Float64Array, t: number) => void,
): SimulationError {
  const n = x.length;
  const k = new Float64Array(n), stage = Float64Array.from(x);
  let first: { name: string; equation: string } | undefined;
  let at = t;
  for (const [c, weight] of [[0, 0], [0.5, 0.5], [0.5, 0.5], [1, 1]] as const) {
    for (let i = 0; i < n; i++) stage[i] = x[i] + weight * h * k[i];
    at = t + c * h;
    try {
      deriv(k, stage, at);
    } catch {
      /* the workspace holds what was computed */
    }
    if (!k.every(Number.isFinite) || !stage.every(Number.isFinite)) {
      first = state.firstNonFinite(at, stage);
      break;
    }
  }
  const what = first ? `${first.name} (${first.equation})` : 'a state';
  return new SimulationError(`a non-finite value appeared in the step from time ${t}, at time ${at}: first non-finite variable ${what}`, {
    variables: first ? [first.name] : [],
    hint: 'a division by zero or a value growing without bound: check parameters and start values, or reduce --step',
  });
}
