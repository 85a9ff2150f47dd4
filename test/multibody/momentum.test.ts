// momentum.linear, momentum.angular, com.r, com.v, com.m (momentum.ts)
// against oracles that do not read the library's equations:
//   - a pendulum and a double pendulum at random states: hand formulas in the
//     joint angles and rates;
//   - random trees: a plain numeric sum over the bodies' frame_a signals
//     (r, R, v, w) with the generator's masses, centres of mass and inertias
//     (random-tree.ts), the definition p = sum m v_c, L = sum r_c x m v_c + R I R' w;
//   - Newton and Euler for the whole mechanism: along an RK4 run, dp/dt is the
//     sum of the external forces (gravity and the world's reaction at each
//     root joint, its frame_a force) and dL/dt their torque about the origin;
//   - a root revolute at the origin transmits no torque about its axis n:
//     without gravity n . L stays constant over an RK4 run.
import { describe, expect, it } from 'vitest';
import doublePendulum, { parameters as dp } from '../../mechanisms/doublependulum.ts';
import { compile, type CompileOptions } from '../../src/compile.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { type Frame, Mechanism } from '../../src/library/multibody/index.ts';
import { prng, randomTree } from './random-tree.ts';
import { rk4Run } from './rk4-run.ts';

type V3 = [number, number, number];
const MODES = ['torn', 'relaxed'] as const;
const ijk = [1, 2, 3];
const vec = (read: (name: string) => number, name: string): V3 => ijk.map((i) => read(`${name}[${i}]`)) as V3;
const cross = (a: readonly number[], b: readonly number[]): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: readonly number[]) => Math.hypot(...a);

/** the new signals of a compiled model after its last evaluation */
interface Signals {
  p: V3;
  L: V3;
  r: V3;
  v: V3;
  M: number;
}
const signalsOf = (read: (name: string) => number): Signals => ({
  p: vec(read, 'momentum.linear'),
  L: vec(read, 'momentum.angular'),
  r: vec(read, 'com.r'),
  v: vec(read, 'com.v'),
  M: read('com.m'),
});

/** the model's signals at state x (derivatives() evaluates it, signal() reads it) */
function at(c: CompiledModel, x: Float64Array): Signals {
  c.derivatives(0, x, new Float64Array(x.length));
  return signalsOf((n) => c.signal(n));
}

/** every entry of got within tol * scale of want */
function expectClose(got: Signals, want: Signals, tol: number, what: string): void {
  const scale = Math.max(1, ...[want.p, want.L, want.r, want.v].flat().map(Math.abs), want.M);
  for (const k of ['p', 'L', 'r', 'v'] as const) {
    for (let i = 0; i < 3; i++)
      expect(Math.abs(got[k][i] - want[k][i]), `${what}: ${k}[${i + 1}] ${got[k][i]} vs ${want[k][i]}`).toBeLessThanOrEqual(tol * scale);
  }
  expect(Math.abs(got.M - want.M), `${what}: M`).toBeLessThanOrEqual(tol * scale);
}

/** a random state: angles in (-pi, pi), positions of prismatic joints and rates in (-2, 2) */
function randomState(c: CompiledModel, rnd: () => number): Float64Array {
  return Float64Array.from(c.stateNames, (n) => (n.endsWith('.qd') ? -2 + 4 * rnd() : -Math.PI + 2 * Math.PI * rnd()));
}

