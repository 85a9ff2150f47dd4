// Contact through the compiled model: torn and relaxed forms agree at random
// states with contacts active (the same contact inputs, the same derivatives
// to 1e-10); two spheres colliding in zero gravity conserve momentum and
// leave with the closed form of the law's restitution (elastic, and damped
// with the effective mass m1 m2 / (m1 + m2)); a body without collision geometry has
// no contact inputs (existing models unchanged).
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';
import { rng } from '../structure/helpers.ts';
import { scene } from './forms-scene.ts';
import { linearRestitution } from './closed-forms.ts';

describe('contact in both solve forms', () => {
  it('torn and relaxed: the same derivatives at random states with contacts, to 1e-10', () => {
    const forms = (['torn', 'relaxed'] as const).map((mode) => {
      const mech = scene();
      const compiled = compile(mech, { mode });
      const state = compiled.createState();
      return { compiled, state, run: new ContactRun(ContactScene.of(mech), state) };
    });
    const names = forms[0].compiled.stateNames;
    expect([...forms[1].compiled.stateNames].sort()).toEqual([...names].sort());
    const r = rng(32);
    let contacts = 0;
    const pairsWithContact = new Set<number>();
    for (let trial = 0; trial < 40; trial++) {
      const values: Record<string, number> = {};
      const unit = () => {
        const q = [1, 0.3 * (r() - 0.5), 0.3 * (r() - 0.5), 0.3 * (r() - 0.5)],
          n = Math.hypot(...q);
        return q.map((v) => v / n);
      };
      for (const j of ['base', 'fly']) {
        unit().forEach((v, i) => (values[`${j}.Q[${i + 1}]`] = v));
        for (let i = 1; i <= 3; i++) ((values[`${j}.v[${i}]`] = r() - 0.5), (values[`${j}.w[${i}]`] = 2 * (r() - 0.5)));
      }
      // the box and the ball low enough to touch the ground, the ball near the box, the arm turned anywhere
      ((values['base.r[1]'] = 0), (values['base.r[2]'] = 0.05 + 0.1 * r()), (values['base.r[3]'] = 0));
      ((values['fly.r[1]'] = 0.25 + 0.2 * (r() - 0.5)), (values['fly.r[2]'] = 0.05 + 0.3 * r()), (values['fly.r[3]'] = 0.2 * (r() - 0.5)));
      ((values['hinge.q'] = -1.5 + 3 * r()), (values['hinge.qd'] = r() - 0.5));
      const results = forms.map(({ compiled, state, run }) => {
        const x = new Float64Array(compiled.stateNames.length);
        compiled.stateNames.forEach((n, i) => (x[i] = values[n]));
        const dx = new Float64Array(x.length);
        run.apply(0, x);
        state.derivatives(0, x, dx);
        const byName = Object.fromEntries(compiled.stateNames.map((n, i) => [n, dx[i]]));
        return { byName, count: run.contacts.count, pairs: [...run.contacts.pair.subarray(0, run.contacts.count)], u: [...state.u] };
      });
      expect(results[1].count).toBe(results[0].count);
      contacts += results[0].count;
      results[0].pairs.forEach((p) => pairsWithContact.add(p));
      for (const n of names) {
        const [a, b] = [results[0].byName[n], results[1].byName[n]];
        expect(Math.abs(a - b), `${n} at trial ${trial}`).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(a)));
      }
    }
    expect(contacts).toBeGreaterThan(40);
    // box-ground, arm-ground, ball-ground and ball-box or ball-arm all met
    expect(pairsWithContact.size).toBeGreaterThanOrEqual(4);
  });
});

describe('two spheres colliding in zero gravity (no friction)', () => {
  // (damping c of the pair, integrator options) => the outgoing velocities, checked: momentum to 1e-10 throughout
  function collide(c: number, integration: Record<string, unknown>) {
    const [m1, m2, v1, v2] = [1, 3, 1.5, -0.5];
    const m = new Mechanism('spheres', { gravity: [0, 0, 0] });
    const a = m.free('a', { r: [-0.5, 0, 0], v: [v1, 0, 0] }),
      b = m.free('b', { r: [0.5, 0, 0], v: [v2, 0, 0] });
    // the parameters on A alone are the pair's (material.ts)
    const A = m.body('A', {
      m: m1,
      I: [0.01, 0.01, 0.01],
      collision: [{ shape: { type: 'sphere', radius: 0.2 }, material: { stiffness: 1e5, damping: c, friction: 0 } }],
    });
    const B = m.body('B', { m: m2, I: [0.03, 0.03, 0.03], collision: [{ shape: { type: 'sphere', radius: 0.2 } }] });
    (m.connect(m.world.frame_b, a.frame_a), m.connect(a.frame_b, A.frame_a), m.connect(m.world.frame_b, b.frame_a), m.connect(b.frame_b, B.frame_a));
    const res = simulate(compile(m), {
      stop: 0.6,
      interval: 0.01,
      ...integration,
      contact: ContactScene.of(m),
      signals: ['a.v[1]', 'a.v[2]', 'b.v[1]', 'b.v[2]'],
    });
    const [a1, a2, b1, b2] = (['a.v[1]', 'a.v[2]', 'b.v[1]', 'b.v[2]'] as const).map((n) => res.get(n));
    for (let k = 0; k < a1.length; k++) {
      expect(Math.abs(m1 * a1[k] + m2 * b1[k] - (m1 * v1 + m2 * v2))).toBeLessThan(1e-10);
      expect(Math.abs(m1 * a2[k] + m2 * b2[k])).toBeLessThan(1e-10);
    }
    // a 1-D collision of restitution e: v1' = v1 - (1 + e) m2 (v1 - v2) / (m1 + m2), v2' = v2 + (1 + e) m1 (v1 - v2) / (m1 + m2)
    const e = c === 0 ? 1 : linearRestitution((m1 * m2) / (m1 + m2), 1e5, c);
    return {
      out: [a1[a1.length - 1], b1[b1.length - 1]],
      closed: [v1 - ((1 + e) * m2 * (v1 - v2)) / (m1 + m2), v2 + ((1 + e) * m1 * (v1 - v2)) / (m1 + m2)],
      e,
    };
  }

  it('elastic (no damping): momentum to 1e-10, the elastic closed form to 1e-6', () => {
    const { out, closed } = collide(0, { step: 1e-5, integrator: 'rk4' });
    out.forEach((v, i) => expect(Math.abs(v - closed[i])).toBeLessThan(1e-6));
  });

  it("damped: momentum to 1e-10, the outgoing velocities by the law's restitution (effective mass m1 m2 / (m1 + m2)) to 1e-6", () => {
    // error-controlled steps: the damper's force jumps by c v at the touch (restitution.test.ts)
    const { out, closed, e } = collide(60, { step: 1e-6, integrator: 'adaptive', rtol: 1e-11, atol: 1e-13 });
    expect(e).toBeLessThan(0.9);
    out.forEach((v, i) => expect(Math.abs(v - closed[i])).toBeLessThan(1e-6));
  });
});

describe('existing models', () => {
  it('a body without collision geometry has no contact inputs', () => {
    const m = new Mechanism('plain');
    const j = m.free('j');
    const body = m.body('b', { m: 1, I: [1, 1, 1] });
    (m.connect(m.world.frame_b, j.frame_a), m.connect(j.frame_b, body.frame_a));
    expect(compile(m).generated.layout.inputs.filter((n) => n.includes('contact'))).toEqual([]);
  });
});
