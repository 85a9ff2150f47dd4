// The one interface every integrator implements. A stepper owns the state
// vector and advances it one accepted step at a time, never past the time
// it is given (a sample, an event, the stop time); it may try and reject
// steps inside step(). Between its last two accepted times it interpolates
// (dense output), which the event locator's root finder (sim/events.ts)
// and samples between steps use. simulate(), sweeps, the viewer's live
// mode and the worker all drive steppers through this interface, so a new
// integrator is one file here plus its entry in steppers/index.ts.
import { SimulationError } from '../../errors.ts';
import { NonFiniteError } from '../../codegen/state.ts';

/** dx = f(x, t), written into dx (the compiled model's derivatives, with inputs and controller) */
export type Derivatives = (dx: Float64Array, x: Float64Array, t: number) => void;

/**
 * J = ∂f/∂x at (x, t), row-major n × n into J (f(x, t) is given as fx). `full`: form every part
 * anew (the last J, which kept parts, failed at this state). Returns true when the J kept parts
 * formed at an earlier state (sim/contact-jacobian.ts keeps the rigid part between calls).
 */
export type JacobianFn = (J: Float64Array, x: Float64Array, t: number, fx: Float64Array, full: boolean) => boolean | void;

/** what a run's integration cost, for the report */
export interface StepperStats {
  /** accepted steps */
  steps: number;
  /** steps tried and rejected by the error control (or by Newton's failure to converge) */
  rejected: number;
  /** evaluations of the derivatives f, including those spent on Jacobians by differences */
  evaluations: number;
  /** Jacobians ∂f/∂x formed (implicit methods) */
  jacobians: number;
  /** LU decompositions of the iteration matrix (implicit methods) */
  decompositions: number;
}

export interface StepperSettings {
  /** fixed-step methods: the step (s); error-controlled ones: the first step tried */
  step: number;
  /** the run's end time (bounds the minimum step of error-controlled methods) */
  stop: number;
  /** error control: relative and absolute tolerance per state */
  rtol: number;
  atol: number;
  /** error control: accepted steps before the run is given up */
  maxSteps: number;
  /** called on the state after every accepted step (unit quaternions back to norm 1) */
  project?: (x: Float64Array) => void;
  /** the model's own ∂f/∂x; implicit methods form it by differences without one */
  jacobian?: JacobianFn;
  /**
   * radau keeps J while Newton contracts by θ at most this (RADAU5's THET): 0.001 for a cheap J,
   * 0.1 for a costly one; default 0.001 with `jacobian`, 0.1 without (differences cost n evaluations)
   */
  jacobianTheta?: number;
  /**
   * called before a step of size h from (t, x) that a fixed-step method is about to take, every
   * STABILITY_EVERY steps from the first (sim/stability.ts): may throw to stop the run
   */
  guard?: (t: number, x: Float64Array, h: number) => void;
  /**
   * true when the model's stiffness may have changed since it was last asked (a contact made or
   * broken, or one that began to stick: contact/run.ts): the guard runs again before the next step
   */
  recheck?: () => boolean;
  /**
   * Implicit methods: f at trial states (Newton's stage values, the Jacobian's columns), each call
   * starting from the model's evaluation at the last accepted state, which f alone evaluates.
   * A trial far from it (a long first step) cannot then carry a kinematic loop onto its mirror
   * assembly for good: the loop's Newton starts from the last accepted solution and its branch
   * watch compares with it, so a stage that lands on another branch is an error, and the
   * method shortens the step (simulate() gives it; without, trials are f).
   */
  trial?: Derivatives;
  /** the integrator 'auto' (steppers/auto.ts): where the run went on with radau and why, once it has; shared by the run's steppers */
  switched?: { time?: number; reason?: string };
}

