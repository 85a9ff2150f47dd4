// The quaternion joints (issue 29): FreeJoint (6 dof, a floating root) and
// BallJoint (3 dof, no singular pose), in both forms. Oracles, none of them
// Kron's own output:
// - the torque-free rigid body: energy and world angular momentum constant,
//   |Q| = 1, and the intermediate-axis flip (Dzhanibekov) with the period of
//   the closed form (test/oracles/torque-free.ts, elliptic integrals);
// - a free-floating chain without gravity, with joint torques (internal): the
//   rates of its total linear and angular momentum, computed by central
//   differences of the momentum along the motion from the bodies' frame
//   signals, vanish; over 10 s its momentum.* signals stay to 1e-10 and com.r
//   moves on a straight line;
// - a ball joint against the Cardan spherical joint on the same bodies, at
//   random states away from gimbal lock: the same body accelerations;
// - torn against relaxed at random states; the relaxed form's operations
//   linear in the bodies (the floating-base articulated-body algorithm).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { ModelError } from '../../src/errors.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { prng } from './random-tree.ts';
import { hermiteRoot, torqueFree } from '../oracles/torque-free.ts';

type V = [number, number, number];
const cross = (a: readonly number[], b: readonly number[]): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const apply = (R: number[][], v: readonly number[]): V => [0, 1, 2].map((i) => R[i][0] * v[0] + R[i][1] * v[1] + R[i][2] * v[2]) as V;
const applyT = (R: number[][], v: readonly number[]): V => [0, 1, 2].map((i) => R[0][i] * v[0] + R[1][i] * v[1] + R[2][i] * v[2]) as V;
const quatR = ([w, x, y, z]: readonly number[]): number[][] => [
  [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
  [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
  [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
];

interface BodySpec {
  name: string;
  m: number;
  rcm: V;
  I: V;
}

/** total linear momentum, angular momentum about the world origin and centre of mass, from each body's frame_a signals */
function momentum(read: (name: string) => number, bodies: readonly BodySpec[]): { p: V; L: V; com: V } {
  const p: V = [0, 0, 0],
    L: V = [0, 0, 0],
    mc: V = [0, 0, 0];
  let M = 0;
  for (const b of bodies) {
    const g = (s: string) => read(`${b.name}.frame_a.${s}`);
    const R = [1, 2, 3].map((i) => [1, 2, 3].map((j) => g(`R[${i}][${j}]`)));
    const r = [1, 2, 3].map((i) => g(`r[${i}]`)),
      v = [1, 2, 3].map((i) => g(`v[${i}]`)),
      w = [1, 2, 3].map((i) => g(`w[${i}]`));
    const c = apply(R, b.rcm),
      rc = r.map((x, i) => x + c[i]),
      vc = v.map((x, i) => x + cross(w, c)[i]);
    const Lc = apply(
      R,
      applyT(R, w).map((x, i) => x * b.I[i]),
    );
    const moment = cross(rc, vc);
    for (let i = 0; i < 3; i++) {
      p[i] += b.m * vc[i];
      L[i] += b.m * moment[i] + Lc[i];
      mc[i] += b.m * rc[i];
    }
    M += b.m;
  }
  return { p, L, com: mc.map((x) => x / M) as V };
}

/** a floating chain of n bodies in zero gravity: a free root, then revolute, prismatic and ball joints with constant torques */
function floatingChain(n: number, seed: number): { m: Mechanism; bodies: BodySpec[] } {
  const rnd = prng(seed);
  const m = new Mechanism(`floating${n}`, { gravity: [0, 0, 0] });
  const root = m.free('root', { r: [0.1, -0.2, 0.3], Q: [0.9, 0.1, 0.3, -0.2], v: [0.1, 0.2, -0.1], w: [0.3, -0.2, 0.5] });
  m.connect(m.world.frame_b, root.frame_a);
  const bodies: BodySpec[] = [];
  const body = (name: string): BodySpec => {
    const [x, y, z] = [0.01 + 0.02 * rnd(), 0.01 + 0.02 * rnd(), 0.01 + 0.02 * rnd()];
    return { name, m: 0.5 + rnd(), rcm: [0.15, 0.02 * (rnd() - 0.5), 0], I: [x + y, y + z, z + x] };
  };
  let at = root.frame_b;
  for (let k = 0; k < n; k++) {
    if (k > 0) {
      const bar = m.bar(`o${k}`, { r: [0.3, 0.05 * (rnd() - 0.5), 0] });
      m.connect(at, bar.frame_a);
      const kind = k % 3;
      const j =
        kind === 0
          ? m.ball(`j${k}`, {
              Q: [1, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5],
              w: [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5],
              tau: [0.1 * (rnd() - 0.5), 0.1 * (rnd() - 0.5), 0.1 * (rnd() - 0.5)],
            })
          : kind === 1
            ? m.revolute(`j${k}`, { axis: [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5], q: rnd() - 0.5, qd: rnd() - 0.5, tau: 0.1 * (rnd() - 0.5) })
            : m.prismatic(`j${k}`, { axis: [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5], q: 0.1 * rnd(), qd: rnd() - 0.5, tau: 0.1 * (rnd() - 0.5) });
      m.connect(bar.frame_b, j.frame_a);
      at = j.frame_b;
    }
    const b = body(`b${k}`);
    bodies.push(b);
    m.connect(at, m.body(b.name, { m: b.m, rcm: b.rcm, I: b.I }).frame_a);
  }
  return { m, bodies };
}

/** a free torso with four limbs of k links each, joints ball, revolute (x), revolute (y) in turn */
function limbs(k: number): Mechanism {
  const m = new Mechanism(`limbs${k}`, { gravity: [0, 0, -9.80665] });
  const root = m.free('root', { Q: [0.9, 0.1, 0.3, -0.2] });
  m.connect(m.world.frame_b, root.frame_a);
  m.connect(root.frame_b, m.body('torso', { m: 10, I: [0.5, 0.4, 0.3] }).frame_a);
  for (let l = 0; l < 4; l++) {
    let at = root.frame_b;
    for (let i = 0; i < k; i++) {
      const bar = m.bar(`o${l}_${i}`, { r: i === 0 ? [0.2 * Math.cos(l), 0.2 * Math.sin(l), 0] : [0, 0, -0.3] });
      m.connect(at, bar.frame_a);
      const j = i % 3 === 0 ? m.ball(`j${l}_${i}`) : m.revolute(`j${l}_${i}`, { axis: i % 3 === 1 ? [1, 0, 0] : [0, 1, 0] });
      m.connect(bar.frame_b, j.frame_a);
      m.connect(j.frame_b, m.body(`b${l}_${i}`, { m: 1, rcm: [0, 0, -0.15], I: [0.01, 0.01, 0.002] }).frame_a);
      at = j.frame_b;
    }
  }
  return m;
}

/** a chain with a free root under gravity, n bodies, joints prismatic, revolute and ball in turn (the relaxed form's operation count) */
function opsChain(n: number): Mechanism {
  const rnd = prng(5);
  const m = new Mechanism(`ops${n}`, { gravity: [0, 0, -9.80665] });
  const root = m.free('root', { Q: [0.9, 0.1, 0.3, -0.2] });
  m.connect(m.world.frame_b, root.frame_a);
  let at = root.frame_b;
  for (let k = 0; k < n; k++) {
    if (k > 0) {
      const bar = m.bar(`o${k}`, { r: [0.3, 0.05 * (rnd() - 0.5), 0] });
      m.connect(at, bar.frame_a);
      const axis: V = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      const j = k % 3 === 2 ? m.ball(`j${k}`) : k % 3 === 1 ? m.revolute(`j${k}`, { axis }) : m.prismatic(`j${k}`, { axis });
      m.connect(bar.frame_b, j.frame_a);
      at = j.frame_b;
    }
    m.connect(at, m.body(`b${k}`, { m: 1, rcm: [0.15, 0, 0], I: [0.03, 0.04, 0.05] }).frame_a);
  }
  return m;
}

const relativeMax = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let d = 0,
    s = 0;
  for (let i = 0; i < a.length; i++) ((d = Math.max(d, Math.abs(a[i] - b[i]))), (s = Math.max(s, Math.abs(b[i]))));
  return d / s;
};

describe('the torque-free rigid body on a free joint (principal inertias 1, 2, 3, no gravity)', () => {
  const spinning = () => {
    const m = new Mechanism('spin', { gravity: [0, 0, 0] });
    const j = m.free('j', { Q: [1, 0, 0, 0], w: [0.01, 2, 0.01], v: [0.1, 0, 0] });
    m.connect(m.world.frame_b, j.frame_a);
    m.connect(j.frame_b, m.body('b', { m: 1, I: [1, 2, 3] }).frame_a);
    return m;
  };
  const signals = ['j.Q[1]', 'j.Q[2]', 'j.Q[3]', 'j.Q[4]', 'j.w[1]', 'j.w[2]', 'j.w[3]', 'j.r[1]', 'energy.total'];

  it('spun near its intermediate axis it flips; over 10 s at h = 1e-3 energy, world angular momentum and |Q| stay, in both forms alike', () => {
    const runs = (['torn', 'relaxed'] as const).map((mode) => simulate(compile(spinning(), { mode }), { stop: 10, step: 1e-3, interval: 0.01, signals }));
    for (const r of runs) {
      const at = (k: number) => {
        const Q = [1, 2, 3, 4].map((i) => r.get(`j.Q[${i}]`)[k]),
          w = [1, 2, 3].map((i) => r.get(`j.w[${i}]`)[k]);
        return { Q, L: apply(quatR(Q), [w[0], 2 * w[1], 3 * w[2]]), E: 0.5 * (w[0] ** 2 + 2 * w[1] ** 2 + 3 * w[2] ** 2) };
      };
      const first = at(0),
        n = r.length;
      for (let k = 0; k < n; k += 10) {
        const now = at(k);
        expect(Math.abs(Math.hypot(...now.Q) - 1)).toBeLessThan(1e-12);
        expect(Math.abs(now.E - first.E) / first.E).toBeLessThan(1e-9);
        expect(Math.max(...now.L.map((x, i) => Math.abs(x - first.L[i]))) / Math.hypot(...first.L)).toBeLessThan(1e-9);
        expect(Math.abs(r.get('energy.total')[k] - (now.E + 0.5 * 0.01))).toBeLessThan(1e-9); // Kron's energy signal: rotation + 1/2 m v^2
      }
      // the flip: w[2] goes from +2 through 0 to about -2 (Dzhanibekov)
      const w2 = r.get('j.w[2]');
      expect(Math.min(...w2)).toBeLessThan(-1.9);
      expect(r.get('j.r[1]')[n - 1]).toBeCloseTo(1, 12); // v = 0.1 m/s, free of the spin
    }
    expect(relativeMax(runs[0].get('j.w[2]'), runs[1].get('j.w[2]'))).toBeLessThan(1e-9);
  });

  it("its flip period is the closed form's (Landau-Lifshitz §37, elliptic integrals) to 1e-9, and Omega(t) follows Jacobi's functions, both forms", () => {
    // spun faster than above so that 10 s hold several flips; Omega(0) = (0.2, 4, 0.3) rad/s in the principal frame
    const w0: V = [0.2, 4, 0.3],
      cf = torqueFree([1, 2, 3], w0);
    const m = new Mechanism('spin', { gravity: [0, 0, 0] });
    const j = m.free('j', { w: w0 });
    m.connect(m.world.frame_b, j.frame_a);
    m.connect(j.frame_b, m.body('b', { m: 1, I: [1, 2, 3] }).frame_a);
    for (const mode of ['torn', 'relaxed'] as const) {
      const h = 1e-3,
        r = simulate(compile(m, { mode }), { stop: 10, step: h, interval: h, signals: ['j.w[1]', 'j.w[2]', 'j.w[3]', 'j.wd[2]'] });
      const w = [r.get('j.w[1]'), r.get('j.w[2]'), r.get('j.w[3]')],
        w2 = w[1],
        wd2 = r.get('j.wd[2]'),
        flips: number[] = [];
      let worst = 0;
      for (let k = 1; k < r.length; k++) {
        // a flip: Omega2 changes sign within the step; the root of the cubic Hermite interpolant of Omega2 and its rate
        if (Math.sign(w2[k]) !== Math.sign(w2[k - 1])) flips.push(r.time[k - 1] + h * hermiteRoot(w2[k - 1], w2[k], h * wd2[k - 1], h * wd2[k]));
        const exact = cf.omega(r.time[k]);
        worst = Math.max(worst, ...w.map((wi, i) => Math.abs(wi[k] - exact[i])));
      }
      expect(flips.length, mode).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < flips.length; i++) expect(Math.abs((flips[i] - flips[i - 1]) / (cf.period / 2) - 1), mode).toBeLessThan(1e-9); // the issue asks 1e-6; measured 2.5e-13
      expect(worst / 4, mode).toBeLessThan(1e-10); // RK4's global error at h = 1e-3 over 10 s, relative to |Omega|: measured 4.1e-12
    }
  });

  it('the adaptive integrator keeps |Q| = 1 too', () => {
    const r = simulate(compile(spinning()), { stop: 10, step: 1e-3, integrator: 'adaptive', rtol: 1e-8, atol: 1e-10, interval: 0.5, signals });
    for (let k = 0; k < r.length; k++) expect(Math.abs(Math.hypot(...[1, 2, 3, 4].map((i) => r.get(`j.Q[${i}]`)[k])) - 1)).toBeLessThan(1e-12);
  });
});

describe('a free-floating chain of 8 bodies without gravity, joint torques its only forces', () => {
  const { m, bodies } = floatingChain(8, 3);
  const c = compile(m, { mode: 'relaxed' });
  const names = bodies.flatMap((b) =>
    ['r', 'v', 'w']
      .flatMap((s) => [1, 2, 3].map((i) => `${b.name}.frame_a.${s}[${i}]`))
      .concat([1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `${b.name}.frame_a.R[${i}][${j}]`))),
  );

  it("the momentum's rates vanish at random states: central differences along the motion, both forms", () => {
    const random = prng(41);
    for (const compiled of [c, compile(floatingChain(8, 3).m, { mode: 'torn' })] as CompiledModel[]) {
      const s = compiled.createState();
      for (let trial = 0; trial < 5; trial++) {
        const x = s.x0().map((v) => v + (random() - 0.5));
        s.normalize(x);
        const dx = new Float64Array(x.length);
        s.derivatives(0, x, dx);
        const at = (e: number) => {
          const y = x.map((v, i) => v + e * dx[i]);
          s.derivatives(0, y, new Float64Array(x.length));
          return momentum((n) => s.signal(n), bodies);
        };
        const e = 1e-5,
          [plus, minus] = [at(e), at(-e)];
        const scale = momentum((n) => (s.derivatives(0, x, new Float64Array(x.length)), s.signal(n)), bodies);
        const rate = (k: 'p' | 'L') => Math.max(...plus[k].map((v, i) => Math.abs(v - minus[k][i]) / (2 * e))) / Math.max(1, Math.hypot(...scale[k]));
        // central differences of a quantity that is constant along the motion: O(e^2) and rounding, no O(1) rate
        expect(rate('p')).toBeLessThan(1e-7);
        expect(rate('L')).toBeLessThan(1e-7);
      }
    }
  });

  it("over 10 s its momentum stays to RK4's accuracy (fourth order in the step) and its centre of mass moves on a line", () => {
    const drift = (h: number) => {
      const r = simulate(c, { stop: 10, step: h, interval: 1, signals: names });
      const read = (k: number) => momentum((n) => r.get(n)[k], bodies);
      const a = read(0),
        z = read(r.length - 1);
      const M = bodies.reduce((s, b) => s + b.m, 0);
      return {
        p: Math.max(...z.p.map((v, i) => Math.abs(v - a.p[i]))),
        L: Math.max(...z.L.map((v, i) => Math.abs(v - a.L[i]))),
        line: Math.max(...z.com.map((v, i) => Math.abs(v - (a.com[i] + (a.p[i] / M) * 10)))),
      };
    };
    const [coarse, fine] = [drift(1e-3), drift(5e-4)];
    for (const k of ['p', 'L', 'line'] as const) {
      expect(coarse[k]).toBeLessThan(1e-4);
      expect(coarse[k] / fine[k]).toBeGreaterThan(8); // 16 for a fourth-order error: integration error, not the model's
    }
  });

  it('its momentum is conserved to 1e-10 (relative) over 10 s when the integrator is asked for it; the momentum.* and com.* signals say so', () => {
    // RK4 at h = 1e-3 keeps it to 1e-8 (above: the error is RK4's, fourth order); an error-controlled run at
    // rtol 1e-13 keeps it to 3e-11 (measured: p 2.8e-12, L 3.1e-11, the centre of mass off its line 3.8e-12 m)
    const r = simulate(c, {
      stop: 10,
      step: 1e-3,
      integrator: 'adaptive',
      rtol: 1e-13,
      atol: 1e-15,
      interval: 0.1,
      signals: ['com.m', 'com.r[1]', 'com.r[2]', 'com.r[3]', ...['linear', 'angular'].flatMap((s) => [1, 2, 3].map((i) => `momentum.${s}[${i}]`))],
    });
    const vector = (name: string, k: number) => [1, 2, 3].map((i) => r.get(`${name}[${i}]`)[k]);
    const [p0, L0, c0] = [vector('momentum.linear', 0), vector('momentum.angular', 0), vector('com.r', 0)];
    const M = r.get('com.m')[0];
    expect(Math.hypot(...p0)).toBeGreaterThan(1); // a chain that moves
    for (let k = 0; k < r.length; k++) {
      expect(relativeMax(vector('momentum.linear', k), p0)).toBeLessThan(1e-10);
      expect(relativeMax(vector('momentum.angular', k), L0)).toBeLessThan(1e-10);
      expect(Math.max(...vector('com.r', k).map((x, i) => Math.abs(x - c0[i] - (p0[i] / M) * r.time[k])))).toBeLessThan(1e-10);
    }
  });

  it('torn and relaxed agree at random states; the relaxed form grows linearly with the bodies, in a chain and in a tree', () => {
    const random = prng(43);
    const torn = compile(floatingChain(8, 3).m, { mode: 'torn' });
    const [a, b] = [c.createState(), torn.createState()];
    for (let trial = 0; trial < 10; trial++) {
      const x = a.x0().map((v) => v + (random() - 0.5));
      a.normalize(x);
      const [da, db] = [new Float64Array(x.length), new Float64Array(x.length)];
      a.derivatives(0, x, da);
      b.derivatives(0, x, db);
      expect(relativeMax(da, db)).toBeLessThan(1e-10);
    }
    // a humanoid-like chain under gravity: free root, then prismatic, revolute and ball joints in turn
    const ops = [8, 16, 32, 64].map((n) => {
      const o = compile(opsChain(n), { mode: 'relaxed' }).report.ops;
      return o.mul + o.add + o.div + o.fn;
    });
    const slopes = [1, 2, 3].map((i) => (ops[i] - ops[i - 1]) / ([8, 16, 32, 64][i] - [8, 16, 32, 64][i - 1]));
    for (const s of slopes.slice(1)) expect(s / slopes[0]).toBeGreaterThan(0.95);
    for (const s of slopes.slice(1)) expect(s / slopes[0]).toBeLessThan(1.05);
    // a humanoid-like tree: the same cost per body whatever the limbs' length (measured 723, 712 and 715 operations
    // per body from 13 to 97 bodies; log-log slopes 0.976, 0.977, 0.991)
    const treeOps = [3, 6, 12].map((k) => {
      const o = compile(limbs(k), { mode: 'relaxed' }).report.ops;
      return o.mul + o.add + o.div + o.fn;
    });
    const perBody = [1, 2].map((i) => (treeOps[i] - treeOps[i - 1]) / (4 * ([3, 6, 12][i] - [3, 6, 12][i - 1])));
    expect(perBody[1] / perBody[0]).toBeGreaterThan(0.95);
    expect(perBody[1] / perBody[0]).toBeLessThan(1.05);
  });
});