describe('momentum and centre of mass: closed forms', () => {
  // a pendulum about z with products of inertia: I_w w = qd Rz(q) (Ixz, Iyz, Izz) tilts L off the axis
  const pendulum = { m: 1.3, rcm: [0.4, 0.1, -0.2] as V3, I: [0.02, 0.03, 0.04, 0.001, 0.004, -0.003] as const };
  const buildPendulum = () => {
    const mech = new Mechanism('pendulum');
    const j = mech.revolute('j', { axis: [0, 0, 1] });
    const link = mech.body('link', { m: pendulum.m, rcm: pendulum.rcm, I: [...pendulum.I] });
    mech.connect(mech.world.frame_b, j.frame_a);
    mech.connect(j.frame_b, link.frame_a);
    return mech;
  };

  /** the pendulum's signals by hand: r_c = Rz(q) c, v_c = qd z x r_c, L = m r_c x v_c + qd Rz(q) (Ixz, Iyz, Izz) */
  function pendulumByHand(q: number, qd: number, m: number, c: V3, [, , Izz, , Ixz, Iyz]: readonly number[]): Signals {
    const rot = (a: V3): V3 => [Math.cos(q) * a[0] - Math.sin(q) * a[1], Math.sin(q) * a[0] + Math.cos(q) * a[1], a[2]];
    const r = rot(c);
    const v: V3 = [-qd * r[1], qd * r[0], 0];
    const spin = rot([Ixz, Iyz, Izz]).map((x) => qd * x);
    const p = v.map((x) => m * x) as V3;
    return { p, L: cross(r, p).map((x, i) => x + spin[i]) as V3, r, v, M: m };
  }

  it('a pendulum with products of inertia at 20 random states, torn and relaxed, and with --set values: hand formulas to 1e-14', () => {
    // the declared values, then others given as --set would give them (parameters as data, folded or not)
    const set = { 'link.m': 2.5, 'link.r_cm[1]': -0.3, 'link.r_cm[3]': 0.25, 'link.I[1][3]': 0.002, 'link.I[2][3]': 0.005, 'link.I[3][3]': 0.045 };
    const cases: { name: string; options: CompileOptions; m: number; c: V3; I: readonly number[] }[] = [
      { name: 'declared', options: {}, m: pendulum.m, c: pendulum.rcm, I: pendulum.I },
      { name: '--set', options: { parameters: set }, m: 2.5, c: [-0.3, 0.1, 0.25], I: [0.02, 0.03, 0.045, 0.001, 0.002, 0.005] },
      {
        name: '--set, --keep-parameters',
        options: { parameters: set, foldParameters: false },
        m: 2.5,
        c: [-0.3, 0.1, 0.25],
        I: [0.02, 0.03, 0.045, 0.001, 0.002, 0.005],
      },
    ];
    for (const { name, options, m, c, I } of cases) {
      for (const mode of MODES) {
        const compiled = compile(buildPendulum(), { ...options, mode });
        expect(compiled.stateNames).toEqual(['j.q', 'j.qd']);
        const rnd = prng(29);
        for (let s = 0; s < 20; s++) {
          const x = randomState(compiled, rnd);
          const [q, qd] = x;
          expectClose(at(compiled, x), pendulumByHand(q, qd, m, c, I), 1e-14, `${name} ${mode} q = ${q}, qd = ${qd}`);
        }
      }
    }
  });

  /**
   * The planar double pendulum (mechanisms/doublependulum.ts) by hand, with
   * th1 = q1, th2 = q1 + q2 and e(th) = (cos th, sin th), e'(th) = (-sin th, cos th):
   *   c1 = lc1 e(th1),              v1 = lc1 w1 e'(th1)
   *   c2 = L1 e(th1) + lc2 e(th2),  v2 = L1 w1 e'(th1) + lc2 w2 e'(th2)
   *   L_z = m1 (c1 x v1)_z + m2 (c2 x v2)_z + I1 w1 + I2 w2,  L_x = L_y = 0
   */
  function doubleByHand(q1: number, q2: number, w1: number, w2: number): Signals {
    const th1 = q1,
      th2 = q1 + q2,
      ww2 = w1 + w2;
    const e = (th: number, k: number): V3 => [k * Math.cos(th), k * Math.sin(th), 0];
    const ed = (th: number, k: number): V3 => [-k * Math.sin(th), k * Math.cos(th), 0];
    const c1 = e(th1, dp.lc1),
      v1 = ed(th1, dp.lc1 * w1);
    const c2 = e(th1, dp.L1).map((x, i) => x + e(th2, dp.lc2)[i]) as V3;
    const v2 = ed(th1, dp.L1 * w1).map((x, i) => x + ed(th2, dp.lc2 * ww2)[i]) as V3;
    const M = dp.m1 + dp.m2;
    const p = [0, 1, 2].map((i) => dp.m1 * v1[i] + dp.m2 * v2[i]) as V3;
    const Lz = dp.m1 * cross(c1, v1)[2] + dp.m2 * cross(c2, v2)[2] + dp.I1 * w1 + dp.I2 * ww2;
    return { p, L: [0, 0, Lz], r: [0, 1, 2].map((i) => (dp.m1 * c1[i] + dp.m2 * c2[i]) / M) as V3, v: p.map((x) => x / M) as V3, M };
  }

  it('the double pendulum at 20 random states, torn and relaxed: hand formulas to 1e-14', () => {
    for (const mode of MODES) {
      const c = compile(doublePendulum(), { mode });
      expect(c.stateNames).toEqual(['j1.q', 'j1.qd', 'j2.q', 'j2.qd']);
      const rnd = prng(2929);
      for (let s = 0; s < 20; s++) {
        const x = randomState(c, rnd);
        expectClose(at(c, x), doubleByHand(x[0], x[2], x[1], x[3]), 1e-14, `${mode} x = [${x}]`);
      }
    }
  });

  it('a massless mechanism: com.m = 0, com.r and com.v 0 (the world origin, not 0/0), angular momentum the spin alone', () => {
    for (const options of [{}, { foldParameters: false }]) {
      for (const mode of MODES) {
        const c = compile(buildPendulum(), { ...options, mode, parameters: { 'link.m': 0 } });
        const got = at(c, Float64Array.from([0.7, 1.5]));
        const hand = { ...pendulumByHand(0.7, 1.5, 0, pendulum.rcm, pendulum.I), r: [0, 0, 0] as V3, v: [0, 0, 0] as V3 };
        expectClose(got, hand, 1e-15, `${mode} ${JSON.stringify(options)}`);
        expect([...got.r, ...got.v].every((x) => x === 0)).toBe(true);
      }
    }
  });
});

