// Events at run time: after every accepted step the compiled model's
// indicators (codegen/events.ts) are evaluated at the new state; an
// indicator that changed sign in its declared direction is located within
// the step on the stepper's dense output by the Illinois method (modified
// regula falsi: Dowell & Jarratt 1971) to EVENT_TIME_TOLERANCE, then moved
// onto the method's own solution by a few secant steps (polish), the run is
// cut back to the crossing,
// the event's actions are applied and integration starts afresh there with a
// new stepper (so every integrator, present or future, restarts the same
// way: RK4 realigns onto its grid, an error-controlled method starts from
// its first step again and forgets the derivatives before the jump).
//
// Where the run resumes: an event that reinitialises states resumes at the
// last time before the crossing (the indicator still on its old side), an
// event that only sets modes at the first time after it. After an impact the
// motion turns back: from the old side, a rebound that ends within the next
// step (a bouncing ball's last, tiny bounces) is still a sign change at the
// step's end; from the new side it would be none, and the ball would fall
// through the floor. A mode switch lets the motion go on through the
// crossing, and from the old side its indicator would cross again at once.
//
// The Zeno guard: events of one indicator that follow each other within
// minEventInterval, zenoCount times in a row, stop the run with a
// SimulationError (a bouncing ball's accumulating bounces, a chattering
// switch), never a hang.
import { SimulationError } from '../errors.ts';
import type { ModelState } from '../codegen/state.ts';
import type { EventInfo } from '../codegen/events.ts';
import type { Derivatives, Stepper, StepperStats } from './steppers/stepper.ts';
import { WrappingStepper, emptyStats } from './steppers/stepper.ts';

/** the Zeno guard's defaults: 10 events of one indicator in a row, each within 1e-6 s of the one before */
export const DEFAULT_MIN_EVENT_INTERVAL = 1e-6;
export const DEFAULT_ZENO_COUNT = 10;

/**
 * a located crossing is bracketed to this time (s), relative to max(1, |t|):
 * a state error of |x'| 1e-12, below what the integrators reach, and still
 * some 5000 times the spacing of doubles near t (2.2e-16 |t|), so the
 * bracket can always shrink to it
 */
export const EVENT_TIME_TOLERANCE = 1e-12;
/** Illinois iterations before bisection alone is trusted (it halves a bracket per iteration: 60 reach any tolerance) */
const MAX_ITERATIONS = 200;

export interface EventSettings {
  /** the Zeno guard: events of one indicator closer than this (s) ... */
  minEventInterval?: number;
  /** ... this many times in a row stop the run */
  zenoCount?: number;
}

/** how often each event happened in a run */
export interface EventCount {
  name: string;
  count: number;
}

/**
 * a stepper on a given state and time: what an event restarts integration
 * with; `within` (a state integrated inside a step already taken, from its
 * start): the run's checks done at a stepper's first step (RK4's stability
 * check) need not run again
 */
export type MakeStepper = (x0: Float64Array, t0: number, within?: boolean) => Stepper;

/** the last event: which (index in report.events), when, and the state just before its actions */
export interface LastEvent {
  readonly k: number;
  readonly t: number;
  readonly before: Float64Array;
}

/** a stepper that stops at the events of a model that has them, and counts them */
export type EventStepper = Stepper & { counts(): EventCount[]; readonly last: LastEvent | undefined };

/**
 * Where the events come from: a compiled model's (withEvents), or another source of indicators at
 * (t, x) (sim/contact-events.ts: contacts that make and break). `events` name them and give their
 * directions; apply(k, t, x) does event k's actions on x (none: the run only restarts there).
 */
export interface EventSource {
  readonly events: readonly Pick<EventInfo, 'name' | 'component' | 'direction' | 'reinit' | 'set'>[];
  /** the model is evaluated at (t, x) before the indicators and the actions */
  readonly readsModel: boolean;
  indicators(t: number, x: Float64Array, out: Float64Array): void;
  apply(k: number, t: number, x: Float64Array): void;
  /** false: no Zeno guard (events that may come close without end, as a resting contact's) */
  readonly zeno?: boolean;
}

