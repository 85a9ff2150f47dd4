// Classical fourth-order Runge-Kutta at a fixed step (the ode-rk4 package):
// times come from the step count (k h, rounded to 14 digits), so they do not
// drift and land exactly on the sampling grid; a step cut short by `until`
// (the stop time, an event) is followed by one back onto the grid. Dense
// output is cubic Hermite from the step's end derivatives (the first stage,
// and f at the end, evaluated only when asked for). The guard (the stability
// check, sim/stability.ts) runs before the first step, every
// STABILITY_EVERY steps, and where the state changes fast: when its largest
// component has grown tenfold since the last check (an instability that
// sets in between two checks is caught while the numbers are still finite),
// and where the model says its stiffness may have changed (settings.recheck:
// a contact made, broken or sticking), there also after the step that
// changed it, at its end: an unstable step is not taken.
// A step is on the hot path of every fixed-step run: it allocates nothing
// and copies only the state before it (bench:run).
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

/** 10^j for j = 0..22: every one is a double exactly (10^22 = 2^22 5^22, 5^22 < 2^53) */
const POW10 = Array.from({ length: 23 }, (_, j) => Number(`1e${j}`));

/**
 * Time after k steps of size h, without the rounding noise of k * h (0.009000000000000001):
 * Number((k h).toPrecision(14)), which formats a string and parses it back (~150 ns, twice
 * a step: a tenth of a PUMA run). The same number by arithmetic: the 14 significant digits
 * are the integer m nearest to k h 10^j (j = 13 - the decimal exponent), and the double
 * nearest to m 10^-j is m / 10^j, one correctly rounded division of two exact doubles, as
 * parsing the digits rounds. k h 10^j is rounded once, by at most half its ulp, 2^-7 below
 * 10^14 < 2^47: where it lies within 0.01 of a half (m could be either neighbour), where m
 * has not 14 digits (the exponent misjudged next to a power of ten) and outside
 * 1e-9 <= k h < 1e13 (10^j exact), the string does it. test/sim/time-grid.test.ts compares
 * both on millions of k and steps.
 */
export function timeAt(k: number, h: number): number {
  const r = k * h;
  const j = 13 - Math.floor(Math.log10(r));
  if (j >= 0 && j <= 22) {
    const y = r * POW10[j];
    const m = Math.round(y);
    if (Math.abs(y - m) < 0.49 && m >= 1e13 && m < 1e14) return m / POW10[j];
  }
  return Number(r.toPrecision(14));
}

interface Rk4Internals {
  /** ode-rk4's first stage, f(t, y) at the start of the last step (kept until the next step) */
  _k1: Float64Array;
}

/** every element finite: a plain loop (Array.prototype.every with a callback cost ~0.6 µs a step on 73 states) */
function allFinite(y: Float64Array): boolean {
  for (let i = 0; i < y.length; i++) if (!Number.isFinite(y[i])) return false;
  return true;
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
  /** one step of the integrator, made once (attempt() takes a function) */
  private readonly advance: () => void;
  private readonly f1: Float64Array;
  private f1At = NaN;
  /** max |x_i| at the last guard check, and whether the state has outgrown it tenfold since */
  private checkedSize = 0;
  private grown = false;

  constructor(
    x0: Float64Array,
    f: Derivatives,
    t0: number,
    private readonly settings: StepperSettings,
  ) {
    this.h = settings.step;
    this.f = counted(f, this.stats);
    this.integrator = rk4(x0, this.f, t0, this.h);
    this.t = this.tPrev = t0;
    this.k = Math.floor(t0 / this.h + 1e-9);
    this.onGrid = t0 === timeAt(this.k, this.h);
    this.before = new Float64Array(x0.length);
    this.advance = () => this.integrator.step();
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
    if (this.settings.guard && (this.grown || this.stats.steps % STABILITY_EVERY === 0 || this.settings.recheck?.())) {
      this.settings.guard(t0, integrator.y, h);
      this.checkedSize = size(integrator.y);
      this.grown = false;
    }
    this.before.set(integrator.y);
    integrator.t = t0;
    integrator.dt = dt;
    attempt(t0, this.before, dt, this.advance);
    if (!allFinite(integrator.y)) throw new StepFailure(t0, Float64Array.from(this.before), dt);
    // the model's stiffness changed within the step (a contact made): is the step stable where it ended? If not, the step
    // is not taken: the state goes back to t0 and the error says so there (auto goes on with radau from t0). Checked only
    // at the start of the next step, one RK4 step would have run through the stiff contact (a first draft of the fuzzer's
    // contact family: a heavily damped Hunt-Crossley impact, its contact_work 14 J off of 56 J in that one step)
    if (this.settings.guard && this.settings.recheck?.()) {
      try {
        this.settings.guard(t0 + dt, integrator.y, h);
      } catch (e) {
        integrator.y.set(this.before);
        throw e;
      }
    }
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
    // the step's first stage is f at its start, as long as no step has been taken since
    const f0 = (this.integrator as unknown as Rk4Internals)._k1;
    hermite(out, s, this.tPrev, this.before, f0, this.t, this.integrator.y, this.f1);
  }

  restart(x: Float64Array): void {
    this.integrator.y.set(x);
    this.tPrev = this.t;
    this.f1At = NaN;
  }
}
