// The default integrator, auto (sim/steppers/auto.ts): RK4 at the fixed step
// while that step is stable for the model, radau from the first point where
// RK4's stability check finds it is not. Oracles: a model RK4 handles runs
// bit for bit as --integrator rk4 (the same stepper, the same steps); a
// model that turns stiff mid-run follows RK4 up to the switch and radau at a
// tight tolerance after it; the switch's time is where the model changed.
import { describe, expect, it } from 'vitest';
import { Model, compile, der, mul, simulate, sub } from '../../src/api.ts';
import fourbar from '../../mechanisms/fourbar.ts';

describe('integrator auto (the default)', () => {
  it('a model RK4 handles: exactly the rk4 run, and the result says rk4 ran', () => {
    const c = compile(fourbar());
    const options = { stop: 1, step: 1e-3, interval: 0.01 };
    const auto = simulate(c, options),
      rk4 = simulate(c, { ...options, integrator: 'rk4' });
    for (const n of c.stateNames) expect([...auto.get(n)]).toEqual([...rk4.get(n)]);
    expect(auto.integration).toEqual(rk4.integration);
    expect(auto.integration!.integrator).toBe('rk4');
    expect(auto.integration!.switched).toBeUndefined();
  });

  it('a model that turns stiff at t = 1.5: RK4 up to there, radau after, and the switch at 1.5', () => {
    // x'' = -k x - c x': k = 1, c = 0.1 until t = 1.5, then k = 1e8, c = 2.5e4 (eigenvalues -5e3 and -2e4: RK4 at 1e-3 unstable)
    const m = new Model('stiffens');
    const x = m.variable('x', { start: 1 }),
      v = m.variable('v', { start: 0 });
    const k = m.input('k'),
      c = m.input('c');
    m.equation(der(x), v);
    m.equation(der(v), sub(mul(-1, mul(k, x)), mul(c, v)));
    const compiled = compile(m);
    const inputs = { k: (t: number) => (t < 1.5 ? 1 : 1e8), c: (t: number) => (t < 1.5 ? 0.1 : 2.5e4) };
    const options = { stop: 2, step: 1e-3, interval: 0.05, inputs };
    const auto = simulate(compiled, options);
    expect(auto.integration!.integrator).toBe('radau');
    expect(auto.integration!.switched!.time).toBe(1.5);
    expect(auto.integration!.switched!.reason).toMatch(/is unstable for this model at time 1\.5: the mode with eigenvalue -2\.000e\+4 1\/s/);
    const rk4 = simulate(compiled, { ...options, stop: 1.5, integrator: 'rk4' });
    const radau = simulate(compiled, { ...options, integrator: 'radau', rtol: 1e-10, atol: 1e-13 });
    auto.time.forEach((t, i) => {
      if (t < 1.5) expect(auto.get('x')[i]).toBe(rk4.get('x')[i]);
      else expect(Math.abs(auto.get('x')[i] - radau.get('x')[i])).toBeLessThan(1e-5);
    });
    // RK4's steps and radau's, counted together
    expect(auto.integration!.steps).toBeGreaterThan(1500);
    expect(auto.integration!.jacobians).toBeGreaterThan(0);
  });
});
