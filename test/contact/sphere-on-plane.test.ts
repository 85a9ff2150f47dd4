// One body on a plane through the compiled model: closed forms of a sphere
// at rest on the plane (penetration m g / k) and of a solid sphere launched
// sliding (rolling from t* = 2 v0 / (7 mu g) at 5 v0 / 7).
import { describe, expect, it } from 'vitest';
import { ContactScene, compile, simulate } from 'kron';
import build, { parameters as P } from '../../mechanisms/sphere-on-plane.ts';
import { rollingFit } from './incline-scenes.ts';

describe('sphere on a plane', () => {
  it('dropped, comes to rest at the penetration m g / k (linear law), to 1e-9', () => {
    const m = 2,
      k = 1e5,
      g = 9.81;
    // critically damped: c = 2 sqrt(k m)
    const mech = build({ m, k, damping: 2 * Math.sqrt(k * m), mu: 0, v0: 0, g });
    const compiled = compile(mech);
    const res = simulate(compiled, {
      stop: 1.5,
      step: 1e-3,
      interval: 0.5,
      contact: ContactScene.of(mech),
      start: { 'j.r[2]': P.radius + 0.01 },
      signals: ['j.r[2]', 'ball.contact_f[2]'],
    });
    const y = res.get('j.r[2]'),
      f = res.get('ball.contact_f[2]');
    const rest = (m * g) / k;
    expect(P.radius - y[y.length - 1]).toBeCloseTo(rest, 9);
    expect(Math.abs(P.radius - y[y.length - 1] - rest)).toBeLessThan(1e-9);
    // and the contact force carries the weight
    expect(Math.abs(f[f.length - 1] / (m * g) - 1)).toBeLessThan(1e-9);
  });

  it('launched sliding at v0 = 2 m/s, mu = 0.3: rolls from t = 2 v0 / (7 mu g) at v = 5 v0 / 7, to 1e-3', () => {
    const { v0, mu, g, radius, k, m } = P;
    const mech = build();
    const compiled = compile(mech);
    const dt = 1e-3;
    const res = simulate(compiled, {
      stop: 0.6,
      step: 1e-5,
      interval: dt,
      integrator: 'rk4',
      contact: ContactScene.of(mech, { slipSpeed: 1e-3 }),
      signals: ['j.v[1]', 'j.w[3]'],
    });
    const t = [...res.time],
      v = [...res.get('j.v[1]')],
      w = res.get('j.w[3]');
    // slip at the contact point, midway between the sphere's lowest point and the plane: lever arm r - delta / 2
    const arm = radius - (m * g) / k / 2;
    const slip = v.map((vi, i) => vi + w[i] * arm);
    // sliding: the slip falls linearly at 3.5 mu g; fitted over the samples well above the regularisation speed, its zero is t*
    const { tStar, rate } = rollingFit(t, slip, v0);
    expect(Math.abs(tStar / ((2 * v0) / (7 * mu * g)) - 1)).toBeLessThan(1e-3);
    expect(Math.abs(-rate / (3.5 * mu * g) - 1)).toBeLessThan(1e-3);
    // rolling: v = 5 v0 / 7, and no slip
    expect(Math.abs(v[v.length - 1] / ((5 * v0) / 7) - 1)).toBeLessThan(1e-3);
    expect(Math.abs(slip[slip.length - 1])).toBeLessThan(1e-6);
  });
});
