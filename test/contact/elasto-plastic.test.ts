// Elasto-plastic friction (contact/elasto-plastic.ts, bristles.ts) against
// the closed forms: a box on an incline holds still below its
// friction angle (tan th < mu: no creep, its displacement over 5 s below
// 1e-6 m), slides with a = g (sin th - mu cos th) above it; a solid sphere
// launched sliding rolls from t = 2 v0 / (7 mu g) at 5 v0 / 7; the energy
// never rises with no input. The default integrator runs the law with
// radau from the start, as radau asked for does.
import { describe, expect, it } from 'vitest';
import { ContactScene, compile, simulate } from 'kron';
import build, { parameters as P } from '../../mechanisms/sphere-on-plane.ts';
import { ContactRun } from '../../src/contact/run.ts';
import { NEXT_STRIDE, elastoPlasticForce } from '../../src/contact/elasto-plastic.ts';
import { contactForce } from '../../src/contact/law.ts';
import { rng } from '../structure/helpers.ts';
import { boxMass as m, boxOn, g, boxStiffness as k, rollingFit } from './incline-scenes.ts';
import { scene } from './forms-scene.ts';
import { PLASTIC_START } from '../../src/sim/steppers/auto.ts';

const along = (res: ReturnType<typeof simulate>, q: 'r' | 'v', down: number[]) => {
  const a = res.get(`j.${q}[1]`),
    b = res.get(`j.${q}[2]`);
  return [...a].map((v, i) => v * down[0] + b[i] * down[1]);
};

describe('elasto-plastic friction', () => {
  it('below the friction angle: the box holds still, its displacement from 1 s to 6 s below 1e-6 m', () => {
    const { mech, down, scene } = boxOn(0.2, 0.5, 0, { friction: 'elasto-plastic' });
    const res = simulate(compile(mech), { stop: 6, interval: 1, contact: scene, signals: ['j.r[1]', 'j.r[2]', 'j.v[1]', 'j.v[2]'] });
    const s = along(res, 'r', down);
    // it settles within the first second (the corners' springs take the weight along the slope: 1.2e-5 m), then holds
    for (const si of s.slice(2)) expect(Math.abs(si - s[1])).toBeLessThan(1e-6);
    expect(Math.abs(s[1])).toBeLessThan(1e-4);
  });

  it('above it: slides with a = g (sin th - mu cos th), to 1e-3', () => {
    const th = 0.5,
      mu = 0.3;
    const { mech, down, scene } = boxOn(th, mu, 0.2, { friction: 'elasto-plastic' });
    const res = simulate(compile(mech), { stop: 0.5, interval: 0.01, contact: scene, signals: ['j.v[1]', 'j.v[2]'] });
    const v = along(res, 'v', down),
      t = res.time;
    const i0 = 10,
      i1 = v.length - 1;
    const a = (v[i1] - v[i0]) / (t[i1] - t[i0]);
    expect(Math.abs(a / (g * (Math.sin(th) - mu * Math.cos(th))) - 1)).toBeLessThan(1e-3);
  });

  it('a sphere launched sliding rolls from t = 2 v0 / (7 mu g) at 5 v0 / 7, to 1e-3', () => {
    const { v0, mu, radius, k: kb, m: mb } = P;
    const mech = build();
    const res = simulate(compile(mech), {
      stop: 0.6,
      interval: 1e-3,
      contact: ContactScene.of(mech, { friction: 'elasto-plastic' }),
      signals: ['j.v[1]', 'j.w[3]'],
    });
    const t = [...res.time],
      v = [...res.get('j.v[1]')],
      w = res.get('j.w[3]');
    const arm = radius - (mb * g) / kb / 2;
    const slip = v.map((vi, i) => vi + w[i] * arm);
    const { tStar, rate } = rollingFit(t, slip, v0);
    expect(Math.abs(tStar / ((2 * v0) / (7 * mu * g)) - 1)).toBeLessThan(1e-3);
    expect(Math.abs(-rate / (3.5 * mu * g) - 1)).toBeLessThan(1e-3);
    // rolling from t* on: v = 5 v0 / 7 at every sample
    for (let i = t.findIndex((ti) => ti > 0.25); i < t.length; i++) expect(Math.abs(v[i] / ((5 * v0) / 7) - 1)).toBeLessThan(1e-3);
  });
});