// (state of a model with events, its derivatives, stepper factory, x0, settings) => a stepper that stops at the events and applies them
export function withEvents(state: ModelState, deriv: Derivatives, make: MakeStepper, x0: Float64Array, settings: EventSettings = {}): EventStepper {
  const { events, readsModel } = state.model.data.events!;
  const source: EventSource = {
    events,
    readsModel,
    indicators: (t, x, out) => state.indicators(t, x, out),
    apply: (k, t, x) => state.applyEvent(k, t, x),
  };
  return withEventSource(source, deriv, make, x0, settings);
}

// (events' source, derivatives, stepper factory, x0, settings) => a stepper that stops at the source's events and applies them
export function withEventSource(source: EventSource, deriv: Derivatives, make: MakeStepper, x0: Float64Array, settings: EventSettings = {}): EventStepper {
  return new Events(source, deriv, make, make(x0, 0), settings);
}

/** a time span as people write it: 1e-6, not 0.000001 */
const seconds = (s: number) => (s !== 0 && Math.abs(s) < 1e-3 ? s.toExponential() : String(s));

/** whether an indicator went from `before` to `after` across zero in the event's direction (0 counts as the far side) */
const crossed = (direction: EventInfo['direction'], before: number, after: number): boolean =>
  (direction !== 'falling' && before < 0 && after >= 0) || (direction !== 'rising' && before > 0 && after <= 0);

class Events extends WrappingStepper implements EventStepper {
  readonly name: string;
  protected inner: Stepper;
  /** statistics of the steppers that events ended */
  private readonly done = emptyStats();
  private readonly n: number;
  /** indicators at the current state, at the end of the step just taken, and at a trial time within it */
  private readonly g: Float64Array;
  private readonly gEnd: Float64Array;
  private readonly gTrial: Float64Array;
  private readonly xTrial: Float64Array;
  private readonly scratch: Float64Array;
  private readonly count: Int32Array;
  /** per indicator: times of its last three events (for the accumulation estimate), and events in a row within minEventInterval */
  private readonly times: Float64Array[];
  private readonly streak: Int32Array;
  private readonly minInterval: number;
  private readonly zenoCount: number;
  last: LastEvent | undefined;

  private readonly events: EventSource['events'];
  private readonly readsModel: boolean;

  constructor(
    private readonly source: EventSource,
    private readonly deriv: Derivatives,
    private readonly make: MakeStepper,
    first: Stepper,
    settings: EventSettings,
  ) {
    super();
    this.events = source.events;
    this.readsModel = source.readsModel;
    this.inner = first;
    this.name = first.name;
    this.n = this.events.length;
    this.g = new Float64Array(this.n);
    this.gEnd = new Float64Array(this.n);
    this.gTrial = new Float64Array(this.n);
    this.xTrial = new Float64Array(first.x.length);
    this.scratch = new Float64Array(first.x.length);
    this.count = new Int32Array(this.n);
    this.times = this.events.map(() => Float64Array.of(-Infinity, -Infinity, -Infinity));
    this.streak = new Int32Array(this.n);
    this.minInterval = settings.minEventInterval ?? DEFAULT_MIN_EVENT_INTERVAL;
    this.zenoCount = settings.zenoCount ?? DEFAULT_ZENO_COUNT;
    this.indicators(first.t, first.x, this.g);
  }

  override get stats(): StepperStats {
    const s = this.inner.stats,
      d = this.done;
    return {
      steps: d.steps + s.steps,
      rejected: d.rejected + s.rejected,
      evaluations: d.evaluations + s.evaluations,
      jacobians: d.jacobians + s.jacobians,
      decompositions: d.decompositions + s.decompositions,
    };
  }

