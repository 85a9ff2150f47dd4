// The radau stepper (RADAU5) as simulate() and the CLI use it: issue 30's
// stiff arm and the PUMA against independent runs (RK4 at a stable step,
// the explicit adaptive integrator at a tight tolerance), the Stepper
// contract (restart, project, dense output before a step), and its typed
// failures. The published test problems are in test/sim/ivp/.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SimulationError, compile, parseUrdf, simulate, urdfMechanism } from '../../../src/api.ts';
import type { RunStats } from '../../../src/sim/simulate.ts';
import { Radau5Stepper } from '../../../src/sim/steppers/radau5.ts';
import { StepFailure, type StepperSettings } from '../../../src/sim/steppers/stepper.ts';
import arm from '../fixtures/arm3.ts';

const settings = (more: Partial<StepperSettings> = {}): StepperSettings => ({ step: 1e-3, stop: 2, rtol: 1e-6, atol: 1e-9, maxSteps: 1e6, ...more });
const run = (s: Radau5Stepper, until: number) => {
  while (s.t < until) s.step(until);
};
const thrown = (f: () => void): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
};

describe("issue 30's arm (fixtures/arm3.ts, kp 200, kd 30): stiff for RK4 at 1e-3", () => {
  const compiled = compile(arm());
  const options = { stop: 3, step: 1e-3, interval: 0.05, signals: ['j1.q', 'pd1.tau'] };
  it('settles at j1.q 0.39476, pd1.tau 21.047 with the default tolerances, and agrees with RK4 at its stable step 5e-4 all along', () => {
    const radau = simulate(compiled, { ...options, integrator: 'radau' });
    const rk4 = simulate(compiled, { ...options, step: 5e-4 });
    expect(radau.final('j1.q')).toBeCloseTo(0.39476, 5);
    expect(radau.final('pd1.tau')).toBeCloseTo(21.047, 3);
    // within the tolerances (rtol 1e-6 of values of order 1 to 100), at every sample of the transient
    for (const [name, scale] of [
      ['j1.q', 1],
      ['pd1.tau', 100],
    ] as const) {
      const a = radau.get(name),
        b = rk4.get(name);
      expect(Math.max(...a.map((v, k) => Math.abs(v - b[k])))).toBeLessThan(1e-5 * scale);
    }
    const { integration } = radau as RunStats; // simulate() attaches the run's statistics
    expect(integration).toMatchObject({ integrator: 'radau' });
    expect(integration!.jacobians).toBeGreaterThan(0);
  });
});

describe('the PUMA 560 (mechanisms/puma560.urdf) falling under gravity for 2 s', () => {
  // j2 falls onto its lower limit, a one-sided spring-damper whose force has a kink where it engages:
  // the error estimates of both integrators see the kink only as a large error, so the agreement is
  // 10-100 times the tolerance asked (measured: 1.3e-4 in j5.qd of 16 rad/s at rtol 1e-6; 8e-7 at 1e-10)
  it('agrees with the explicit adaptive integrator at a tight tolerance (rtol 1e-9) in every state, closer with a tighter tolerance', () => {
    const compiled = compile(urdfMechanism(parseUrdf(readFileSync(new URL('../../../mechanisms/puma560.urdf', import.meta.url), 'utf8'))).mechanism);
    const base = { stop: 2, step: 1e-3, interval: 0.1 };
    const reference = simulate(compiled, { ...base, integrator: 'adaptive', rtol: 1e-9, atol: 1e-12 });
    for (const [rtol, atol, within] of [
      [1e-6, 1e-9, 1e-4],
      [1e-10, 1e-12, 1e-6],
    ] as const) {
      const r = simulate(compiled, { ...base, integrator: 'radau', rtol, atol });
      for (const name of compiled.stateNames) {
        const a = r.get(name),
          b = reference.get(name);
        expect(Math.max(...a.map((v, k) => Math.abs(v - b[k])))).toBeLessThan(within * Math.max(1, ...b.map(Math.abs)));
      }
    }
  });
});