/** one body's mass, centre of mass (frame_a coordinates) and inertia about it ([xx, yy, zz, xy, xz, yz]) */
interface BodyParameters {
  name: string;
  m: number;
  rcm: readonly number[];
  I: readonly number[];
}

/**
 * The definitions, numerically, from each body's frame_a signals:
 *   r_c = r + R rcm, v_c = v + w x (R rcm), I_w w = R I R' w,
 *   p = sum m v_c, L = sum r_c x m v_c + I_w w, com.r = sum m r_c / M, com.v = p / M
 */
function fromFrames(read: (name: string) => number, bodies: readonly BodyParameters[]): Signals {
  const out: Signals = { p: [0, 0, 0], L: [0, 0, 0], r: [0, 0, 0], v: [0, 0, 0], M: 0 };
  for (const b of bodies) {
    const f = `${b.name}.frame_a`;
    const r = vec(read, `${f}.r`),
      v = vec(read, `${f}.v`),
      w = vec(read, `${f}.w`);
    const R = ijk.map((i) => ijk.map((j) => read(`${f}.R[${i}][${j}]`)));
    const [xx, yy, zz, xy, xz, yz] = b.I;
    const I = [
      [xx, xy, xz],
      [xy, yy, yz],
      [xz, yz, zz],
    ];
    const Rc = R.map((row) => row[0] * b.rcm[0] + row[1] * b.rcm[1] + row[2] * b.rcm[2]);
    const rc = r.map((x, i) => x + Rc[i]);
    const wxRc = cross(w, Rc);
    const p = v.map((x, i) => b.m * (x + wxRc[i]));
    const wb = [0, 1, 2].map((j) => R[0][j] * w[0] + R[1][j] * w[1] + R[2][j] * w[2]); // R' w
    const Iwb = I.map((row) => row[0] * wb[0] + row[1] * wb[1] + row[2] * wb[2]);
    const spin = R.map((row) => row[0] * Iwb[0] + row[1] * Iwb[1] + row[2] * Iwb[2]);
    const rxp = cross(rc, p);
    for (let i = 0; i < 3; i++) {
      out.p[i] += p[i];
      out.L[i] += rxp[i] + spin[i];
      out.r[i] += b.m * rc[i];
    }
    out.M += b.m;
  }
  for (let i = 0; i < 3; i++) {
    out.r[i] /= out.M;
    out.v[i] = out.p[i] / out.M;
  }
  return out;
}