  counts(): EventCount[] {
    return this.events.map((e, k) => ({ name: e.name, count: this.count[k] }));
  }

  step(until: number): void {
    this.inner.step(until);
    const { g, gEnd, n } = this;
    this.indicators(this.inner.t, this.inner.x, gEnd);
    // the first crossing in the step: each crossing indicator's bracket, the earliest kept
    let k = -1,
      a = Infinity,
      b = Infinity;
    for (let i = 0; i < n; i++) {
      if (!crossed(this.events[i].direction, g[i], gEnd[i])) continue;
      const [ai, bi] = this.polish(i, g[i], ...this.locate(i, g[i]));
      if (bi < b) [k, a, b] = [i, ai, bi];
    }
    if (k < 0) {
      g.set(gEnd);
      return;
    }
    this.fire(k, this.events[k].reinit.length ? a : b);
  }

  override restart(x: Float64Array): void {
    this.inner.restart(x);
    this.indicators(this.inner.t, this.inner.x, this.g);
  }

  /** g at (t, x), the model evaluated first when an indicator reads an unknown */
  private indicators(t: number, x: Float64Array, out: Float64Array): void {
    if (this.readsModel) this.deriv(this.scratch, x, t);
    this.source.indicators(t, x, out);
  }

  /** indicator i at time s of the last step (dense output) */
  private at(i: number, s: number): number {
    this.inner.interpolate(s, this.xTrial);
    this.indicators(s, this.xTrial, this.gTrial);
    return this.gTrial[i];
  }

  /**
   * [a, b] around indicator i's crossing in the last step, b - a within the
   * tolerance: g(a) on the side before it, g(b) on the side after it. The
   * Illinois method: regula falsi whose retained end's value is halved when
   * it is retained twice in a row, superlinear (order 1.44) where regula
   * falsi stalls; bisection where an iterate leaves the bracket.
   */
  private locate(i: number, before: number): [number, number] {
    const inner = this.inner;
    let a = inner.tPrev,
      b = inner.t;
    const tol = EVENT_TIME_TOLERANCE * Math.max(1, Math.abs(b));
    // sides as signs: s(g) = -1 before the crossing, +1 after (a falling crossing: g's sign flipped)
    const flip = before < 0 ? 1 : -1;
    let ga = flip * before,
      gb = flip * this.at(i, b);
    let retained = 0;
    for (let it = 0; b - a > tol && it < MAX_ITERATIONS; it++) {
      let c = b - (gb * (b - a)) / (gb - ga);
      if (!(c > a && c < b)) c = 0.5 * (a + b);
      const gc = flip * this.at(i, c);
      if (gc >= 0) {
        b = c;
        gb = gc;
        if (retained === -1) ga *= 0.5;
        retained = -1;
      } else {
        a = c;
        ga = gc;
        if (retained === 1) gb *= 0.5;
        retained = 1;
      }
    }
    return [a, b];
  }

  /**
   * The crossing [a, b] found on the dense output, moved onto the method's
   * own solution: the secant method on g of the state integrated from the
   * step's start (stateAt), from the dense output's root, then its bracket
   * confirmed. The dense output is cubic Hermite: over an error-controlled
   * step of 0.1 s it places a crossing some 1e-8 s off, the method itself
   * to its tolerance. Where the secant does not confirm a bracket (a
   * crossing the integrated state does not show), [a, b] stays.
   */
  private polish(i: number, before: number, a: number, b: number): [number, number] {
    const inner = this.inner;
    const t0 = inner.tPrev,
      t1 = inner.t,
      tol = b - a;
    if (t1 - t0 <= 1e3 * tol) return [a, b];
    const flip = before < 0 ? 1 : -1;
    const G = (s: number) => {
      const x = this.stateAt(s);
      this.indicators(s, x, this.gTrial);
      return flip * this.gTrial[i];
    };
    let s0 = b,
      g0 = G(s0);
    let s1 = g0 >= 0 ? a - 1e-6 * (t1 - t0) : b + 1e-6 * (t1 - t0),
      g1 = G(s1);
    for (let it = 0; it < 8 && g1 !== g0 && Math.abs(s1 - s0) > tol; it++) {
      const s2 = Math.min(t1, Math.max(t0, s1 - (g1 * (s1 - s0)) / (g1 - g0)));
      [s0, g0, s1, g1] = [s1, g1, s2, G(s2)];
    }
    const [lo, hi] = g1 >= 0 ? [s1 - tol, s1] : [s1, s1 + tol];
    return lo >= t0 && hi <= t1 && G(lo) < 0 && G(hi) >= 0 ? [lo, hi] : [a, b];
  }