describe('the Stepper contract', () => {
  it('restart(x) goes on from the new state at the same time, with a fresh Jacobian', () => {
    const s = new Radau5Stepper(Float64Array.of(1), (dx, y) => void (dx[0] = -y[0]), 0, settings({ rtol: 1e-10, atol: 1e-12 }));
    run(s, 1);
    const jacobians = s.stats.jacobians;
    s.restart(Float64Array.of(2));
    expect([s.t, s.tPrev]).toEqual([1, 1]);
    const out = new Float64Array(1);
    s.interpolate(1, out);
    expect(out[0]).toBe(2); // no polynomial from before the restart
    run(s, 2);
    expect(s.x[0]).toBeCloseTo(2 * Math.exp(-1), 9);
    expect(s.stats.jacobians).toBeGreaterThan(jacobians);
  });
  it('calls project on the state after every accepted step, and never steps past until', () => {
    let projected = 0;
    const s = new Radau5Stepper(Float64Array.of(0, 1), (dx, y) => ((dx[0] = y[1]), (dx[1] = -y[0])), 0, settings({ project: () => void projected++ }));
    for (const until of [0.3, 0.7, 2]) {
      run(s, until);
      expect(s.t).toBe(until);
    }
    expect(projected).toBe(s.stats.steps);
    expect(s.x[0]).toBeCloseTo(Math.sin(2), 5);
  });
});

describe('typed failures, never a hang or a NaN', () => {
  it('more than maxSteps steps: a SimulationError with the time reached', () => {
    const s = new Radau5Stepper(
      Float64Array.of(2, 0),
      (dx, y) => ((dx[0] = y[1]), (dx[1] = ((1 - y[0] * y[0]) * y[1] - y[0]) / 1e-6)),
      0,
      settings({ maxSteps: 50 }),
    );
    const e = thrown(() => run(s, 2)) as SimulationError;
    expect(e).toBeInstanceOf(SimulationError);
    expect(e.message).toMatch(/^the radau integrator took more than 50 steps and reached time 0\.\d+ of 2$/);
  });
  it("a solution running away to infinity (y' = y², y(0) = 1, infinite at t = 1): step size too small, at the time", () => {
    const s = new Radau5Stepper(Float64Array.of(1), (dx, y) => void (dx[0] = y[0] * y[0]), 0, settings());
    const e = thrown(() => run(s, 2)) as SimulationError;
    expect(e).toBeInstanceOf(SimulationError);
    expect(e.message).toMatch(/^the radau integrator could not take a step from time 1\.0000\d+: the step size fell to .* below rounding$/);
    expect(e.details.hint).toMatch(/runs away to infinity/);
  });
  it('a singular iteration matrix (a Jacobian that is not finite): a SimulationError after five step sizes', () => {
    const s = new Radau5Stepper(Float64Array.of(1), (dx, y) => void (dx[0] = -y[0]), 0, settings({ jacobian: (J) => void (J[0] = NaN) }));
    const e = thrown(() => run(s, 2)) as SimulationError;
    expect(e).toBeInstanceOf(SimulationError);
    expect(e.message).toMatch(/iteration matrix I - h γ ∂f\/∂x is singular at time 0 \(step .* five step sizes tried\)/);
  });
  it("the model's own error at every stage (a loop that cannot close): retried with shorter steps, then thrown as it is", () => {
    const closure = new SimulationError('loop L1 does not close at time 0.5', { hint: 'the model says why' });
    const s = new Radau5Stepper(
      Float64Array.of(0),
      (dx, _y, t) => {
        if (t > 0.5) throw closure;
        dx[0] = 1;
      },
      0,
      settings(),
    );
    expect(thrown(() => run(s, 2))).toBe(closure);
    expect(s.t).toBe(0.5);
    expect(s.stats.rejected).toBeGreaterThan(10);
  });
  it('derivatives that turn NaN: a StepFailure from the last good state (simulate() names the variable)', () => {
    const s = new Radau5Stepper(Float64Array.of(0), (dx, _y, t) => void (dx[0] = t > 0.5 ? NaN : 1), 0, settings());
    const e = thrown(() => run(s, 2)) as StepFailure;
    expect(e).toBeInstanceOf(StepFailure);
    expect(e.t).toBe(0.5);
    expect(e.x[0]).toBeCloseTo(0.5, 12);
    expect(s.x.every(Number.isFinite)).toBe(true);
  });
});
