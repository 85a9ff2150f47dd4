// A box on a plane: resting, its four corner forces sum to its weight and
// are equal by symmetry; on an incline steeper than its friction angle it
// slides with a = g (sin th - mu cos th); below it, the regularised law
// lets it creep at the closed-form speed v = v_s r / sqrt(1 - r^2),
// r = tan th / mu (law.ts: mu fn v / sqrt(v^2 + v_s^2) = m g sin th), below
// 1e-6 m/s (the bound for a box at rest) with v_s = 1e-6.
import { describe, expect, it } from 'vitest';
import { compile, simulate } from 'kron';
import { ContactRun } from '../../src/contact/run.ts';
import { boxMass as m, boxSize as size, boxOn as boxOnIncline, g } from './incline-scenes.ts';

// the box on the incline, with the regularised law's slip speed
const boxOn = (th: number, mu: number, v0: number, slipSpeed: number) => boxOnIncline(th, mu, v0, { slipSpeed });

describe('a box on a plane', () => {
  it('at rest after a drop: the four corner forces sum to the weight (1e-9) and are equal', () => {
    const { mech, scene } = boxOn(0, 0.5, 0, 1e-4);
    const compiled = compile(mech);
    const res = simulate(compiled, { stop: 1, step: 1e-4, interval: 1, contact: scene, start: { 'j.r[2]': size[1] / 2 + 0.005 } });
    const state = compiled.createState();
    const run = new ContactRun(scene, state);
    const x = Float64Array.from(compiled.stateNames.map((n) => res.final(n)));
    run.apply(1, x);
    const fn = [...run.normalForces.subarray(0, run.contacts.count)].filter((_, i) => run.contacts.dist[i] < 0);
    expect(fn).toHaveLength(4);
    expect(Math.abs(fn.reduce((a, b) => a + b, 0) / (m * g) - 1)).toBeLessThan(1e-9);
    for (const f of fn) expect(Math.abs(f / ((m * g) / 4) - 1)).toBeLessThan(1e-9);
  });

  const along = (res: ReturnType<typeof simulate>, down: number[]) => {
    const v1 = res.get('j.v[1]'),
      v2 = res.get('j.v[2]');
    return [...v1].map((v, i) => v * down[0] + v2[i] * down[1]);
  };

  it('above the friction angle: slides with a = g (sin th - mu cos th), to 1e-3', () => {
    const th = 0.5,
      mu = 0.3;
    const { mech, down, scene } = boxOn(th, mu, 0.2, 1e-4);
    const res = simulate(compile(mech), { stop: 0.5, step: 1e-4, interval: 0.01, contact: scene, signals: ['j.v[1]', 'j.v[2]'] });
    const v = along(res, down),
      t = res.time;
    // after the first 0.1 s (the corners settling), the speed along the slope grows linearly
    const i0 = 10,
      i1 = v.length - 1;
    const a = (v[i1] - v[i0]) / (t[i1] - t[i0]);
    expect(Math.abs(a / (g * (Math.sin(th) - mu * Math.cos(th))) - 1)).toBeLessThan(1e-3);
  });

  it("below it: creeps at the regularised law's speed v_s r / sqrt(1 - r^2), r = tan th / mu", () => {
    const th = 0.2,
      mu = 0.5,
      vs = 1e-4;
    const { mech, down, scene } = boxOn(th, mu, 0, vs);
    const res = simulate(compile(mech), { stop: 1, step: 1e-4, interval: 0.5, contact: scene, signals: ['j.v[1]', 'j.v[2]'] });
    const v = along(res, down);
    const r = Math.tan(th) / mu;
    expect(Math.abs(v[v.length - 1] / ((vs * r) / Math.sqrt(1 - r * r)) - 1)).toBeLessThan(1e-3);
  });

  it('below it, at rest: creep below 1e-6 m/s with v_s = 1e-6 (the regularised law, no stick switch; radau takes the stiff friction)', () => {
    const th = 0.2,
      mu = 0.5,
      vs = 1e-6;
    const { mech, down, scene } = boxOn(th, mu, 0, vs);
    const res = simulate(compile(mech), { stop: 1, step: 1e-4, interval: 0.25, contact: scene, signals: ['j.v[1]', 'j.v[2]'] });
    const v = along(res, down),
      r = Math.tan(th) / mu,
      creep = (vs * r) / Math.sqrt(1 - r * r);
    for (const vi of v.slice(1)) expect(Math.abs(vi)).toBeLessThan(1e-6);
    expect(Math.abs(v[v.length - 1] / creep - 1)).toBeLessThan(1e-3);
  });
});