  /** event k at time te: the state there, the actions, the Zeno guard, a new stepper from there */
  private fire(k: number, te: number): void {
    const x = this.stateAt(te);
    this.last = { k, t: te, before: Float64Array.from(x) };
    if (this.readsModel) this.deriv(this.scratch, x, te);
    this.source.apply(k, te, x);
    this.count[k]++;
    if (this.source.zeno !== false) this.guard(k, te);
    this.retire(this.inner);
    this.inner = this.make(x, te);
    this.indicators(te, this.inner.x, this.g);
  }

  /**
   * The state at te in the last step, integrated there by the method itself
   * from the step's start: the dense output (cubic Hermite, third order)
   * located te, but its state is less accurate than the method's own (a
   * pendulum's impact speed by the adaptive method at rtol 1e-10: 5e-8 off
   * interpolated, 1e-10 integrated).
   */
  private stateAt(te: number): Float64Array {
    const inner = this.inner;
    if (te === inner.t) return Float64Array.from(inner.x);
    const start = new Float64Array(inner.x.length);
    inner.interpolate(inner.tPrev, start);
    const s = this.make(start, inner.tPrev, true);
    while (s.t < te) s.step(te);
    this.retire(s);
    return Float64Array.from(s.x);
  }

  /** a stepper's statistics kept when it is replaced */
  private retire(s: Stepper): void {
    const a = s.stats,
      d = this.done;
    d.steps += a.steps;
    d.rejected += a.rejected;
    d.evaluations += a.evaluations;
    d.jacobians += a.jacobians;
    d.decompositions += a.decompositions;
  }

  /** the Zeno guard: a SimulationError when indicator k's events have come within minInterval zenoCount times in a row */
  private guard(k: number, te: number): void {
    const last = this.times[k];
    this.streak[k] = te - last[2] < this.minInterval ? this.streak[k] + 1 : 0;
    last.copyWithin(0, 1);
    last[2] = te;
    if (this.streak[k] < this.zenoCount) return;
    const e = this.events[k];
    // bounces shrinking by a ratio r accumulate at t + d r / (1 - r) (a geometric series)
    const d1 = last[1] - last[0],
      d2 = last[2] - last[1],
      r = d2 / d1;
    const limit =
      r > 0 && r < 1
        ? `; the intervals shrink by a factor ${r.toPrecision(3)}, so they accumulate at about time ${(te + (d2 * r) / (1 - r)).toPrecision(8)} (a Zeno point: infinitely many events in finite time)`
        : '';
    throw new SimulationError(
      `event ${e.name} happened ${this.zenoCount + 1} times in a row less than ${seconds(this.minInterval)} s apart, the last at time ${te} (${this.count[k]} events of it in all)${limit}`,
      {
        component: e.component,
        variables: [...e.reinit, ...e.set],
        hint: `a model that switches ever faster has no continuation past that point: give it a rest condition (a joint limit's restVelocity: below it an impact holds the joint at the limit), or stop before it; minEventInterval and zenoCount (kron: --min-event-interval, --zeno-count) set the guard`,
      },
    );
  }
}
