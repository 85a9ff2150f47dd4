// Per-pair contact signals (contact/signals.ts) against closed forms: a
// sphere at rest carries its weight (fn = m g, f = (0, m g, 0)) at its
// lowest point lifted by half its penetration; launched sliding, its
// friction is -mu fn along the slip (ft in the basis of the normal +y:
// t1 = z, t2 = x); a resting box's centre of pressure is under its centre
// of mass; a pair apart reads 0; the patterns spell out, bad names are
// UsageErrors naming them; and asking for them changes no other signal.
import { describe, expect, it } from 'vitest';
import { ContactScene, Mechanism, UsageError, compile, simulate } from 'kron';
import build, { parameters as P } from '../../mechanisms/sphere-on-plane.ts';
import { PAIR_SIGNALS, tangentBasis } from '../../src/contact/signals.ts';

const pair = 'contact.world.ground__ball.collision1';

describe('per-pair contact signals', () => {
  it('a sphere at rest: fn = m g, f = (0, m g, 0), p at its lowest point lifted by half the penetration, ft 0', () => {
    const { m, g, k, radius } = P;
    const mech = build({ v0: 0, mu: 0.3, damping: 2 * Math.sqrt(k * m) });
    const res = simulate(compile(mech), {
      stop: 0.2,
      step: 1e-4,
      interval: 0.1,
      contact: ContactScene.of(mech),
      start: { 'j.r[1]': 0.3, 'j.r[3]': -0.2 },
      signals: [`${pair}.*`] as string[],
    });
    const at = (s: string) => res.final(`${pair}.${s}`);
    expect(Math.abs(at('fn') / (m * g) - 1)).toBeLessThan(1e-9);
    expect(Math.abs(at('f[2]') / (m * g) - 1)).toBeLessThan(1e-9);
    (expect(Math.abs(at('p[1]') - 0.3)).toBeLessThan(1e-9), expect(Math.abs(at('p[3]') + 0.2)).toBeLessThan(1e-9));
    expect(Math.abs(at('p[2]') + (m * g) / k / 2)).toBeLessThan(1e-12);
    for (const s of ['ft[1]', 'ft[2]', 'f[1]', 'f[3]']) expect(Math.abs(at(s))).toBeLessThan(1e-9);
    expect(radius).toBeGreaterThan(0);
  });

  it('a sphere sliding: friction -mu fn along the slip (ft[2], t2 = x for the normal +y), ft[1] 0', () => {
    expect(tangentBasis([0, 1, 0]).map((t) => t.map((v) => v + 0))).toEqual([
      [0, 0, 1],
      [1, 0, 0],
    ]);
    const mech = build();
    const res = simulate(compile(mech), {
      stop: 0.1,
      step: 1e-5,
      interval: 0.01,
      integrator: 'rk4',
      contact: ContactScene.of(mech, { slipSpeed: 1e-3 }),
      signals: [`${pair}.fn`, `${pair}.ft[1]`, `${pair}.ft[2]`, `${pair}.f[1]`],
    });
    const fn = res.get(`${pair}.fn`),
      ft1 = res.get(`${pair}.ft[1]`),
      ft2 = res.get(`${pair}.ft[2]`),
      f1 = res.get(`${pair}.f[1]`);
    // from the first sample on (the sphere starts at its rest penetration, sliding at 2 m/s; slip >> v_s): |ft| = mu fn v / sqrt(v^2 + v_s^2)
    for (let i = 1; i < fn.length; i++) {
      expect(Math.abs(ft2[i] / (-P.mu * fn[i]) - 1)).toBeLessThan(1e-6);
      expect(Math.abs(ft1[i])).toBeLessThan(1e-12 * fn[i]);
      expect(f1[i]).toBe(ft2[i]);
    }
  });

  it('a box at rest: the centre of pressure under its centre of mass; a pair apart reads 0', () => {
    const g = 9.81,
      m = 2,
      k = 1e5;
    const mech = new Mechanism('boxes', { gravity: [0, -g, 0] });
    const j = mech.free('j', { r: [0.1, 0.1, 0.05], Q: [Math.cos(0.3), 0, Math.sin(0.3), 0] });
    const box = mech.body('box', {
      m,
      I: [0.01, 0.02, 0.03],
      collision: [{ shape: { type: 'box', size: [0.4, 0.2, 0.3] }, material: { stiffness: k, damping: 2 * Math.sqrt((k * m) / 4) } }],
    });
    const far = mech.free('far', { r: [5, 3, 0] });
    const ball = mech.body('ball', { m: 1, I: [0.01, 0.01, 0.01], collision: [{ shape: { type: 'sphere', radius: 0.1 } }] });
    mech.ground();
    (mech.connect(mech.world.frame_b, j.frame_a), mech.connect(j.frame_b, box.frame_a));
    (mech.connect(mech.world.frame_b, far.frame_a), mech.connect(far.frame_b, ball.frame_a));
    const scene = ContactScene.of(mech);
    const res = simulate(compile(mech), { stop: 0.5, step: 1e-4, interval: 0.25, contact: scene, signals: ['contact.*', 'j.r[1]', 'j.r[3]'] as string[] });
    // three pairs: ground-box, ground-ball, box-ball
    expect(res.names).toHaveLength(3 * PAIR_SIGNALS.length + 2);
    const boxPair = 'contact.world.ground__box.collision1';
    expect(Math.abs(res.final(`${boxPair}.fn`) / (m * g) - 1)).toBeLessThan(1e-9);
    expect(Math.abs(res.final(`${boxPair}.p[1]`) - res.final('j.r[1]'))).toBeLessThan(1e-9);
    expect(Math.abs(res.final(`${boxPair}.p[3]`) - res.final('j.r[3]'))).toBeLessThan(1e-9);
    for (const s of PAIR_SIGNALS) expect(res.final(`contact.box.collision1__ball.collision1.${s}`)).toBe(0);
  });

  it('names that are no pair or no signal, or contact signals without contact: UsageErrors naming them', () => {
    const mech = build();
    const compiled = compile(mech),
      contact = ContactScene.of(mech);
    const run =
      (signals: string[], withContact = true) =>
      () =>
        simulate(compiled, { stop: 0.01, signals, ...(withContact && { contact }) });
    expect(run(['contact.world.ground__ball.colision1.fn'])).toThrow(UsageError);
    expect(run(['contact.world.ground__ball.colision1.fn'])).toThrow(/no pair world.ground__ball.colision1 in the contact scene/);
    const error = (() => {
      try {
        run(['contact.world.ground__ball.colision1.*'])();
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(error?.details.hint).toMatch(/did you mean world.ground__ball.collision1\?/);
    expect(run([`${pair}.fx`])).toThrow(/names no signal of a pair/);
    expect(run([`${pair}.fn`], false)).toThrow(/is a contact signal, and this run has no contact/);
  });

  it('asking for them changes no other signal, bit for bit', () => {
    const mech = build();
    const compiled = compile(mech),
      contact = ContactScene.of(mech, { slipSpeed: 1e-3 });
    const options = { stop: 0.3, step: 1e-5, interval: 0.01, integrator: 'rk4' as const, contact };
    const plain = simulate(compiled, { ...options, signals: ['j.v[1]', 'j.w[3]', 'ball.contact_f[1]'] });
    const more = simulate(compiled, { ...options, signals: ['j.v[1]', 'j.w[3]', 'ball.contact_f[1]', 'contact.*'] });
    for (const n of plain.names) expect([...more.get(n)]).toEqual([...plain.get(n)]);
  });
});
