// A pendulum on hard joint limits (limitKind 'impact'): every impact faster
// than restVelocity reverses the joint's speed times the restitution, so the
// kinetic energy after it is e^2 times the kinetic energy before. The oracle is energy
// conservation between impacts, computed apart from the model: a rod of mass
// m with its centre of mass at L from the joint, I_O = m L^2 + Izz, gravity
// -g along y, V(q) = m g L sin(q); the speed at limit b is
// sqrt(2 (E - V(b)) / I_O), and E after the impact is V(b) + e^2 (E - V(b)).
// Thrown up from q = 0.5 at 6 rad/s it hits the upper limit once, then the
// lower one 26 times, ever slower, until an impact below 1e-3 rad/s holds it.
import { describe, expect, it } from 'vitest';
import { Mechanism } from '../../../src/library/multibody/index.ts';
import type { JointOptions } from '../../../src/library/multibody/joint.ts';
import { compile } from '../../../src/compile.ts';
import { simulate } from '../../../src/sim/simulate.ts';
import { ModelError } from '../../../src/errors.ts';
import { eventRun } from './run-events.ts';

const m = 1,
  L = 0.5,
  Izz = 0.01,
  g = 9.80665,
  IO = m * L * L + Izz;
const V = (q: number) => m * g * L * Math.sin(q);

function pendulum(options: JointOptions) {
  const mech = new Mechanism('limited-pendulum');
  const j1 = mech.revolute('j1', { axis: [0, 0, 1], ...options });
  const link = mech.body('link', { m, rcm: [L, 0, 0], I: [0.001, Izz, Izz] });
  mech.connect(mech.world.frame_b, j1.frame_a);
  mech.connect(j1.frame_b, link.frame_a);
  return mech;
}

describe('a pendulum on hard joint limits', () => {
  const e = 0.7,
    lower = -1,
    upper = 1,
    q0 = 0.5,
    qd0 = 6;
  const compiled = compile(pendulum({ q: q0, qd: qd0, limits: [lower, upper], limitKind: 'impact', restitution: e }));
  for (const integrator of ['rk4', 'adaptive'] as const) {
    it(`${integrator}: rebound = e x impact speed, kinetic energy after = e^2 x before, against energy conservation`, () => {
      const run = eventRun(compiled, integrator, 4);
      run.runTo(4);
      const impacts = run.records.filter((r) => compiled.report.events![r.k].name.match(/limit_(upper|lower)$/));
      expect(impacts.length).toBeGreaterThanOrEqual(5);
      const E0 = 0.5 * IO * qd0 * qd0 + V(q0);
      let E = E0;
      for (const r of impacts) {
        const name = compiled.report.events![r.k].name;
        const b = name === 'j1.limit_upper' ? upper : lower;
        // at the limit: the crossing located on the method's own solution (sim/events.ts, polish)
        expect(Math.abs(r.before[0] - b)).toBeLessThan(1e-11);
        expect(Math.sign(r.before[1])).toBe(b === upper ? 1 : -1); // moving outward
        // the energy since the last impact conserved (the impact speed it implies: sqrt(2 (E - V(q)) / I_O))
        const kinetic = 0.5 * IO * r.before[1] ** 2;
        expect(Math.abs(kinetic + V(r.before[0]) - E)).toBeLessThan(1e-9 * E0);
        if (Math.abs(r.before[1]) >= 1e-3) {
          // a rebound: -e times the impact speed, e^2 times its kinetic energy
          expect(r.after[1]).toBeCloseTo(-e * r.before[1], 14);
          expect((0.5 * IO * r.after[1] ** 2) / kinetic).toBeCloseTo(e * e, 12);
        } else {
          expect(r.after[1]).toBe(0); // slower than restVelocity (default 1e-3 rad/s): held at the limit
        }
        E = V(r.before[0]) + 0.5 * IO * r.after[1] ** 2;
      }
      // the first impact is at the upper limit (thrown upward), the next at the lower one
      expect(compiled.report.events![impacts[0].k].name).toBe('j1.limit_upper');
      expect(compiled.report.events![impacts[1].k].name).toBe('j1.limit_lower');
    });
  }

  it('with e = 0 stops at the limit and rests there in the limit spring (penetration: the static deflection)', () => {
    const held = compile(pendulum({ q: q0, qd: 0, limits: [lower, upper], limitKind: 'impact', restitution: 0 }));
    const result = simulate(held, { stop: 3, step: 1e-3, interval: 0.1 });
    const q = result.get('j1.q');
    // never beyond the limit by more than the deflection under gravity, which it settles to
    const deflection = (m * g * L * Math.cos(lower)) / held.signal('j1.limit_c');
    expect(Math.min(...q)).toBeGreaterThan(lower - 1.5 * deflection);
    expect(result.final('j1.q')).toBeCloseTo(lower - deflection, 7);
    const counts = Object.fromEntries(result.events!.map((c) => [c.name, c.count]));
    expect(counts['j1.limit_lower']).toBeGreaterThanOrEqual(1);
    expect(counts['j1.limit_lower_leave']).toBe(0);
  });

  it('keeps the spring limits of limits: [lower, upper] alone as they were (no events)', () => {
    const spring = compile(pendulum({ q: q0, limits: [lower, upper] }));
    expect(spring.report.events).toBeUndefined();
    expect(spring.data.events).toBeUndefined();
  });

  it('refuses impact options it cannot use, naming the joint', () => {
    const bad: [JointOptions, RegExp][] = [
      [{ limits: [lower, upper], limitKind: 'impact', restitution: 1.5 }, /restitution 1.5 is not in \[0, 1\]/],
      [{ limitKind: 'impact' }, /limitKind 'impact' without limits/],
      [{ limits: [lower, upper], restitution: 0.5 }, /restitution or restVelocity without limitKind: 'impact'/],
      [{ limits: [lower, upper], limitKind: 'impact', restVelocity: -1 }, /restVelocity -1 is not a finite number >= 0/],
    ];
    for (const [options, message] of bad) {
      expect(() => pendulum(options)).toThrow(ModelError);
      expect(() => pendulum(options)).toThrow(message);
    }
  });
});