describe('the torn form of a floating tree: the floating-base CRBA', () => {
  it("solves H z = c by Cholesky, H one symmetric block of 6 + n coordinates (the matching may pair a free joint's rows in a cycle; the planner orders them back)", () => {
    for (const [name, m] of [
      ['limbs', limbs(3)],
      ['chain', opsChain(8)],
    ] as const) {
      const c = compile(m, { mode: 'torn' });
      const loops = c.report.blocks.filter((b) => b.tearing > 1);
      expect(
        loops.map((b) => b.solver),
        name,
      ).toEqual(['cholesky']);
      const dof = c.stateNames.filter((n) => /\.(v|w)\[\d\]$|\.qd$/.test(n)).length;
      expect(loops[0].tearing, name).toBe(dof);
    }
  });
});

describe('a quaternion ball joint against the Cardan spherical joint', () => {
  // two links hanging under gravity, the first on a ball (Cardan) joint, the second on a revolute
  // the ball joint's quaternion Q and angular velocity w (in frame_b) of the Cardan angles q and their rates qd
  const ballStart = (q: V, qd: V) => {
    const rx = (a: number) => [
      [1, 0, 0],
      [0, Math.cos(a), -Math.sin(a)],
      [0, Math.sin(a), Math.cos(a)],
    ];
    const ry = (a: number) => [
      [Math.cos(a), 0, Math.sin(a)],
      [0, 1, 0],
      [-Math.sin(a), 0, Math.cos(a)],
    ];
    const rz = (a: number) => [
      [Math.cos(a), -Math.sin(a), 0],
      [Math.sin(a), Math.cos(a), 0],
      [0, 0, 1],
    ];
    const mul = (A: number[][], B: number[][]) => A.map((row) => [0, 1, 2].map((j) => row[0] * B[0][j] + row[1] * B[1][j] + row[2] * B[2][j]));
    // R = Rx Ry Rz; its quaternion (Shepperd, w largest here) and the relative angular velocity in frame_b
    const R = mul(mul(rx(q[0]), ry(q[1])), rz(q[2]));
    const w4 = Math.sqrt(1 + R[0][0] + R[1][1] + R[2][2]) / 2;
    const Q = [w4, (R[2][1] - R[1][2]) / (4 * w4), (R[0][2] - R[2][0]) / (4 * w4), (R[1][0] - R[0][1]) / (4 * w4)];
    const e2 = apply(rx(q[0]), [0, 1, 0]),
      e3 = apply(mul(rx(q[0]), ry(q[1])), [0, 0, 1]);
    const wa = [0, 1, 2].map((i) => qd[0] * [1, 0, 0][i] + qd[1] * e2[i] + qd[2] * e3[i]);
    return { Q, w: applyT(R, wa) };
  };
  const twoLinks = (ball: boolean, q: V, qd: V) => {
    const m = new Mechanism(ball ? 'ball' : 'cardan');
    const j1 = ball ? m.ball('j1', ballStart(q, qd)) : m.spherical('j1', { q, qd });
    const b1 = m.body('b1', { m: 2, rcm: [0.3, 0.05, -0.02], I: [0.03, 0.05, 0.06] });
    const bar = m.bar('bar', { r: [0.6, 0, 0] });
    const j2 = m.revolute('j2', { axis: [0, 1, 0], q: 0.3, qd: -0.7 });
    const b2 = m.body('b2', { m: 1, rcm: [0.2, 0, 0], I: [0.01, 0.02, 0.02] });
    m.connect(m.world.frame_b, j1.frame_a);
    m.connect(j1.frame_b, b1.frame_a);
    m.connect(j1.frame_b, bar.frame_a);
    m.connect(bar.frame_b, j2.frame_a);
    m.connect(j2.frame_b, b2.frame_a);
    return m;
  };
  const probes = ['b1.frame_a.z[1]', 'b1.frame_a.z[2]', 'b1.frame_a.z[3]', 'b2.frame_a.a[1]', 'b2.frame_a.a[2]', 'b2.frame_a.a[3]', 'der(j2.qd)'];

  it("at 20 random states away from gimbal lock the bodies' accelerations agree to 1e-11, both forms", () => {
    const random = prng(17);
    // each model compiled once per form: start values are data (compile.ts), so a trial's state is x0 with
    // the ball's Q, w and the Cardan q, qd written in by name, as the start values would have put them
    const compiled = (['torn', 'relaxed'] as const).map((mode) => ({
      mode,
      a: compile(twoLinks(true, [0, 0, 0], [0, 0, 0]), { mode }),
      b: compile(twoLinks(false, [0, 0, 0], [0, 0, 0]), { mode }),
    }));
    const read = (c: CompiledModel, values: Record<string, number>) => {
      const x = c.x0();
      for (const [name, v] of Object.entries(values)) x[c.stateNames.indexOf(name)] = v;
      expect(c.stateNames).toEqual(expect.arrayContaining(Object.keys(values)));
      c.derivatives(0, x, new Float64Array(c.stateNames.length));
      return probes.map((p) => c.signal(p));
    };
    for (let trial = 0; trial < 20; trial++) {
      const q: V = [2 * (random() - 0.5), 2 * (random() - 0.5), 2 * (random() - 0.5)];
      const qd: V = [random() - 0.5, random() - 0.5, random() - 0.5];
      const { Q, w } = ballStart(q, qd);
      const ball = Object.fromEntries([...Q.map((v, k) => [`j1.Q[${k + 1}]`, v]), ...w.map((v, k) => [`j1.w[${k + 1}]`, v])]);
      const cardan = Object.fromEntries(
        [0, 1, 2].flatMap((k) => [
          [`j1.q[${k + 1}]`, q[k]],
          [`j1.qd[${k + 1}]`, qd[k]],
        ]),
      );
      for (const { mode, a, b } of compiled) {
        const [ra, rb] = [read(a, ball), read(b, cardan)];
        expect(relativeMax(ra, rb), `trial ${trial} ${mode}`).toBeLessThan(1e-11);
      }
    }
  });
});