describe('the default integrator with elasto-plastic friction', () => {
  it('runs radau from the start (the run says so), bit for bit as radau asked for; the regularised law starts with RK4', () => {
    const { mech, scene } = boxOn(0.5, 0.3, 0.2, { friction: 'elasto-plastic' }),
      compiled = compile(mech);
    const options = { stop: 0.2, interval: 0.05, contact: scene, signals: ['j.r[1]', 'j.v[1]', 'j.w[3]'] };
    const auto = simulate(compiled, options),
      radau = simulate(compiled, { ...options, integrator: 'radau' });
    expect(auto.integration).toMatchObject({ integrator: 'radau', switched: { time: 0, reason: PLASTIC_START } });
    for (const n of options.signals) expect([...auto.get(n)]).toEqual([...radau.get(n)]);
    const regularised = simulate(compiled, { ...options, contact: ContactScene.of(mech) });
    expect(regularised.integration?.integrator).toBe('rk4');
  });
});

describe('the elasto-plastic law at one contact', () => {
  const material = { k: 1e5, c: 300, mu: 0.5, law: 'linear' as const, n: 1.5 };
  const n = [0, 0, 1],
    dist = -1e-4;
  const law = (v: number[], e: number[]) => {
    const f = new Float64Array(3),
      next = new Float64Array(NEXT_STRIDE);
    const fn = elastoPlasticForce(f, next, 0, material, dist, n, v, e);
    return { f, next, fn };
  };

  it('sticking: f_t = -kt d - ct v_t, the normal force as the regularised law, no part of d along the normal', () => {
    const { f, fn, next } = law([1e-4, -2e-4, -1e-3], [1e-5, 2e-5, 7]);
    expect(fn).toBeCloseTo(1e5 * 1e-4 + 300 * 1e-3, 12);
    const reg = new Float64Array(3);
    expect(contactForce(reg, material, dist, n, [1e-4, -2e-4, -1e-3], 1e-4)).toBe(fn);
    expect(f[0]).toBeCloseTo(-1e5 * 1e-5 - 300 * 1e-4, 12);
    expect(f[1]).toBeCloseTo(-1e5 * 2e-5 + 300 * 2e-4, 12);
    expect(next[3]).toBe(0);
    expect([...next.subarray(0, 3)]).toEqual([1e-5, 2e-5, 0]);
  });

  it('sliding: |f_t| = mu fn along the trial force, and the deflection kept gives the same force at the same velocity', () => {
    const v = [0.3, -0.1, 0],
      { f, fn, next } = law(v, [2e-4, 1e-4, 0]);
    expect(next[3]).toBe(1);
    expect(Math.hypot(f[0], f[1]) / (0.5 * fn) - 1).toBeCloseTo(0, 14);
    const again = law(v, [...next.subarray(0, 3)]);
    for (let i = 0; i < 3; i++) expect(Math.abs(again.f[i] - f[i])).toBeLessThan(1e-12 * fn);
  });

  it('fast sliding: Coulomb, as the regularised law far above v_s (1e-8)', () => {
    const v = [2, 1, 0],
      { f } = law(v, [0, 0, 0]);
    const reg = new Float64Array(3);
    contactForce(reg, material, dist, n, v, 1e-4);
    for (let i = 0; i < 3; i++) expect(Math.abs(f[i] - reg[i])).toBeLessThan(1e-8 * Math.abs(reg[2]));
  });

  it('apart, or pulling: no force and nothing kept', () => {
    expect(law([0, 0, 1], [1, 1, 1]).fn).toBe(0); // leaving at 1 m/s: c delta' pulls more than k delta pushes
    const f = new Float64Array(3),
      next = Float64Array.of(1, 1, 1, 1);
    expect(elastoPlasticForce(f, next, 0, material, 1e-3, n, [0, 0, 0], [0, 0, 0])).toBe(0);
    expect([...f, ...next]).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('elasto-plastic friction through the compiled model', () => {
  it('torn and relaxed: the same derivatives at random states with stretched bristles, to 1e-10', () => {
    const forms = (['torn', 'relaxed'] as const).map((mode) => {
      const mech = scene();
      const compiled = compile(mech, { mode });
      const state = compiled.createState();
      const contact = ContactScene.of(mech, { friction: 'elasto-plastic' });
      return { compiled, state, run: new ContactRun(contact, state) };
    });
    const names = forms[0].compiled.stateNames;
    const r = rng(33);
    let sticking = 0,
      sliding = 0;
    for (let trial = 0; trial < 30; trial++) {
      const values: Record<string, number> = {};
      for (const j of ['base', 'fly']) {
        const q = [1, 0.3 * (r() - 0.5), 0.3 * (r() - 0.5), 0.3 * (r() - 0.5)],
          l = Math.hypot(...q);
        q.forEach((v, i) => (values[`${j}.Q[${i + 1}]`] = v / l));
        for (let i = 1; i <= 3; i++) ((values[`${j}.v[${i}]`] = 0.02 * (r() - 0.5)), (values[`${j}.w[${i}]`] = 0.05 * (r() - 0.5)));
      }
      ((values['base.r[1]'] = 0), (values['base.r[2]'] = 0.05 + 0.1 * r()), (values['base.r[3]'] = 0));
      ((values['fly.r[1]'] = 0.25 + 0.2 * (r() - 0.5)), (values['fly.r[2]'] = 0.05 + 0.3 * r()), (values['fly.r[3]'] = 0.2 * (r() - 0.5)));
      ((values['hinge.q'] = -1.5 + 3 * r()), (values['hinge.qd'] = 0.1 * (r() - 0.5)));
      // bristles kept at these states, then the bodies moved by up to 1 mm: springs stretched, some beyond their cone
      const shift = [1, 2, 3].map(() => 2e-3 * (r() - 0.5));
      const results = forms.map(({ compiled, state, run }) => {
        const x = new Float64Array(compiled.stateNames.length);
        compiled.stateNames.forEach((nm, i) => (x[i] = values[nm]));
        run.accept(0, x);
        shift.forEach((d, i) => ((x[compiled.stateNames.indexOf(`base.r[${i + 1}]`)] += d), (x[compiled.stateNames.indexOf(`fly.r[${i + 1}]`)] -= d)));
        const dx = new Float64Array(x.length);
        run.apply(0, x);
        state.derivatives(0, x, dx);
        for (let k = 0; k < run.contacts.count; k++) if (run.normalForces[k] > 0) run.sticks[k] ? sticking++ : sliding++;
        return Object.fromEntries(compiled.stateNames.map((nm, i) => [nm, dx[i]]));
      });
      for (const nm of names) {
        const [a, b] = [results[0][nm], results[1][nm]];
        expect(Math.abs(a - b), `${nm} at trial ${trial}`).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(a)));
      }
    }
    expect(sticking).toBeGreaterThan(10);
    expect(sliding).toBeGreaterThan(10);
  });

  it('energy never rises with no input but by what the tangential springs can hold: a box tossed onto an incline, sliding, stopping', () => {
    const th = 0.2,
      mu = 0.5;
    const { mech, scene: contact } = boxOn(th, mu, 1.5, { friction: 'elasto-plastic' });
    const res = simulate(compile(mech), { stop: 2, interval: 1e-3, contact, start: { 'j.w[3]': 2 }, signals: ['energy.total', 'contact.*'] });
    const E = res.get('energy.total'),
      fn = res.names.filter((nm) => nm.endsWith('.fn')).map((nm) => res.get(nm));
    // the springs hold at most (mu fn)^2 / (2 kt) per corner: with fn = the weight on one corner
    const held = (4 * (mu * m * g) ** 2) / (2 * k);
    let low = E[0];
    for (let i = 0; i < E.length; i++) {
      expect(E[i] - low, `at ${res.time[i]}`).toBeLessThanOrEqual(held + 1e-9 * Math.abs(E[0]));
      low = Math.min(low, E[i]);
    }
    // it stopped: the energy lost is the slide's and the spin's
    expect(E[E.length - 1]).toBeLessThan(E[0] - 1);
    expect(fn[0][fn[0].length - 1] / (m * g * Math.cos(th)) - 1).toBeCloseTo(0, 6);
  });
});