const treeBodies = (tree: ReturnType<typeof randomTree>): BodyParameters[] => tree.bodies.map((b, k) => ({ name: `b${k + 1}`, m: b.m, rcm: b.rcm, I: b.I }));

describe('momentum and centre of mass: random trees', () => {
  for (const [seed, nb] of [
    [2901, 3],
    [2902, 7],
    [2903, 12],
  ]) {
    it(`seed ${seed}, ${nb} bodies, 10 random states: the definitions summed from the frame_a signals to 1e-13; torn equals relaxed`, () => {
      const tree = randomTree(seed, nb);
      const [torn, relaxed] = MODES.map((mode) => compile(randomTree(seed, nb).mechanism, { mode }));
      const rnd = prng(seed);
      for (let s = 0; s < 10; s++) {
        const x = randomState(torn, rnd);
        for (const j of tree.joints) {
          const tau = -5 + 10 * rnd();
          torn.setInput(`${j}.tau`, tau);
          relaxed.setInput(`${j}.tau`, tau);
        }
        const [a, b] = [at(torn, x), at(relaxed, x)];
        expectClose(
          a,
          fromFrames((n) => torn.signal(n), treeBodies(tree)),
          1e-13,
          `torn state ${s}`,
        );
        expectClose(
          b,
          fromFrames((n) => relaxed.signal(n), treeBodies(tree)),
          1e-13,
          `relaxed state ${s}`,
        );
        expectClose(a, b, 1e-12, `torn vs relaxed state ${s}`);
      }
    });
  }
});

/** the five-point central difference (f(-2) - 8 f(-1) + 8 f(1) - f(2)) / 12h at sample k: error O(h^4) */
const rate = (f: readonly number[], k: number, h: number) => (f[k - 2] - 8 * f[k - 1] + 8 * f[k + 1] - f[k + 2]) / (12 * h);

