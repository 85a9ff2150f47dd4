// A robot touching itself: two capsule arms hinged on one axis of one base
// swing into each other. The contact layer's pairs between the two arms
// (siblings: not filtered) and not between an arm and its base (parent and
// child), the force appearing at the closed-form time of touch; on a free
// base in zero gravity the robot's momentum kept through the self-contact;
// torn and relaxed forms giving the same derivatives while the arms touch.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, compile, simulate } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';

// the arms' capsule cores run radially from A to B (m) at radius RHO about the hinge axis z; they start at angles +-ALPHA and turn towards each other at OMEGA
const [A, B, RHO, ALPHA, OMEGA] = [0.1, 0.5, 0.02, 0.5, 2];

// (base free or fixed) => the two-armed robot in zero gravity; the free base's hub overlaps the arms' inner ends, which the parent filter keeps apart (a base fixed in the world has none: the world's geometry touches its children, as MuJoCo's)
function robot(free: boolean): Mechanism {
  const m = new Mechanism('arms', { gravity: [0, 0, 0] });
  const base = m.body('base', {
    m: 2,
    rcm: [0, 0, -0.05],
    I: [0.02, 0.02, 0.03],
    ...(free && { collision: [{ name: 'hub', shape: { type: 'sphere', radius: 0.12 } }] }),
  });
  if (free) {
    const j = m.free('root', { v: [0.1, -0.2, 0.05], w: [0, 0, 0.3] });
    (m.connect(m.world.frame_b, j.frame_a), m.connect(j.frame_b, base.frame_a));
  } else m.connect(m.world.frame_b, base.frame_a);
  for (const [k, q, qd] of [
    [1, ALPHA, -OMEGA],
    [2, -ALPHA, OMEGA],
  ] as const) {
    const hinge = m.revolute(`hinge${k}`, { axis: [0, 0, 1], q, qd });
    const arm = m.body(`arm${k}`, {
      m: 0.4,
      rcm: [(A + B) / 2, 0, 0],
      I: [1e-4, 0.01, 0.01],
      // the capsule's axis z turned onto x, its core from A to B
      collision: [
        { name: 'link', shape: { type: 'capsule', radius: RHO, length: B - A }, offset: [(A + B) / 2, 0, 0], orientation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] },
      ],
    });
    (m.connect(base.frame_a, hinge.frame_a), m.connect(hinge.frame_b, arm.frame_a));
  }
  return m;
}

const PAIR = 'contact.arm1.link__arm2.link';

describe('self-contact: two arms of one robot swing into each other', () => {
  it('the arms are a pair, an arm and its base are not (parent and child)', () => {
    const scene = ContactScene.of(robot(true));
    const names = scene.pairs.map(([i, j]) => `${scene.geometries[i].name}__${scene.geometries[j].name}`);
    expect(names).toEqual(['arm1.link__arm2.link']);
  });

  it('the force appears at the closed-form time of touch', () => {
    // the cores' inner ends are nearest: 2 A sin(gap / 2) = 2 RHO at gap = 2 asin(RHO / A); the gap 2 ALPHA closes at 2 OMEGA
    const touch = (2 * ALPHA - 2 * Math.asin(RHO / A)) / (2 * OMEGA);
    const dt = 1e-5;
    const m = robot(false);
    const res = simulate(compile(m), { stop: touch + 0.01, step: dt, interval: dt, integrator: 'rk4', contact: ContactScene.of(m), signals: [`${PAIR}.fn`] });
    const t = res.get('time'),
      fn = res.get(`${PAIR}.fn`);
    const first = fn.findIndex((f) => f > 0);
    expect(first).toBeGreaterThan(0);
    // the first sample with a force is the first after the touch
    expect(t[first - 1]).toBeLessThanOrEqual(touch + 1e-12);
    expect(t[first]).toBeGreaterThan(touch);
    expect(fn.slice(first, first + 100).every((f) => f > 0)).toBe(true);
  });

  it('a free robot in zero gravity keeps its momentum through the self-contact (1e-10)', () => {
    const m = robot(true);
    const names = ['momentum.linear[1]', 'momentum.linear[2]', 'momentum.linear[3]', 'momentum.angular[1]', 'momentum.angular[2]', 'momentum.angular[3]'];
    const res = simulate(compile(m), {
      stop: 0.4,
      step: 1e-5,
      interval: 1e-3,
      integrator: 'rk4',
      contact: ContactScene.of(m),
      signals: [...names, `${PAIR}.fn`],
    });
    expect(Math.max(...res.get(`${PAIR}.fn`))).toBeGreaterThan(1);
    for (const n of names) {
      const v = res.get(n);
      const drift = Math.max(...v.map((x) => Math.abs(x - v[0])));
      expect(drift, n).toBeLessThan(1e-10);
    }
  });

  it('torn and relaxed give the same derivatives while the arms touch (1e-10)', () => {
    const forms = (['torn', 'relaxed'] as const).map((mode) => {
      const mech = robot(true);
      const compiled = compile(mech, { mode });
      const state = compiled.createState();
      return { compiled, state, run: new ContactRun(ContactScene.of(mech), state) };
    });
    const names = forms[0].compiled.stateNames;
    let touching = 0;
    for (const gap of [0.3, 0.35, 0.38, 0.4]) {
      const values: Record<string, number> = { 'hinge1.q': gap / 2, 'hinge2.q': -gap / 2, 'hinge1.qd': -1.3, 'hinge2.qd': 0.7 };
      const results = forms.map(({ compiled, state, run }) => {
        // the start state (the base's motion, unit quaternion), the arms set where they touch or nearly
        const x = compiled.x0();
        compiled.stateNames.forEach((n, i) => values[n] !== undefined && (x[i] = values[n]));
        const dx = new Float64Array(x.length);
        run.apply(0, x);
        state.derivatives(0, x, dx);
        return { count: run.contacts.count, byName: Object.fromEntries(compiled.stateNames.map((n, i) => [n, dx[i]])) };
      });
      expect(results[1].count).toBe(results[0].count);
      touching += results[0].count;
      for (const n of names) {
        const [a, b] = [results[0].byName[n], results[1].byName[n]];
        expect(Math.abs(a - b), n).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(a)));
      }
    }
    expect(touching).toBeGreaterThanOrEqual(3);
  });
});
