// Adaptive fifth-order Runge-Kutta with the embedded Cash-Karp pair (the
// ode45-cash-karp package): a step is accepted when every component's error
// estimate is within atol + rtol |y_i| (tol = 1 on the scaled errors,
// reduced by the maximum). Steps end exactly at `until`. Dense output is
// cubic Hermite from f at the step's ends (the package keeps the first
// stage; f at the end is evaluated only when asked for).
import ode45 from 'ode45-cash-karp';
import { SimulationError } from '../../errors.ts';
import { type Derivatives, type Stepper, type StepperSettings, StepFailure, attempt, counted, emptyStats, hermite, tooManySteps } from './stepper.ts';

interface CashKarpInternals {
  /** the package's first stage, f(t, y) at the start of the last step */
  _k1: Float64Array;
}

export class CashKarpStepper implements Stepper {
  readonly name = 'adaptive';
  readonly stats = emptyStats();
  tPrev: number;
  private readonly f: Derivatives;
  private readonly integrator;
  /** steps smaller than this (relative to the time span) mean the error control gave up */
  private readonly minStep: number;
  private readonly before: Float64Array;
  private readonly f0: Float64Array;
  private readonly f1: Float64Array;
  private f1At = NaN;

  constructor(
    x0: Float64Array,
    f: Derivatives,
    t0: number,
    private readonly settings: StepperSettings,
  ) {
    const { step, stop, rtol, atol } = settings;
    this.minStep = 1e-12 * Math.max(stop, step);
    this.before = new Float64Array(x0.length);
    this.f0 = new Float64Array(x0.length);
    this.f1 = new Float64Array(x0.length);
    this.f = counted(f, this.stats);
    this.tPrev = t0;
    this.integrator = ode45(x0, this.f, t0, step, {
      tol: 1,
      verbose: false,
      dtMinMag: this.minStep,
      errorScaleFunction: (_i, _dt, y) => atol + rtol * Math.abs(y),
      errorReduceFunction: (_i, acc, e) => Math.max(acc, Math.abs(e)),
    });
  }

  get t(): number {
    return this.integrator.t;
  }

  get x(): Float64Array {
    return this.integrator.y;
  }

  step(until: number): void {
    const it = this.integrator;
    const t0 = it.t;
    if (t0 >= until) return;
    this.before.set(it.y);
    const evaluations = this.stats.evaluations;
    attempt(t0, this.before, Math.min(it.dt, until - t0), () => it.step(until));
    if (!it.y.every(Number.isFinite)) throw new StepFailure(t0, Float64Array.from(this.before), it.t - t0);
    // six stages per attempt, the first shared by all attempts of a step
    this.stats.rejected += Math.max(0, Math.round((this.stats.evaluations - evaluations - 1) / 5) - 1);
    const taken = it.t - t0;
    if (taken === 0 || until - it.t <= 1e-10 * Math.abs(it.dt)) it.t = until; // within rounding of until: exactly on it
    if (taken === 0) return; // the integrator declined to step
    this.f0.set((it as unknown as CashKarpInternals)._k1);
    this.settings.project?.(it.y); // back onto the constraint manifold (unit quaternions) after every accepted step
    this.stats.steps++;
    this.tPrev = t0;
    this.f1At = NaN;
    if (this.stats.steps > this.settings.maxSteps) {
      throw tooManySteps(
        'adaptive',
        this.settings.maxSteps,
        it.t,
        until,
        taken,
        'the model is probably stiff; use --integrator radau, or loosen --rtol/--atol',
      );
    }
    if (taken <= this.minStep * (1 + 1e-9) && until - it.t > 2 * this.minStep) {
      throw new SimulationError(`the adaptive step size fell below ${this.minStep.toPrecision(3)} at time ${it.t}`, {
        hint: 'the error control cannot meet the tolerances here: the model may be stiff or singular; use --integrator radau, or loosen --rtol/--atol',
      });
    }
  }

  interpolate(s: number, out: Float64Array): void {
    if (this.f1At !== this.t) {
      this.f(this.f1, this.integrator.y, this.t);
      this.f1At = this.t;
    }
    hermite(out, s, this.tPrev, this.before, this.f0, this.t, this.integrator.y, this.f1);
  }

  restart(x: Float64Array): void {
    this.integrator.y.set(x);
    this.tPrev = this.t;
    this.f1At = NaN;
  }
}
