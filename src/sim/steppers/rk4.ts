// Classical fourth-order Runge-Kutta at a fixed step (the ode-rk4 package):
// times come from the step count (k h, rounded to 14 digits), so they do not
// drift and land exactly on the sampling grid; a step cut short by `until`
// (the stop time, an event) is followed by one back onto the grid. Dense
// output is cubic Hermite from the step's end derivatives (the first stage,
// and f at the end, evaluated only when asked for). The guard (the stability
// check, sim/stability.ts) runs before the first step, every
// STABILITY_EVERY steps, and where the state changes fast: when its largest
// component has grown tenfold since the last check (an instability that
// sets in between two checks is caught while the numbers are still finite).
import rk4 from 'ode-rk4';
import { STABILITY_EVERY } from '../stability.ts';
import { type Derivatives, type Stepper, type StepperSettings, StepFailure, attempt, counted, emptyStats, hermite } from './stepper.ts';

/** the state's growth since the last stability check that calls for another */
const GROWTH = 10;

/** max |x_i| */
function size(x: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  return m;
}

/** time after k steps of size h, without the rounding noise of k * h (0.009000000000000001) */
export const timeAt = (k: number, h: number) => Number((k * h).toPrecision(14));

interface Rk4Internals {
  /** ode-rk4's first stage, f(t, y) at the start of the last step */
  _k1: Float64Array;
}

export class Rk4Stepper implements Stepper {
  readonly name = 'rk4';
  readonly stats = emptyStats();
  t: number;
  tPrev: number;
  private readonly h: number;
  private readonly f: Derivatives;
  private readonly integrator: ReturnType<typeof rk4<Float64Array>>;
  /** the last grid point k h at or before t, and whether t is on it */
  private k: number;
  private onGrid: boolean;
  private readonly before: Float64Array;
  private readonly f0: Float64Array;
  private readonly f1: Float64Array;
  private f1At = NaN;
  /** max |x_i| at the last guard check, and whether the state has outgrown it tenfold since */
  private checkedSize = 0;
  private grown = false;

  constructor(x0: Float64Array, f: Derivatives, t0: number, private readonly settings: StepperSettings) {
    this.h = settings.step;
    this.f = counted(f, this.stats);
    this.integrator = rk4(x0, this.f, t0, this.h);
    this.t = this.tPrev = t0;
    this.k = Math.floor(t0 / this.h + 1e-9);
    this.onGrid = t0 === timeAt(this.k, this.h);
    this.before = new Float64Array(x0.length);
    this.f0 = new Float64Array(x0.length);
    this.f1 = new Float64Array(x0.length);
  }

  get x(): Float64Array {
    return this.integrator.y;
  }

  step(until: number): void {
    const { h, integrator } = this;
    const t0 = this.t;
    const next = timeAt(this.k + 1, h);
    const cut = until < next;
    // on the grid, a step is h, or what is left to the stop time when that is less (by rounding, at the last step)
    const dt = Math.min(cut ? until - t0 : this.onGrid ? h : next - t0, this.settings.stop - t0);
    if (this.settings.guard && (this.grown || this.stats.steps % STABILITY_EVERY === 0)) {
      this.settings.guard(t0, integrator.y, h);
      this.checkedSize = size(integrator.y);
      this.grown = false;
    }
    this.before.set(integrator.y);
    integrator.t = t0;
    integrator.dt = dt;
    attempt(t0, this.before, dt, () => integrator.step());
    if (!integrator.y.every(Number.isFinite)) throw new StepFailure(t0, Float64Array.from(this.before), dt);
    this.f0.set((integrator as unknown as Rk4Internals)._k1);
    this.settings.project?.(integrator.y);
    this.stats.steps++;
    if (this.settings.guard && size(integrator.y) > GROWTH * Math.max(1, this.checkedSize)) this.grown = true;
    this.tPrev = t0;
    if (cut) {
      this.t = until;
      this.onGrid = false;
    } else {
      this.t = next;
      this.k++;
      this.onGrid = true;
    }
    this.f1At = NaN;
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
