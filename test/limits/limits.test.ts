// Joint limits (one-sided spring-damper) and regularised Coulomb friction
// (src/library/multibody/limits.ts) against hand-derived oracles:
// - a pendulum falling onto its lower limit: impact speed from energy, the
//   contact as a damped oscillator under the constant gravity load (peak
//   penetration, exit speed), the rest position where the limit spring holds
//   the gravity torque;
// - friction above the gravity torque holds the pendulum (it creeps at the
//   regularisation's v_eps atanh(tau_g / F)), below it the pendulum slides
//   with I qdd = tau_g + F and loses F |dq| of energy;
// - a URDF with <limit> and <dynamics friction> moves like the same arm
//   built with JointOptions; torn and relaxed agree with limits and friction active.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { compile } from '../../src/compile.ts';
import { parseUrdf, urdfMechanism } from '../../src/io/urdf.ts';
import { type JointOptions, Mechanism, Revolute, STANDARD_GRAVITY } from '../../src/library/multibody/index.ts';
import { limitDefaults } from '../../src/library/multibody/limits.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { prng } from '../multibody/random-tree.ts';

const g = STANDARD_GRAVITY;
// the pendulum: a 1 kg rod about z with its centre of mass 0.5 m out, gravity -y
const [mass, l, Izz] = [1, 0.5, 0.01];
const I = Izz + mass * l * l; // 0.26 kg m^2 about the axis
/** gravity torque about z at angle q: -m g l cos(q) */
const tauG = (q: number) => -mass * g * l * Math.cos(q);

function pendulum(options: JointOptions): { m: Mechanism; j: Revolute } {
  const m = new Mechanism('pendulum');
  const j = m.revolute('j', { axis: [0, 0, 1], ...options });
  const rod = m.body('rod', { m: mass, rcm: [l, 0, 0], I: [0, 0.01, Izz] });
  m.connect(m.world.frame_b, j.frame_a);
  m.connect(j.frame_b, rod.frame_a);
  return { m, j };
}