describe('momentum: Newton and Euler for the whole mechanism', () => {
  it('random tree with two roots, springs, dampers and oblique gravity, RK4 over 1 s: dp/dt = M g + sum of root forces, dL/dt = their torque about the origin', () => {
    const seed = 3021,
      nb = 6;
    const tree = randomTree(seed, nb);
    const roots = tree.joints.filter((_, k) => tree.bodies[k].parent < 0);
    expect(roots).toEqual(['j1', 'j4']);
    const rnd = prng(seed);
    const start = Object.fromEntries(
      tree.joints.flatMap((j) => [
        [`${j}.q`, -1 + 2 * rnd()],
        [`${j}.qd`, -2 + 4 * rnd()],
      ]),
    );
    const g = tree.gravity;
    const h = 1e-3,
      stop = 1;
    for (const mode of MODES) {
      const c = compile(randomTree(seed, nb).mechanism, { mode });
      const frame = (j: string, q: string) => ijk.map((i) => `${j}.frame_a.${q}[${i}]`);
      const names = [
        ...['momentum.linear', 'momentum.angular', 'com.r'].flatMap((s) => ijk.map((i) => `${s}[${i}]`)),
        'com.m',
        ...roots.flatMap((j) => ['f', 't', 'r'].flatMap((q) => frame(j, q))),
      ];
      const run = rk4Run(c, h, stop, names, start);
      expect(run.error).toBeUndefined();
      const s = (name: string) => run.signals[name];
      const n = s('com.m').length;
      let worstF = 0,
        worstT = 0,
        scaleF = 0,
        scaleT = 0;
      for (let k = 2; k < n - 2; k++) {
        const at = (name: string) => s(name)[k];
        const M = at('com.m'),
          rcom = vec(at, 'com.r');
        // the external force and its torque about the origin: gravity on every body (M g at the centre of mass) and the world's reaction at each root
        const F = g.map((x) => M * x);
        const T = cross(rcom, F);
        for (const j of roots) {
          const f = vec(at, `${j}.frame_a.f`),
            t = vec(at, `${j}.frame_a.t`),
            rxf = cross(vec(at, `${j}.frame_a.r`), f);
          for (let i = 0; i < 3; i++) {
            F[i] += f[i];
            T[i] += t[i] + rxf[i];
          }
        }
        const dp = ijk.map((i) => rate(s(`momentum.linear[${i}]`), k, h)),
          dL = ijk.map((i) => rate(s(`momentum.angular[${i}]`), k, h));
        worstF = Math.max(worstF, norm(dp.map((x, i) => x - F[i])));
        worstT = Math.max(worstT, norm(dL.map((x, i) => x - T[i])));
        scaleF = Math.max(scaleF, norm(F));
        scaleT = Math.max(scaleT, norm(T));
      }
      console.log(
        `Newton-Euler ${mode}: max |dp/dt - F| = ${worstF.toExponential(2)} (max |F| ${scaleF.toFixed(3)} N), max |dL/dt - T| = ${worstT.toExponential(2)} (max |T| ${scaleT.toFixed(3)} N m)`,
      );
      expect(worstF).toBeLessThanOrEqual(1e-8 * scaleF);
      expect(worstT).toBeLessThanOrEqual(1e-8 * scaleT);
    }
  });
});

/**
 * No gravity, and a root revolute at the world origin without spring, damper
 * or drive: the world's torque on the mechanism has no component along the
 * root's axis n, so n . L is conserved however the bodies below move one
 * another (springs, dampers and prismatic joints included).
 */
function spinningTree(seed: number, nb: number): { mechanism: Mechanism; n: V3 } {
  const rnd = prng(seed);
  const u = (lo: number, hi: number) => lo + (hi - lo) * rnd();
  const unit = (): V3 => {
    const v: V3 = [u(-1, 1), u(-1, 1), u(-1, 1)];
    return v.map((x) => x / norm(v)) as V3;
  };
  const mech = new Mechanism(`spinning${seed}`, { gravity: [0, 0, 0] });
  const n = unit();
  const frames: Frame[] = [];
  for (let k = 1; k <= nb; k++) {
    const m = u(0.2, 2),
      s = [u(0.002, 0.05), u(0.002, 0.05), u(0.002, 0.05)].map((x) => m * x);
    const body = mech.body(`b${k}`, { m, rcm: [u(-0.3, 0.3), u(-0.3, 0.3), u(-0.3, 0.3)], I: [s[1] + s[2], s[0] + s[2], s[0] + s[1]] });
    const spring = k > 1 && rnd() < 0.6 ? { c: u(0.5, 5), q0: u(-0.5, 0.5), d: u(0, 0.5) } : {};
    const joint =
      k > 1 && rnd() < 0.3 ? mech.prismatic(`j${k}`, { axis: unit(), ...spring }) : mech.revolute(`j${k}`, { axis: k === 1 ? n : unit(), ...spring });
    if (k === 1) mech.connect(mech.world.frame_b, joint.frame_a);
    else {
      const bar = mech.bar(`o${k}`, { r: [u(-0.4, 0.4), u(-0.4, 0.4), u(-0.4, 0.4)] });
      mech.connect(frames[Math.floor(rnd() * frames.length)], bar.frame_a);
      mech.connect(bar.frame_b, joint.frame_a);
    }
    mech.connect(joint.frame_b, body.frame_a);
    frames.push(joint.frame_b);
  }
  return { mechanism: mech, n };
}

