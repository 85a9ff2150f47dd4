// Sticking contacts and the fixed step: the contact's tangential effective
// mass against the closed form of a solid sphere on the ground (a force at
// the contact point accelerates the point by 1/m + r^2/I = 3.5/m, so
// m_t = 2 m / 7); the stick check throws exactly beyond h = 2.785 v_s m_t /
// (mu fn); the default integrator goes on with radau where a sphere starts
// rolling and ends at 5 v0 / 7, and rk4 at that step stops with the error.
import { describe, expect, it } from 'vitest';
import { ContactScene, SimulationError, compile, simulate } from 'kron';
import build, { parameters as P } from '../../mechanisms/sphere-on-plane.ts';
import { ContactRun } from '../../src/contact/run.ts';
import { checkStickStep } from '../../src/sim/stick-step.ts';

describe('sticking contacts', () => {
  // the sphere rolling without slip at its rest penetration: v = 1, w = -v / arm
  function rolling() {
    const mech = build({ v0: 1 });
    const compiled = compile(mech);
    const scene = ContactScene.of(mech);
    const runs = [0, 1].map(() => new ContactRun(scene, compiled.createState()));
    const x = compiled.x0();
    const arm = P.radius - (P.m * P.g) / P.k / 2;
    x[compiled.stateNames.indexOf('j.w[3]')] = -1 / arm;
    runs.forEach((r) => r.apply(0, x));
    return { runs, x };
  }

  it('tangential effective mass of a solid sphere at its contact point: 2 m / 7', () => {
    const {
      runs: [run],
      x,
    } = rolling();
    expect(run.contacts.count).toBe(1);
    expect(run.sticks[0]).toBe(1);
    const arm = P.radius - (P.m * P.g) / P.k / 2,
      I = (2 / 5) * P.m * P.radius ** 2;
    for (const e of [
      [1, 0, 0],
      [0, 0, 1],
    ])
      expect(Math.abs(run.tangentialMass(0, 0, x, e) / (1 / (1 / P.m + (arm * arm) / I)) - 1)).toBeLessThan(1e-9);
  });

  it('the stick check: stable below 2.785 v_s m_t / (mu fn), a StiffModeError naming the contact above', () => {
    const {
      runs: [run, probe],
      x,
    } = rolling();
    const arm = P.radius - (P.m * P.g) / P.k / 2,
      I = (2 / 5) * P.m * P.radius ** 2;
    const mt = 1 / (1 / P.m + (arm * arm) / I),
      fn = probe.normalForces[0];
    const limit = (2.785 * 1e-4 * mt) / (P.mu * fn);
    expect(() => checkStickStep(run, probe, 0, x, 0.99 * limit)).not.toThrow();
    expect(() => checkStickStep(run, probe, 0, x, 1.01 * limit)).toThrow(
      /unstable for the friction of the contact between world.ground and ball.collision1 at time 0: it sticks/,
    );
  });

  it('at the default step: auto goes on with radau and rolls at 5 v0 / 7; rk4 stops with a SimulationError', () => {
    const mech = build();
    const compiled = compile(mech);
    const res = simulate(compiled, { stop: 0.4, step: 1e-3, interval: 0.2, contact: ContactScene.of(mech), signals: ['j.v[1]'] });
    expect(Math.abs(res.final('j.v[1]') / ((5 * P.v0) / 7) - 1)).toBeLessThan(1e-4);
    expect(() => simulate(compiled, { stop: 0.4, step: 1e-3, integrator: 'rk4', contact: ContactScene.of(mech) })).toThrow(SimulationError);
  });
});