describe('a pendulum falling onto its lower limit', () => {
  const lower = -1,
    q0 = 0.5;
  // defaults by hand: omega = 0.3 / 1e-3 = 300 rad/s, zeta = 0.5 at I = 0.26
  const k = I * 300 ** 2,
    d = 2 * 0.5 * 300 * I;
  const omega = Math.sqrt(k / I),
    zeta = d / (2 * Math.sqrt(k * I)),
    wd = omega * Math.sqrt(1 - zeta * zeta);
  // impact speed from energy: 1/2 I v^2 = m g l (sin q0 - sin(lower))
  const vIn = Math.sqrt((2 * mass * g * l * (Math.sin(q0) - Math.sin(lower))) / I);
  // penetration x = lower - q in contact: I x'' + d x' + k x = -tauG(lower) (the load, nearly constant), x(0) = 0, x'(0) = vIn
  const delta = -tauG(lower) / k;
  const x = (t: number) => {
    const e = Math.exp(-zeta * omega * t),
      s = Math.sin(wd * t),
      c = Math.cos(wd * t);
    return delta * (1 - e * (c + (zeta / Math.sqrt(1 - zeta * zeta)) * s)) + (vIn / wd) * e * s;
  };
  const xd = (t: number) => (x(t + 1e-9) - x(t - 1e-9)) / 2e-9;
  let tOut = 1e-4;
  while (x(tOut) > 0) tOut += 1e-7;
  let xMax = 0;
  for (let t = 0; t < tOut; t += 1e-7) xMax = Math.max(xMax, x(t));
  const vOut = -xd(tOut);
  // at rest: k (lower - q) = -tauG(q), by Newton
  let qRest = lower;
  for (let i = 0; i < 20; i++) qRest -= (k * (lower - qRest) + tauG(qRest)) / (-k + mass * g * l * Math.sin(qRest));

  for (const step of [1e-4, 1e-3]) {
    it(`rebounds and comes to rest at the static deflection (step ${step}, torn and relaxed)`, () => {
      for (const mode of ['torn', 'relaxed'] as const) {
        const { m, j } = pendulum({ q: q0, limits: [lower, 1] });
        const c = compile(m, { mode });
        expect(j.referenceInertia).toBeCloseTo(I, 14);
        expect(c.signal('j.limit_c')).toBeCloseTo(k, 9);
        expect(c.signal('j.limit_d')).toBeCloseTo(d, 11);
        const res = simulate(c, { stop: 3, step, interval: step, signals: ['j.q', 'j.qd', 'energy.total'] });
        const q = res.get('j.q'),
          qd = res.get('j.qd');
        const enter = q.findIndex((v) => v < lower);
        let leave = enter;
        while (q[leave] < lower) leave++;
        const peak = lower - Math.min(...q.slice(enter, leave));
        // speeds at the limit from the last sample before and the first after the contact, by energy
        // out of contact (1/2 I qd^2 + m g l sin q is constant): the damper switches on inside a step
        const atLimit = (i: number) => Math.sqrt(qd[i] ** 2 + (2 * mass * g * l * (Math.sin(q[i]) - Math.sin(lower))) / I);
        const [vIn_, vOut_] = [atLimit(enter - 1), atLimit(leave)];
        const n = res.length - 1;
        console.log(
          `rebound ${mode} h=${step}: v_in ${vIn_.toFixed(5)} (oracle ${vIn.toFixed(5)}), peak penetration ${peak.toExponential(4)} (oracle ${xMax.toExponential(4)}), v_out ${vOut_.toFixed(5)} (oracle ${vOut.toFixed(5)}, restitution ${(vOut_ / vIn_).toFixed(4)}), rest q ${q[n]} (oracle ${qRest}, deflection ${(lower - qRest).toExponential(4)}), final qd ${qd[n].toExponential(2)}`,
        );
        expect(vIn_).toBeCloseTo(vIn, 6);
        // the contact lasts pi / wd = 12 ms; at h = 1e-3 the switch inside a step costs first-order accuracy
        expect(Math.abs(peak / xMax - 1)).toBeLessThan(step < 1e-3 ? 0.01 : 0.1);
        expect(Math.abs(vOut_ / vOut - 1)).toBeLessThan(step < 1e-3 ? 0.01 : 0.15);
        expect(vOut_).toBeGreaterThan(0.1 * vIn); // it rebounds: restitution ~0.16
        expect(Math.max(...q.slice(leave, leave + 500))).toBeGreaterThan(lower + 0.01);
        expect(Math.abs(q[n] - qRest)).toBeLessThan(1e-9);
        expect(Math.abs(qd[n])).toBeLessThan(1e-9);
        expect(lower - q[n]).toBeCloseTo(-tauG(qRest) / k, 12);
        // energy only falls (the limit damper), and the limit spring's energy is in energy.potential
        const E = res.get('energy.total');
        for (let i = 1; i <= n; i++) expect(E[i] - E[i - 1]).toBeLessThan(1e-9);
        const Erest = mass * g * l * Math.sin(qRest) + 0.5 * k * (lower - qRest) ** 2;
        expect(E[n]).toBeCloseTo(Erest, 9);
      }
    });
  }
  it('inside its limits the pendulum swings as one without (1e-15)', () => {
    const free = simulate(compile(pendulum({ q: 0.5 }).m), { stop: 0.3, step: 1e-3, signals: ['j.q'] });
    const limited = simulate(compile(pendulum({ q: 0.5, limits: [-2, 1] }).m), { stop: 0.3, step: 1e-3, signals: ['j.q'] });
    expect(Math.min(...limited.get('j.q'))).toBeGreaterThan(-2);
    limited.get('j.q').forEach((v, i) => expect(Math.abs(v - free.get('j.q')[i])).toBeLessThanOrEqual(1e-15));
  });
});

