// The adaptive integrator (Cash-Karp RK45 from ode45-cash-karp) against
// closed forms: error within the tolerances, samples on the RK4 grid, and
// the failures it reports instead of hanging or returning NaN.
import { describe, expect, it } from 'vitest';
import { add, div, mul, sub } from '../../src/expr/index.ts';
import { Model, der } from '../../src/model/index.ts';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { SimulationError, UsageError } from '../../src/errors.ts';

/** x'' = -w^2 x, x(0) = 1: x = cos(w t) */
function oscillator(w: number) {
  const m = new Model('oscillator');
  const x = m.variable('x', { start: 1 }),
    v = m.variable('v', { start: 0 });
  m.equation(der(x), v);
  m.equation(der(v), mul(-w * w, x));
  return compile(m);
}

/** x' = -k x (k large): stiff for an explicit method */
function decay(k: number) {
  const m = new Model('decay');
  const x = m.variable('x', { start: 1 });
  m.equation(der(x), mul(-k, x));
  return compile(m);
}

describe("simulate({ integrator: 'adaptive' })", () => {
  it('follows cos(w t) to within the tolerance, and closer with a tighter one', () => {
    const error = (rtol: number) => {
      const r = simulate(oscillator(2), { stop: 5, step: 0.1, integrator: 'adaptive', rtol, atol: rtol * 1e-3, signals: ['x'] });
      return Math.max(...r.get('x').map((x, k) => Math.abs(x - Math.cos(2 * r.time[k]))));
    };
    const loose = error(1e-5),
      tight = error(1e-10);
    expect(loose).toBeLessThan(1e-3);
    expect(tight).toBeLessThan(1e-8);
    expect(tight).toBeLessThan(loose / 100);
  });
  it('samples on the same grid as RK4, ending exactly at stop', () => {
    const c = oscillator(1);
    const a = simulate(c, { stop: 1.05, step: 0.1, interval: 0.2, integrator: 'adaptive' });
    const b = simulate(c, { stop: 1.05, step: 0.1, interval: 0.2 });
    expect([...a.time]).toEqual([...b.time]);
    expect(a.time[a.length - 1]).toBe(1.05);
    expect(a.final('x')).toBeCloseTo(Math.cos(1.05), 6);
  });
  it("is more accurate than RK4 for the same number of evaluations on x' = -x/2 (steps grow where the tolerance allows)", () => {
    const m = new Model('decay');
    const x = m.variable('x', { start: 1 }),
      u = m.input('u');
    m.equation(der(x), add(mul(-0.5, x), u));
    const c = compile(m);
    const run = (options: Partial<Parameters<typeof simulate>[1]>) => {
      let evaluations = 0;
      const r = simulate(c, { stop: 10, step: 1, interval: 1, ...options, inputs: { u: () => (evaluations++, 0) } });
      const error = Math.max(...r.get('x').map((v, k) => Math.abs(v - Math.exp(-0.5 * r.time[k]))));
      return { evaluations, error, samples: r.length };
    };
    const adaptive = run({ integrator: 'adaptive', rtol: 1e-8, atol: 1e-12 });
    expect(adaptive.samples).toBe(11);
    expect(adaptive.error).toBeLessThan(1e-8);
    const steps = Math.floor(adaptive.evaluations / 4); // RK4: four evaluations per step
    const rk4 = run({ step: 10 / steps, interval: undefined });
    expect(rk4.evaluations).toBeLessThanOrEqual(adaptive.evaluations + steps + 1); // + one refresh per sample
    expect(rk4.error).toBeGreaterThan(10 * adaptive.error); // measured: 3.1e-8 against 1.2e-9
  });
  it('reads inputs given as functions of time', () => {
    const m = new Model('ramp');
    const x = m.variable('x', { start: 0 }),
      u = m.input('u');
    m.equation(der(x), u);
    const r = simulate(compile(m), { stop: 2, step: 0.5, integrator: 'adaptive', inputs: { u: (t) => 3 * t * t } });
    expect(r.final('x')).toBeCloseTo(8, 8); // x = t^3
  });
  it('rejects tolerances <= 0 and unknown integrators', () => {
    const c = oscillator(1);
    expect(() => simulate(c, { stop: 1, step: 0.1, integrator: 'adaptive', rtol: 0 })).toThrow(UsageError);
    expect(() => simulate(c, { stop: 1, step: 0.1, integrator: 'adaptive', atol: -1 })).toThrow(/atol -1 must be a finite number > 0/);
    expect(() => simulate(c, { stop: 1, step: 0.1, integrator: 'euler' as 'rk4' })).toThrow(/integrator "euler" is not known/);
  });
  it('stops at a non-finite value, naming the time and the first non-finite variable', () => {
    const m = new Model('blowup');
    const x = m.variable('x', { start: 0 }),
      g = m.variable('g');
    m.equation(g, div(1, sub(1, x))); // infinite at x = 1, reached at t = 1
    m.equation(der(x), add(1, mul(1e-300, g)));
    expect(() => simulate(compile(m), { stop: 2, step: 0.25, integrator: 'adaptive' })).toThrow(
      /non-finite value appeared in the step from time 0.75, at time 1: first non-finite variable g \(g = 1\/\(1 - x\)\)/,
    );
  });
  it("gives up with a SimulationError when the step size collapses at a singularity (x' = 1/(1 - x) ends at t = 0.5)", () => {
    const m = new Model('singular');
    const x = m.variable('x', { start: 0 });
    m.equation(der(x), div(1, sub(1, x)));
    expect(() => simulate(compile(m), { stop: 1, step: 0.01, integrator: 'adaptive' })).toThrow(SimulationError);
    expect(() => simulate(compile(m), { stop: 1, step: 0.01, integrator: 'adaptive' })).toThrow(/adaptive step size fell below 1.00e-12 at time 0.50000/);
  });
  it('gives up with a SimulationError after maxSteps on a stiff model, instead of running for hours', () => {
    expect(() => simulate(decay(1e9), { stop: 1, step: 0.01, integrator: 'adaptive', maxSteps: 1000 })).toThrow(/took more than 1000 steps/);
  });
});