describe('typed errors', () => {
  it('a zero quaternion, a ball joint a loop should determine, a vector of two numbers, inverse dynamics', () => {
    expect(() => new Mechanism('m').ball('j', { Q: [0, 0, 0, 0] })).toThrow(ModelError);
    expect(() => new Mechanism('m').free('j', { Q: [0, 0, 0, 0] })).toThrow(
      /start orientation Q = \[0, 0, 0, 0\] of joint j is not a quaternion of non-zero length/,
    );
    expect(() => new Mechanism('m').ball('j', { state: false })).toThrow(/joint j is a quaternion ball joint marked state: false/);
    expect(() => new Mechanism('m').free('j', { r: [1, 2] })).toThrow(/r = \[1, 2\] is not three finite numbers/);
    const m = new Mechanism('m');
    const j = m.free('j');
    m.connect(m.world.frame_b, j.frame_a);
    m.connect(j.frame_b, m.body('b', { m: 1, I: [1, 1, 1] }).frame_a);
    // issue 33: its inverse problem takes the quaternion whole (7 positions) for 6 coordinates (test/dynamics/floating-derivatives.test.ts)
    const inv = compile(m, { problem: 'inverse' });
    expect(inv.positions).toEqual(['j.r[1]', 'j.r[2]', 'j.r[3]', 'j.Q[1]', 'j.Q[2]', 'j.Q[3]', 'j.Q[4]']);
    expect(inv.report.inverse?.coordinates).toEqual(['j.r[1]', 'j.r[2]', 'j.r[3]', 'j.w[1]', 'j.w[2]', 'j.w[3]']);
  });
});