describe('regularised Coulomb friction', () => {
  it('above the gravity torque it holds the pendulum: it creeps at v_eps atanh(tau_g / F) (defaults, and v_eps = 0.01 at h = 1e-4)', () => {
    const F = 8; // |tau_g| = m g l = 4.90 N m at q = 0
    for (const [options, step] of [
      [{}, 1e-3],
      [{ frictionVelocity: 0.01 }, 1e-4],
    ] as const) {
      const { m } = pendulum({ q: 0, friction: F, ...options });
      const c = compile(m);
      const veps = options.frictionVelocity ?? limitDefaults(I, F).frictionVelocity;
      expect(c.signal('j.friction_v')).toBeCloseTo(veps, 14);
      const res = simulate(c, { stop: 2, step, interval: 0.01, signals: ['j.q', 'j.qd'] });
      const n = res.length - 1,
        q = res.get('j.q')[n],
        qd = res.get('j.qd')[n];
      const creep = -veps * Math.atanh(-tauG(q) / F);
      console.log(
        `friction holds (v_eps ${veps.toPrecision(4)}, h ${step}): after 2 s q ${q.toExponential(4)}, qd ${qd.toExponential(4)}, creep oracle ${creep.toExponential(4)}`,
      );
      expect(Math.abs(qd / creep - 1)).toBeLessThan(1e-3);
      expect(Math.abs(q)).toBeLessThan(2 * Math.abs(creep) * 1.05); // moved only by the creep
    }
    const free = simulate(compile(pendulum({ q: 0 }).m), { stop: 2, step: 1e-3, interval: 0.01, signals: ['j.q'] });
    expect(Math.min(...free.get('j.q'))).toBeLessThan(-3); // without friction it swings through the bottom
  });

  it('below the gravity torque it slides: I qdd = tau_g + F at qd < 0 (1e-12), and loses F |dq| of energy', () => {
    const F = 2;
    const { m } = pendulum({ q: 0, friction: F });
    for (const mode of ['torn', 'relaxed'] as const) {
      const c = compile(m, { mode });
      const dx = new Float64Array(2);
      for (const q of [0, -0.4, 0.7]) {
        c.derivatives(0, Float64Array.of(q, -1), dx);
        expect(dx[1]).toBeCloseTo((tauG(q) + F) / I, 12);
        c.derivatives(0, Float64Array.of(q, 1), dx);
        expect(dx[1]).toBeCloseTo((tauG(q) - F) / I, 12);
      }
      const res = simulate(c, { stop: 0.4, step: 1e-4, interval: 0.01, signals: ['j.q', 'j.qd', 'energy.total'] });
      const n = res.length - 1,
        q = res.get('j.q'),
        E = res.get('energy.total');
      expect(res.get('j.qd')[n]).toBeLessThan(-1); // still falling
      const lost = E[0] - E[n],
        want = F * (q[0] - q[n]);
      console.log(`friction slides (${mode}): dq ${(q[0] - q[n]).toFixed(5)} rad, energy lost ${lost.toFixed(6)} J, F |dq| ${want.toFixed(6)} J`);
      expect(Math.abs(lost / want - 1)).toBeLessThan(2e-3); // the start, |qd| < v_eps, is the difference
    }
  });
});

const root = new URL('../../', import.meta.url).pathname;
const ARM = readFileSync(`${root}test/limits/fixtures/arm.urdf`, 'utf8');

/** the arm of fixtures/arm.urdf, written with JointOptions */
function arm(): Mechanism {
  const m = new Mechanism('arm', { gravity: [0, 0, -g] });
  const shoulder = m.revolute('shoulder', { axis: [0, 1, 0], limits: [-0.6, 0.3], d: 0.05, friction: 0.8 });
  const upper = m.body('upper', { m: 2, rcm: [0.4, 0, 0], I: [0.002, 0.11, 0.11] });
  const origin = m.bar('slide_origin', { r: [0.8, 0, 0] });
  const slide = m.prismatic('slide', { axis: [1, 0, 0], limits: [-0.1, 0.15], friction: 0.3 });
  const slider = m.body('slider', { m: 0.5, rcm: [0.1, 0, 0], I: [0.001, 0.002, 0.002] });
  m.connect(m.world.frame_b, shoulder.frame_a);
  m.connect(shoulder.frame_b, upper.frame_a);
  m.connect(shoulder.frame_b, origin.frame_a);
  m.connect(origin.frame_b, slide.frame_a);
  m.connect(slide.frame_b, slider.frame_a);
  return m;
}

