// The energy signals energy.kinetic, energy.potential, energy.total of a
// Mechanism against independent computations: the four-bar's bodies from
// their frame signals (loop-helpers.ts, energyAt), a sprung pendulum under an
// oblique gravity in closed form; conservation over a run, with the drift
// shown to be RK4's by halving the step (a fourth-order method's error falls
// ~16-fold); and they cost derivatives() nothing.
import { describe, expect, it } from 'vitest';
import fourbar from '../../mechanisms/fourbar.ts';
import { compile } from '../../src/compile.ts';
import { BodyCylinder, Mechanism } from '../../src/library/multibody/index.ts';
import { components } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { cylinderSignals, energyAt } from '../multibody/loop-helpers.ts';

const ENERGY = ['energy.kinetic', 'energy.potential', 'energy.total'];

describe('energy signals against independent computations', () => {
  it('four-bar (kinematic loop, torn and relaxed): energy.total equals energyAt from the frame signals at every sample (1e-12 J)', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const m = fourbar();
      const compiled = compile(m, { mode });
      const cylinders = components(m).filter((c): c is BodyCylinder => c instanceof BodyCylinder);
      expect(cylinders.length).toBe(3);
      const res = simulate(compiled, { stop: 1, step: 1e-3, interval: 0.01, signals: [...ENERGY, ...cylinders.flatMap(cylinderSignals)] });
      let largest = 0;
      for (let k = 0; k < res.length; k++) {
        const want = energyAt(res, cylinders, k);
        expect(Math.abs(res.get('energy.total')[k] - want), `${mode} t = ${res.time[k]}`).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want)));
        expect(res.get('energy.total')[k]).toBeCloseTo(res.get('energy.kinetic')[k] + res.get('energy.potential')[k], 12);
        largest = Math.max(largest, res.get('energy.kinetic')[k]);
      }
      expect(largest).toBeGreaterThan(1); // the crank turns at 300 deg/s
    }
  });

  it('sprung pendulum under gravity (1, -9, 2): T = 1/2 (m L^2 + Izz) qd^2, V = -m g . r_cm + 1/2 c (q - q0)^2 (1e-12)', () => {
    const g = [1, -9, 2] as const,
      mass = 2,
      L = 0.7,
      Izz = 0.05,
      c = 3,
      q0 = 0.4;
    const m = new Mechanism('sprung', { gravity: g });
    const j = m.revolute('j', { axis: [0, 0, 1], c, q0 });
    const rod = m.body('rod', { m: mass, rcm: [L, 0, 0], I: [0.01, 0.05, Izz] });
    m.connect(m.world.frame_b, j.frame_a);
    m.connect(j.frame_b, rod.frame_a);
    for (const mode of ['torn', 'relaxed'] as const) {
      const compiled = compile(m, { mode });
      for (const [q, qd] of [
        [0.3, -2],
        [-2.5, 0.7],
        [1.9, 4],
      ]) {
        compiled.derivatives(0, Float64Array.of(q, qd), new Float64Array(2));
        const T = 0.5 * (mass * L * L + Izz) * qd * qd;
        const V = -mass * (g[0] * L * Math.cos(q) + g[1] * L * Math.sin(q)) + 0.5 * c * (q - q0) ** 2;
        expect(compiled.signal('energy.kinetic')).toBeCloseTo(T, 12);
        expect(compiled.signal('energy.potential')).toBeCloseTo(V, 12);
        expect(compiled.signal('energy.total')).toBeCloseTo(T + V, 12);
      }
    }
  });

  it('are computed in the outputs pass only: derivatives() has the ops of the same mechanism whose energy component is taken', () => {
    // a component of the user's own named energy keeps the name: the mechanism then has no energy signals
    const build = (own: boolean) => {
      const m = new Mechanism('p');
      const j = m.revolute('j', { axis: [0, 0, 1], c: 2 });
      const rod = m.body('rod', { m: 1, rcm: [0.5, 0, 0], I: [0.001, 0.01, 0.01] });
      m.connect(m.world.frame_b, j.frame_a);
      m.connect(j.frame_b, rod.frame_a);
      if (own) m.connect(m.world.frame_b, m.bar('energy', { r: [0, 0, 0] }).frame_a);
      return compile(m);
    };
    const [withEnergy, without] = [build(false), build(true)];
    expect(withEnergy.signalNames()).toEqual(expect.arrayContaining(ENERGY));
    expect(without.signalNames()).not.toContain('energy.total');
    expect(withEnergy.report.ops).toEqual(without.report.ops);
    expect(withEnergy.report.outputOps.mul).toBeGreaterThan(without.report.outputOps.mul);
  });
});

describe('energy conservation over a run (RK4)', () => {
  /** largest |E(t) - E(0)| over the run */
  const drift = (step: number, mode: 'torn' | 'relaxed') => {
    const res = simulate(compile(fourbar(), { mode }), { stop: 2, step, interval: 0.01, signals: ['energy.total'] });
    const E = res.get('energy.total');
    return { drift: Math.max(...Array.from(E, (e) => Math.abs(e - E[0]))), E0: E[0] };
  };
  it("four-bar, 2 s: drift below 1e-6 of E(0) at h = 1e-3, and ~16 times less at h = 5e-4 (fourth order: it is the integrator's)", () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const [a, b] = [drift(1e-3, mode), drift(5e-4, mode)];
      console.log(
        `four-bar ${mode}: E(0) = ${a.E0} J, drift ${a.drift.toExponential(3)} J at h = 1e-3, ${b.drift.toExponential(3)} J at h = 5e-4, ratio ${(a.drift / b.drift).toFixed(1)}`,
      );
      expect(a.drift).toBeLessThan(1e-6 * Math.abs(a.E0));
      expect(a.drift / b.drift).toBeGreaterThan(8);
      expect(a.drift / b.drift).toBeLessThan(32);
    }
  });
});
