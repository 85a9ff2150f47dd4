// The bouncing ball (mechanisms/bouncing-ball.ts) against its closed form:
// dropped from h0 under g, the first impact is at t0 = sqrt(2 h0 / g) with
// speed v0 = g t0; bounce k (k >= 1) leaves at e^k v0, lasts 2 e^k t0 and
// reaches e^(2k) h0 at its middle, so impact k + 1 is at t0 (1 + 2 (e +
// ... + e^k)). A free fall is a quadratic in t: RK4 integrates it exactly
// up to rounding and cubic Hermite reproduces it, so what is left is the
// event location (to 1e-12 s) and rounding; the adaptive integrator
// likewise. The Zeno ball (e = 0.5, no rest speed) accumulates its bounces
// at t0 (1 + e) / (1 - e): the guard stops it there with a message.
import { describe, expect, it } from 'vitest';
import { compile } from '../../../src/compile.ts';
import { simulate } from '../../../src/sim/simulate.ts';
import { SimulationError } from '../../../src/errors.ts';
import build from '../../../mechanisms/bouncing-ball.ts';
import { eventRun } from './run-events.ts';

const h0 = 1,
  g = 9.81,
  t0 = Math.sqrt((2 * h0) / g),
  v0 = g * t0;
/** impact k (1-based) */
const impactTime = (e: number, k: number) => t0 * (1 + 2 * Array.from({ length: k - 1 }, (_, i) => e ** (i + 1)).reduce((a, b) => a + b, 0));

describe('the bouncing ball (e = 0.8) against its closed form', () => {
  const e = 0.8;
  for (const mode of ['torn', 'relaxed'] as const) {
    const compiled = compile(build({ e, restVelocity: 0 }), { mode });
    for (const integrator of ['rk4', 'adaptive'] as const) {
      it(`${integrator}, ${mode} form: six impact times, rebound speeds and apex heights to 1e-9`, () => {
        const run = eventRun(compiled, integrator, 10);
        for (let k = 1; k <= 6; k++) {
          run.runTo(impactTime(e, k) + e ** k * t0); // the apex after impact k: stop exactly there
          const r = run.records[k - 1];
          expect(run.records.length).toBe(k);
          expect(compiled.report.events![r.k].name).toBe('j.limit_lower');
          expect(Math.abs(r.t - impactTime(e, k))).toBeLessThan(1e-9);
          expect(Math.abs(r.before[1] + e ** (k - 1) * v0)).toBeLessThan(1e-9); // impact speed, downward
          expect(Math.abs(r.after[1] - e ** k * v0)).toBeLessThan(1e-9); // rebound: e times it, upward
          const [q, qd] = run.stepper.x;
          expect(Math.abs(q - e ** (2 * k) * h0)).toBeLessThan(1e-9);
          expect(Math.abs(qd)).toBeLessThan(1e-9);
        }
      });
    }
  }

  it('reports its events: the compile report names them, a run counts them', () => {
    const compiled = compile(build({ e, restVelocity: 0 }));
    expect(compiled.report.events!.map((x) => x.name)).toEqual(['j.limit_upper', 'j.limit_upper_leave', 'j.limit_lower', 'j.limit_lower_leave']);
    const result = simulate(compiled, { stop: 3, step: 1e-3 });
    // impacts before 3 s: t0 (1 + 2 (e + e^2 + ...)) < 3
    const impacts = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((k) => impactTime(e, k) < 3).length;
    expect(result.events).toEqual([
      { name: 'j.limit_upper', count: 0 },
      { name: 'j.limit_upper_leave', count: 0 },
      { name: 'j.limit_lower', count: impacts },
      { name: 'j.limit_lower_leave', count: 0 },
    ]);
  });

  it('comes to rest on the floor once an impact is slower than restVelocity, without the Zeno guard', () => {
    const result = simulate(compile(build({ e })), { stop: 6, step: 1e-3, interval: 0.5 });
    // bounces until e^k v0 < 1e-3: k = ceil(log(1e-3 / v0) / log(e)), then one impact that holds it
    const k = Math.ceil(Math.log(1e-3 / v0) / Math.log(e));
    expect(result.events!.find((c) => c.name === 'j.limit_lower')!.count).toBe(k + 1);
    // held by the floor's spring-damper: at rest beyond it by m g / c
    const c = compile(build({ e })).signal('j.limit_c');
    expect(result.final('j.q')).toBeCloseTo(-9.81 / c, 9);
  });
});

describe('the Zeno guard', () => {
  it('stops the ball with e = 0.5 and no rest speed near its accumulation time, in fewer evaluations than a run to the stop, with a message', () => {
    const e = 0.5,
      accumulation = (t0 * (1 + e)) / (1 - e);
    const compiled = compile(build({ e, restVelocity: 0 }));
    const resting = compile(build({ e, restVelocity: 0.1 }));
    for (const integrator of ['rk4', 'adaptive'] as const) {
      // "quickly" as a count, not a time: a controller is called at every evaluation of the
      // derivatives, and the guard must stop with less work than the well-posed ball (one that
      // comes to rest) takes over the whole interval
      let evaluations = 0,
        whole = 0;
      let error: unknown;
      try {
        simulate(compiled, { stop: 3, step: 1e-3, integrator, controller: () => void evaluations++ });
      } catch (x) {
        error = x;
      }
      simulate(resting, { stop: 3, step: 1e-3, integrator, controller: () => void whole++ });
      expect(evaluations).toBeGreaterThan(0);
      expect(evaluations).toBeLessThan(whole);
      expect(error).toBeInstanceOf(SimulationError);
      const err = error as SimulationError;
      expect(err.message).toMatch(/^event j\.limit_lower happened 11 times in a row less than 1e-6 s apart, the last at time 1\.354/);
      expect(err.details.component).toBe('j');
      expect(err.details.hint).toMatch(/restVelocity/);
      // the guard's estimate of the accumulation point against the closed form
      const estimate = Number(/accumulate at about time ([\d.]+)/.exec(err.message)![1]);
      expect(Math.abs(estimate - accumulation)).toBeLessThan(1e-5);
    }
  });
});
