// radau with a Jacobian that keeps parts (settings.jacobian returning true:
// sim/contact-jacobian.ts keeps its rigid part between calls). Oracle: the
// closed form of x' = -k x², x(t) = x0 / (1 + k x0 t), stiff at the start
// (∂f/∂x = -2 k x = -2e4) and less so as x decays, so radau forms J again
// as it goes. The provider here keeps J from its last whole formation —
// stale, as kept parts are — unless radau asks for a whole one: radau's
// first J is whole, a failure with a kept J is followed by a whole one at
// the same state, and the solution is the closed form's whatever J was.
import { describe, expect, it } from 'vitest';
import { Radau5Stepper } from '../../../src/sim/steppers/radau5.ts';
import type { JacobianFn } from '../../../src/sim/steppers/stepper.ts';

const K = 1e4,
  X0 = 1;

describe('radau with a Jacobian that keeps parts', () => {
  it('asks for a whole J first and after a failure with kept parts; the solution is the closed form', () => {
    const calls: { t: number; full: boolean }[] = [];
    let stale = -2 * K * X0;
    const jacobian: JacobianFn = (J, x, t, _fx, full) => {
      calls.push({ t, full });
      if (full) stale = -2 * K * x[0];
      J[0] = stale;
      return !full;
    };
    let rejectedAfterKept = 0;
    const s = new Radau5Stepper(Float64Array.of(X0), (dx, y) => void (dx[0] = -K * y[0] * y[0]), 0, {
      step: 1e-6,
      stop: 1,
      rtol: 1e-8,
      atol: 1e-12,
      maxSteps: 1e6,
      jacobian,
    });
    for (const until of [1e-3, 1e-2, 0.1, 1]) {
      while (s.t < until) s.step(until);
      expect(Math.abs(s.x[0] - X0 / (1 + K * X0 * until)), `x at ${until}`).toBeLessThan(1e-7 * (X0 / (1 + K * X0 * until)));
    }
    expect(calls[0].full).toBe(true);
    // a whole J at the time of a kept one: radau asked again after the kept J failed there
    for (let i = 1; i < calls.length; i++) if (calls[i].full && !calls[i - 1].full && calls[i].t === calls[i - 1].t) rejectedAfterKept++;
    expect(calls.some((c) => !c.full)).toBe(true);
    expect(rejectedAfterKept).toBeGreaterThan(0);
    expect(s.stats.jacobians).toBe(calls.length);
  });
});