export interface Stepper {
  /** the integrator's name, as --integrator takes it */
  readonly name: string;
  /** time of the current state */
  readonly t: number;
  /** the current state (owned by the stepper: read it, copy what you keep) */
  readonly x: Float64Array;
  /** time of the state before the last accepted step (t itself before the first step) */
  readonly tPrev: number;
  /**
   * One accepted step from t towards `until`, ending at `until` at the latest (exactly at it when
   * it gets there). Throws StepFailure when the derivatives or the state were not finite, a
   * SimulationError when the method gives up (too many steps, step size too small, no convergence).
   */
  step(until: number): void;
  /** the state at time s in [tPrev, t] by the method's dense output, into out */
  interpolate(s: number, out: Float64Array): void;
  /** go on from a changed state at the current time (an event's reinit): the method forgets past steps */
  restart(x: Float64Array): void;
  readonly stats: StepperStats;
}

/**
 * A stepper that hands the work to another, which it may replace as it goes: auto (RK4, then radau),
 * a model's events (a new stepper after each event). The position and dense output are the inner one's.
 */
export abstract class WrappingStepper implements Stepper {
  abstract readonly name: string;
  protected abstract inner: Stepper;

  get t(): number {
    return this.inner.t;
  }

  get x(): Float64Array {
    return this.inner.x;
  }

  get tPrev(): number {
    return this.inner.tPrev;
  }

  get stats(): StepperStats {
    return this.inner.stats;
  }

  abstract step(until: number): void;

  interpolate(s: number, out: Float64Array): void {
    this.inner.interpolate(s, out);
  }

  restart(x: Float64Array): void {
    this.inner.restart(x);
  }
}

export type StepperFactory = (x0: Float64Array, f: Derivatives, t0: number, settings: StepperSettings) => Stepper;

/** why a step was not taken: the state before it and the step size it tried (simulate() names the variable) */
export class StepFailure extends Error {
  constructor(
    readonly t: number,
    readonly x: Float64Array,
    readonly h: number,
  ) {
    super(`step from ${t} failed`);
  }
}

export const emptyStats = (): StepperStats => ({ steps: 0, rejected: 0, evaluations: 0, jacobians: 0, decompositions: 0 });

/** f, counting its calls in stats.evaluations */
export function counted(f: Derivatives, stats: StepperStats): Derivatives {
  return (dx, x, t) => {
    stats.evaluations++;
    f(dx, x, t);
  };
}

/**
 * Runs one step attempt: a NonFiniteError from the model becomes a StepFailure from (t, before)
 * with step h (simulate() names the variable); every other error passes as it is: the model's
 * own (a singular position, Newton's failure), a controller's, a module's process.exit().
 */
export function attempt(t: number, before: Float64Array, h: number, take: () => void): void {
  try {
    take();
  } catch (e) {
    if (e instanceof NonFiniteError) throw new StepFailure(t, Float64Array.from(before), h);
    throw e;
  }
}

/**
 * Cubic Hermite interpolation between (t0, x0, f0) and (t1, x1, f1) at s, into out: third-order
 * accurate, the dense output of methods that have no continuous extension of their own.
 */
export function hermite(out: Float64Array, s: number, t0: number, x0: Float64Array, f0: Float64Array, t1: number, x1: Float64Array, f1: Float64Array): void {
  const h = t1 - t0;
  if (h === 0) {
    out.set(x1);
    return;
  }
  const u = (s - t0) / h;
  const h00 = (1 + 2 * u) * (1 - u) * (1 - u),
    h10 = u * (1 - u) * (1 - u),
    h01 = u * u * (3 - 2 * u),
    h11 = u * u * (u - 1);
  for (let i = 0; i < out.length; i++) out[i] = h00 * x0[i] + h10 * h * f0[i] + h01 * x1[i] + h11 * h * f1[i];
}

/** the SimulationError for an error-controlled method that has taken more than maxSteps steps */
export function tooManySteps(method: string, maxSteps: number, t: number, until: number, last: number, hint: string): SimulationError {
  return new SimulationError(`the ${method} integrator took more than ${maxSteps} steps and reached time ${t} of ${until}`, {
    hint: `the last step was ${last.toPrecision(3)} s: ${hint}`,
  });
}
