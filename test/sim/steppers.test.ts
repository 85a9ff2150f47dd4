// The Stepper interface (src/sim/steppers) as every integrator must honour
// it, checked on ODEs with closed forms: a step never passes the time it is
// given and ends exactly on it; RK4's one step is its stability polynomial
// R(z) = 1 + z + z²/2 + z³/6 + z⁴/24 applied to y' = λy; RK4's times stay on
// the k·h grid and come back to it after a step cut short; dense output is
// third-order (Hermite) between steps; restart() goes on from a new state;
// the statistics count what was evaluated.
import { describe, expect, it } from 'vitest';
import { STEPPERS, INTEGRATORS } from '../../src/sim/steppers/index.ts';
import type { Derivatives, StepperSettings } from '../../src/sim/steppers/stepper.ts';

const settings = (step: number, extra: Partial<StepperSettings> = {}): StepperSettings => ({
  step,
  stop: 10,
  rtol: 1e-8,
  atol: 1e-10,
  maxSteps: 1e6,
  ...extra,
});

/** y' = cos t, y(0) = 0: y = sin t (also a check of the time each stage is given) */
const sine: Derivatives = (dx, _x, t) => (dx[0] = Math.cos(t));

describe('every stepper', () => {
  for (const name of INTEGRATORS) {
    it(`${name}: steps end at until at the latest, exactly on it when reached, and follow sin t`, () => {
      const s = STEPPERS[name](Float64Array.of(0), sine, 0, settings(0.01));
      for (const until of [0.015, 0.3, 0.30001, 1]) {
        while (s.t < until) {
          const before = s.t;
          s.step(until);
          expect(s.t).toBeGreaterThan(before);
          expect(s.t).toBeLessThanOrEqual(until);
          expect(s.tPrev).toBe(before);
        }
        expect(s.t).toBe(until);
        expect(Math.abs(s.x[0] - Math.sin(until))).toBeLessThan(1e-8);
      }
    });

    it(`${name}: dense output between two steps is third-order accurate, exact at both ends`, () => {
      const s = STEPPERS[name](Float64Array.of(0), sine, 0, settings(0.05, { rtol: 1e-3, atol: 1e-3 }));
      s.step(0.5);
      s.step(0.5);
      const out = new Float64Array(1);
      const [t0, t1] = [s.tPrev, s.t];
      const h = t1 - t0;
      s.interpolate(t1, out);
      expect(out[0]).toBe(s.x[0]);
      let worst = 0;
      for (let k = 1; k < 10; k++) {
        const at = t0 + (k / 10) * h;
        s.interpolate(at, out);
        worst = Math.max(worst, Math.abs(out[0] - Math.sin(at)));
      }
      // the Hermite cubic's error is at most h^4/384 max|y''''| plus the step's own error
      expect(worst).toBeLessThan(h ** 4 / 384 + Math.abs(s.x[0] - Math.sin(t1)) + 1e-15);
    });

    it(`${name}: restart() goes on from the state it is given`, () => {
      const decay: Derivatives = (dx, x) => (dx[0] = -x[0]);
      const s = STEPPERS[name](Float64Array.of(1), decay, 0, settings(0.01));
      while (s.t < 0.5) s.step(0.5);
      s.restart(Float64Array.of(2));
      expect(s.tPrev).toBe(0.5);
      while (s.t < 1) s.step(1);
      expect(s.x[0]).toBeCloseTo(2 * Math.exp(-0.5), 7);
    });
  }
});

describe('the rk4 stepper', () => {
  it("takes one step as R(z) = 1 + z + z²/2 + z³/6 + z⁴/24 on y' = λy", () => {
    for (const z of [-0.3, -2.5, 0.7]) {
      const h = 0.01,
        lambda = z / h;
      const s = STEPPERS.rk4(Float64Array.of(1), (dx, x) => (dx[0] = lambda * x[0]), 0, settings(h));
      s.step(1);
      expect(s.x[0]).toBeCloseTo(1 + z + z ** 2 / 2 + z ** 3 / 6 + z ** 4 / 24, 14);
      expect(s.stats).toMatchObject({ steps: 1, evaluations: 4, rejected: 0 });
    }
  });

  it('keeps its times on the k h grid and comes back to it after a step cut short', () => {
    const s = STEPPERS.rk4(Float64Array.of(0), sine, 0, settings(0.001));
    const times: number[] = [];
    for (const until of [0.0025, 0.005]) {
      while (s.t < until) (s.step(until), times.push(s.t));
    }
    expect(times).toEqual([0.001, 0.002, 0.0025, 0.003, 0.004, 0.005]);
    // 1000 steps of 0.001 end at exactly 1, not 0.9999999999999062
    while (s.t < 1) s.step(1);
    expect(s.t).toBe(1);
    expect(s.stats.steps).toBe(1001);
  });

  it('runs its guard before the first step and every STABILITY_EVERY steps after, with the step size', () => {
    const calls: [number, number][] = [];
    const s = STEPPERS.rk4(Float64Array.of(0), sine, 0, settings(0.001, { guard: (t, _x, h) => calls.push([t, h]) }));
    while (s.t < 2.5) s.step(2.5);
    expect(calls).toEqual([
      [0, 0.001],
      [1, 0.001],
      [2, 0.001],
    ]);
  });
});

describe('the adaptive (Cash-Karp) stepper', () => {
  it("counts six evaluations per attempt, the first shared by a step's attempts, and the rejections", () => {
    // a first step far too large is rejected until the error is within tolerance
    const s = STEPPERS.adaptive(Float64Array.of(1), (dx, x) => (dx[0] = -50 * x[0]), 0, settings(1, { rtol: 1e-6, atol: 1e-9 }));
    while (s.t < 1) s.step(1);
    const { steps, rejected, evaluations } = s.stats;
    expect(rejected).toBeGreaterThan(0);
    expect(evaluations).toBe(steps + 5 * (steps + rejected));
    expect(Math.abs(s.x[0] - Math.exp(-50))).toBeLessThan(1e-6 * Math.exp(-50) + 1e-9);
  });
});