describe('momentum: conservation', () => {
  it("no gravity, a free root revolute at the origin: n . L constant over 5 s of RK4 to the integrator's accuracy (16x less at half the step)", () => {
    const seed = 2929,
      nb = 6;
    const rnd = prng(seed + 1);
    const start = Object.fromEntries(
      Array.from({ length: nb }, (_, k) => [
        [`j${k + 1}.q`, -0.5 + rnd()],
        [`j${k + 1}.qd`, -2 + 4 * rnd()],
      ]).flat(),
    );
    const names = ijk.map((i) => `momentum.angular[${i}]`);
    for (const mode of MODES) {
      const { mechanism, n } = spinningTree(seed, nb);
      const c = compile(mechanism, { mode });
      const drift = (h: number) => {
        const run = rk4Run(c, h, 5, names, start);
        expect(run.error).toBeUndefined();
        const along = run.signals[names[0]].map((_, k) => names.reduce((sum, name, i) => sum + n[i] * run.signals[name][k], 0));
        const scale = Math.max(...run.signals[names[0]].map((_, k) => norm(names.map((name) => run.signals[name][k]))));
        return { drift: Math.max(...along.map((x) => Math.abs(x - along[0]))) / scale, along: along[0], scale };
      };
      const [a, b] = [drift(2e-3), drift(1e-3)];
      console.log(
        `n . L ${mode}: ${a.along.toFixed(6)} kg m^2/s (|L| up to ${a.scale.toFixed(4)}), relative drift ${a.drift.toExponential(2)} at h = 2e-3, ${b.drift.toExponential(2)} at h = 1e-3, ratio ${(a.drift / b.drift).toFixed(1)}`,
      );
      expect(b.drift).toBeLessThan(1e-8);
      expect(a.drift / b.drift).toBeGreaterThan(8);
      expect(a.drift / b.drift).toBeLessThan(32);
    }
  });
});

describe('momentum and com: names and cost', () => {
  it("a component of the user's own named momentum or com keeps the name; the signals cost nothing in derivatives(), only in the outputs pass", () => {
    const build = (own: readonly string[]) => {
      const mech = doublePendulum();
      for (const name of own) mech.connect(mech.world.frame_b, mech.bar(name, { r: [0, 0, 0] }).frame_a);
      return compile(mech, { mode: 'relaxed' });
    };
    const [withSignals, withoutMomentum, without] = [build([]), build(['momentum']), build(['momentum', 'com'])];
    const ours = [...['momentum.linear', 'momentum.angular', 'com.r', 'com.v'].flatMap((s) => ijk.map((i) => `${s}[${i}]`)), 'com.m'];
    expect(withSignals.signalNames()).toEqual(expect.arrayContaining(ours));
    expect(withoutMomentum.signalNames()).toEqual(expect.arrayContaining([...ours.filter((s) => s.startsWith('com.')), 'momentum.frame_a.r[1]']));
    expect(withoutMomentum.signalNames()).not.toContain('momentum.linear[1]');
    // com.v sums the bodies itself then, rather than reading momentum.linear: the same numbers
    const x = Float64Array.from([0.4, -1.3, 2.1, 0.7]);
    for (const c of [withSignals, withoutMomentum]) c.derivatives(0, x, new Float64Array(x.length));
    for (const name of ours.filter((s) => s.startsWith('com.'))) expect(withoutMomentum.signal(name), name).toBeCloseTo(withSignals.signal(name), 14);
    // (com.r[i] is there: the bar's own parameter r)
    expect(without.signalNames().filter((s) => ours.includes(s))).toEqual(['com.r[1]', 'com.r[2]', 'com.r[3]']);
    expect(without.signalNames()).toContain('com.frame_b.r[1]');
    expect(withSignals.report.ops).toEqual(without.report.ops);
    expect(withSignals.report.outputOps.mul).toBeGreaterThan(withoutMomentum.report.outputOps.mul);
    expect(withoutMomentum.report.outputOps.mul).toBeGreaterThan(without.report.outputOps.mul);
  });
});