describe('URDF <limit> and <dynamics friction> against JointOptions', () => {
  it('reads them without warnings; the same parameters (reference inertias by hand) and the same 2 s motion (1e-12)', () => {
    const { mechanism, warnings } = urdfMechanism(parseUrdf(ARM, 'arm.urdf'));
    expect(warnings).toEqual([]);
    const [a, b] = [compile(arm()), compile(mechanism)];
    // shoulder: 0.11 + 2 * 0.4^2 + 0.002 + 0.5 * 0.9^2; slide: 0.5 kg
    const defaults = [limitDefaults(0.11 + 2 * 0.16 + 0.002 + 0.5 * 0.81, 0.8), limitDefaults(0.5, 0.3)];
    ['shoulder', 'slide'].forEach((j, i) => {
      expect(a.signal(`${j}.limit_c`)).toBeCloseTo(defaults[i].stiffness, 9);
      expect(a.signal(`${j}.friction_v`)).toBeCloseTo(defaults[i].frictionVelocity, 15);
      for (const p of ['limit_lower', 'limit_upper', 'limit_c', 'limit_d', 'friction', 'friction_v'])
        expect(b.signal(`${j}.${p}`), `${j}.${p}`).toBeCloseTo(a.signal(`${j}.${p}`), 9);
    });
    expect(b.signal('shoulder.d')).toBe(0.05);
    const signals = ['shoulder.q', 'shoulder.qd', 'slide.q', 'slide.qd', 'energy.total'];
    const [ra, rb] = [a, b].map((c) => simulate(c, { stop: 2, step: 1e-3, interval: 0.01, signals }));
    for (const s of signals)
      ra.get(s).forEach((v, k) => expect(Math.abs(rb.get(s)[k] - v), `${s} at ${ra.time[k]}`).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(v))));
    // both limits reached: the shoulder rests on its upper limit, the slider at its outer end
    const n = ra.length - 1;
    expect(ra.get('shoulder.q')[n]).toBeGreaterThan(0.3);
    expect(ra.get('slide.q')[n]).toBeGreaterThan(0.15);
  });

  it('torn and relaxed give the same accelerations with limits and friction active (40 random states beyond and within the limits, 1e-10)', () => {
    const [torn, relaxed] = (['torn', 'relaxed'] as const).map((mode) => compile(urdfMechanism(parseUrdf(ARM)).mechanism, { mode }));
    const rand = prng(15);
    const [da, db] = [new Float64Array(4), new Float64Array(4)];
    let beyond = 0;
    for (let k = 0; k < 40; k++) {
      const x = Float64Array.of(-1 + 1.6 * rand(), 4 * rand() - 2, -0.3 + 0.6 * rand(), 2 * rand() - 1);
      if (x[0] > 0.3 || x[0] < -0.6 || x[2] > 0.15 || x[2] < -0.1) beyond++;
      torn.derivatives(0, x, da);
      relaxed.derivatives(0, x, db);
      da.forEach((v, i) => expect(Math.abs(db[i] - v), `state ${k}, ${i}`).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(v))));
    }
    expect(beyond).toBeGreaterThan(10);
  });
});

describe('the defaults follow the masses the compile uses (issue 28)', () => {
  // with --set rod.m = 100 (compile's parameters), the reference inertia is Izz + 100 l^2, not the declared one's
  it('--set of the body sizes the default limit spring, damper and friction speed again; --set of the limit itself wins', () => {
    const heavy = 100,
      Iheavy = Izz + heavy * l * l;
    const want = limitDefaults(Iheavy, 2),
      declared = limitDefaults(I, 2);
    const c = compile(pendulum({ q: 0.5, limits: [-1, 1], friction: 2 }).m, { parameters: { 'rod.m': heavy } });
    expect(c.signal('j.limit_c')).toBeCloseTo(want.stiffness, 6);
    expect(c.signal('j.limit_d')).toBeCloseTo(want.damping, 9);
    expect(c.signal('j.friction_v')).toBe(want.frictionVelocity);
    expect(want.stiffness / declared.stiffness).toBeCloseTo(Iheavy / I, 9); // ~96 times stiffer
    // a friction level set with --set sizes the friction speed: F h / (0.3 I) above its floor of 1e-3
    const strong = compile(pendulum({ q: 0.5, friction: 2 }).m, { parameters: { 'rod.m': heavy, 'j.friction': 300 } });
    expect(strong.signal('j.friction_v')).toBeCloseTo((300 * 1e-3) / (0.3 * Iheavy), 14);
    // given ones are kept: by option, or by --set of the limit's own parameter
    const given = compile(pendulum({ q: 0.5, limits: [-1, 1], limitStiffness: 1234 }).m, { parameters: { 'rod.m': heavy, 'j.limit_d': 7 } });
    expect(given.signal('j.limit_c')).toBe(1234);
    expect(given.signal('j.limit_d')).toBe(7);
    // the heavy rod rests on its limit at the static deflection of the stiffer spring: k (lower - q) = m g l cos(q)
    const res = simulate(compile(pendulum({ q: -0.9, limits: [-1, 1] }).m, { parameters: { 'rod.m': heavy } }), { stop: 2, step: 1e-3, signals: ['j.q'] });
    const q = res.final('j.q');
    expect(want.stiffness * (-1 - q)).toBeCloseTo(heavy * g * l * Math.cos(q), 3);
  });
});
