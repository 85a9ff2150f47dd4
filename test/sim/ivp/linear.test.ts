// The linear stiff problem y' = λ (y - cos t) - sin t, y(0) = 1, whose exact
// solution is cos t for every λ (Prothero and Robinson's form of Hairer &
// Wanner II's first example, §IV.1). With λ = -1e6 an explicit method needs |λ| h within its stability
// region (RK4: h < 2.785e-6, so 3.6e6 steps for t in [0, 10]; Cash-Karp's
// error control is forced to about as many): not run here. RADAU5 is
// L-stable and takes its steps by the accuracy of cos t alone.
import { describe, expect, it } from 'vitest';
import { Model, der } from '../../../src/model/index.ts';
import { add, mul, sub } from '../../../src/expr/index.ts';
import { compile } from '../../../src/compile.ts';
import { type RunStats, simulate } from '../../../src/sim/simulate.ts';
import { Radau5Stepper } from '../../../src/sim/steppers/radau5.ts';

const LAMBDA = -1e6;
const f = (dx: Float64Array, x: Float64Array, t: number) => {
  dx[0] = LAMBDA * (x[0] - Math.cos(t)) - Math.sin(t);
};

describe("RADAU5 on y' = λ (y - cos t) - sin t, λ = -1e6", () => {
  it('reaches t = 10 in a handful of steps, within a small multiple of the tolerance, with one Jacobian (by differences)', () => {
    // free to choose its steps (no samples in between) it takes steps of seconds: the stiff
    // component's error is what the filtered estimate (I - h γ J)⁻¹ barely sees, and Radau IIA's
    // order falls to its stage order 3 in the stiff limit (the Prothero-Robinson order reduction,
    // Hairer & Wanner II §IV.15): 2.0e-6 at rtol = atol = 1e-6 measured, in 9 steps
    const s = new Radau5Stepper(Float64Array.of(1), f, 0, { step: 1e-6, stop: 10, rtol: 1e-6, atol: 1e-6, maxSteps: 1e6 });
    let worst = 0;
    while (s.t < 10) {
      s.step(10);
      worst = Math.max(worst, Math.abs(s.x[0] - Math.cos(s.t)));
    }
    expect(s.t).toBe(10);
    expect(worst).toBeLessThan(1e-5);
    expect(s.stats.steps).toBeLessThan(20);
    expect(s.stats.jacobians).toBe(1); // linear in y: Newton converges at once, J is kept throughout
  });

  it('its dense output, the collocation polynomial, matches cos t between steps to the tolerance', () => {
    // the polynomial is of order 3 (the stage order) and its error, O(h^4), is not what the error
    // estimate controls (the end value, order 5): driven as simulate() drives it, to a sample every
    // 0.1 s, its steps stay short enough (7.5e-8 measured; 4.7e-5 with samples every 0.5 s)
    const s = new Radau5Stepper(Float64Array.of(1), f, 0, { step: 1e-6, stop: 10, rtol: 1e-6, atol: 1e-6, maxSteps: 1e6 });
    const out = new Float64Array(1);
    let worst = 0,
      ends = 0,
      steps = 0;
    for (let k = 1; k <= 100; k++) {
      const until = k / 10;
      while (s.t < until) {
        s.step(until);
        steps++;
        ends = Math.max(ends, Math.abs(s.x[0] - Math.cos(s.t)));
        for (let q = 0; q <= 8; q++) {
          const t = s.tPrev + ((s.t - s.tPrev) * q) / 8;
          s.interpolate(t, out);
          worst = Math.max(worst, Math.abs(out[0] - Math.cos(t)));
        }
      }
    }
    expect(ends).toBeLessThan(1e-7); // steps of 0.1 s at most: the step ends well within the tolerance (1.2e-11 measured)
    expect(worst).toBeLessThan(1e-6);
    expect(steps).toBeLessThan(150);
  });

  it("runs through simulate({ integrator: 'radau' }) on a compiled model, sampled every 0.1 s, and reports its statistics", () => {
    const m = new Model('stiff');
    const x = m.variable('x', { start: 1 }),
      u = m.input('u'),
      w = m.input('w');
    m.equation(der(x), add(mul(LAMBDA, sub(x, u)), w));
    const r = simulate(compile(m), { stop: 10, step: 0.1, integrator: 'radau', rtol: 1e-6, atol: 1e-6, inputs: { u: Math.cos, w: (t) => -Math.sin(t) } });
    expect(r.length).toBe(101);
    expect(Math.max(...r.get('x').map((v, k) => Math.abs(v - Math.cos(r.time[k]))))).toBeLessThan(1e-6);
    // simulate() attaches the run's statistics to its result (RunStats)
    const { integration } = r as RunStats;
    expect(integration?.integrator).toBe('radau');
    expect(integration?.steps).toBeGreaterThanOrEqual(100);
    expect(integration?.steps).toBeLessThan(150);
    expect(integration?.jacobians).toBeGreaterThan(0);
    expect(integration?.decompositions).toBeGreaterThan(0);
  });
});
