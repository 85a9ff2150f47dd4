// What a fixed-step run evaluates, counted (issue 30: a whole run at the
// speed of its evaluations): 4 evaluations a RK4 step, one more per sample
// that records a signal the states do not give, the stability check's probes
// beside them; and the shortcuts of the hot path (a run without inputs or a
// controller calls the compiled code directly, the RK4 stepper's dense output
// reads the step's first stage in place) give what the general path gives.
import { describe, expect, it } from 'vitest';
import { add, mul } from '../../src/expr/index.ts';
import { Model, der } from '../../src/model/index.ts';
import { compile } from '../../src/compile.ts';
import { DEFAULT_ATOL, DEFAULT_RTOL, type RunStats, simulate } from '../../src/sim/simulate.ts';
import { Rk4Stepper } from '../../src/sim/steppers/rk4.ts';

// a softening spring: f = -k x - x^3, so that f is an unknown of its own, not an alias of x
function spring() {
  const m = new Model('spring');
  const x = m.variable('x', { start: 1 }),
    v = m.variable('v', { start: 0 });
  const f = m.variable('f');
  m.equation(der(x), v);
  m.equation(der(v), f);
  m.equation(f, add(mul(-4, x), mul(-1, mul(x, mul(x, x)))));
  return m;
}

/** a run with a controller that only counts its calls (one per evaluation of the derivatives) */
function counted(signals: string[], unsafeStep: boolean) {
  let calls = 0;
  const r = simulate(compile(spring()), { stop: 1, step: 0.01, interval: 0.1, signals, unsafeStep, controller: () => void calls++ });
  return { calls, integration: (r as typeof r & RunStats).integration! };
}

describe('evaluations of a fixed-step run', () => {
  it('4 a step when only states are recorded', () => {
    const { calls, integration } = counted(['x', 'v'], true);
    expect(integration).toMatchObject({ integrator: 'rk4', steps: 100, evaluations: 400, rejected: 0 });
    expect(calls).toBe(400);
  });

  it('one more per sample (11) when a recorded signal is an unknown', () => {
    const { calls, integration } = counted(['x', 'f'], true);
    expect(integration.evaluations).toBe(400);
    expect(calls).toBe(400 + 11);
  });

  it('the stability check probes once at the start, at most its Krylov dimension + 1 evaluations, uncounted by the stepper', () => {
    const { calls, integration } = counted(['x', 'f'], false);
    expect(integration.evaluations).toBe(400);
    expect(calls - 411).toBeGreaterThanOrEqual(1);
    expect(calls - 411).toBeLessThanOrEqual(21);
  });

  it('a run without inputs or controller records what the run with a controller that does nothing records', () => {
    const c = compile(spring());
    const options = { stop: 2, step: 0.01, interval: 0.05, signals: ['x', 'v', 'f'] };
    const plain = simulate(c, options),
      hooked = simulate(c, { ...options, controller: () => {} });
    expect(plain.columns).toEqual(hooked.columns);
    expect(plain.time).toEqual(hooked.time);
  });
});

describe('RK4 dense output', () => {
  // x' = -x: x = e^-t; cubic Hermite from the step's end derivatives is O(h^4) between them
  const f = (dx: Float64Array, x: Float64Array) => void (dx[0] = -x[0]);
  const settings = { step: 0.01, stop: 1, rtol: DEFAULT_RTOL, atol: DEFAULT_ATOL, maxSteps: 1e6 };

  it('interpolates each step from its own first stage: the ends exactly, the middle to 1e-10', () => {
    const s = new Rk4Stepper(Float64Array.of(1), f, 0, settings);
    const out = new Float64Array(1);
    for (let i = 0; i < 3; i++) {
      const x0 = s.x[0];
      s.step(1);
      s.interpolate(s.tPrev, out);
      expect(out[0]).toBe(x0);
      s.interpolate(s.t, out);
      expect(out[0]).toBe(s.x[0]);
      const mid = (s.tPrev + s.t) / 2;
      s.interpolate(mid, out);
      expect(Math.abs(out[0] - Math.exp(-mid))).toBeLessThan(1e-10);
    }
  });

  it('after a restart, the state it was given', () => {
    const s = new Rk4Stepper(Float64Array.of(1), f, 0, settings);
    s.step(1);
    s.restart(Float64Array.of(0.5));
    const out = new Float64Array(1);
    s.interpolate(s.t, out);
    expect(out[0]).toBe(0.5);
  });
});
