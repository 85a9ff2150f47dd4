// The mechanisms of mechanisms/ against oracles: the double pendulum against
// its closed form (test/oracles/pendulum.ts), the PUMA 560 against the
// toolbox's gravity load and torn against relaxed, the branched tree torn
// against relaxed. "Agree to tol" means |a - b| <= tol max(1, |b|), as in
// the other multibody tests.
import { describe, expect, it } from 'vitest';
import doublePendulum, { parameters as dpDefaults } from '../../mechanisms/doublependulum.ts';
import puma560, { links as pumaLinks } from '../../mechanisms/puma560.ts';
import tree from '../../mechanisms/tree.ts';
import { compile } from '../../src/compile.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { STANDARD_GRAVITY } from '../../src/library/multibody/index.ts';
import { type DoublePendulumParameters, doublePendulumAcceleration } from '../oracles/pendulum.ts';
import { solveDense } from '../oracles/gauss.ts';

/** uniform in [lo, hi), seeded */
function rng(seed: number) {
  return (lo = -1, hi = 1) => lo + ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * (hi - lo);
}

function expectClose(got: number, want: number, tol: number, what: string): void {
  expect(Math.abs(got - want), `${what}: got ${got}, want ${want}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want)));
}

/** the state vector from joint coordinates and speeds by joint name */
function stateOf(c: CompiledModel, q: Record<string, number>, qd: Record<string, number>): Float64Array {
  return Float64Array.from(c.stateNames, (n) => {
    const [joint, what] = n.split('.');
    const v = what === 'q' ? q[joint] : what === 'qd' ? qd[joint] : undefined;
    if (v === undefined) throw new Error(`unexpected state ${n}`);
    return v;
  });
}

/** der(<joint>.qd) for every joint at state x */
function accelerations(c: CompiledModel, joints: readonly string[], x: Float64Array): number[] {
  c.derivatives(0, x, new Float64Array(x.length));
  return joints.map((j) => c.signal(`der(${j}.qd)`));
}

const modes = ['torn', 'relaxed'] as const;

describe('double pendulum against its closed form', () => {
  const p = { ...dpDefaults, m1: 1.3, L1: 0.7, lc1: 0.3, I1: 0.04, m2: 0.6, L2: 0.5, lc2: 0.27, I2: 0.015, qd1: 1.1, qd2: -2.3 };
  const oracle: DoublePendulumParameters = { m1: p.m1, lc1: p.lc1, I1: p.I1, L1: p.L1, m2: p.m2, lc2: p.lc2, I2: p.I2, g: STANDARD_GRAVITY };

  it('der(j1.qd), der(j2.qd) agree with M(q) qdd = tau - C - G at 20 random states, both modes', () => {
    for (const mode of modes) {
      const c = compile(doublePendulum(p), { mode });
      const r = rng(17);
      for (let k = 0; k < 20; k++) {
        const q1 = r(-Math.PI, Math.PI),
          q2 = r(-Math.PI, Math.PI),
          qd1 = r(-4, 4),
          qd2 = r(-4, 4);
        const tau1 = r(-5, 5),
          tau2 = r(-5, 5);
        c.setInput('j1.tau', tau1);
        c.setInput('j2.tau', tau2);
        const got = accelerations(c, ['j1', 'j2'], stateOf(c, { j1: q1, j2: q2 }, { j1: qd1, j2: qd2 }));
        const want = doublePendulumAcceleration(oracle, q1, q2, qd1, qd2, tau1, tau2);
        expectClose(got[0], want[0], 1e-10, `${mode} state ${k} der(j1.qd)`);
        expectClose(got[1], want[1], 1e-10, `${mode} state ${k} der(j2.qd)`);
      }
    }
  });

  it('a 2 s run agrees with RK4 on the closed form (same step) to 1e-8, both modes', () => {
    const h = 1e-3,
      stop = 2;
    // classical RK4 on x = [q1, q2, qd1, qd2]
    const f = (x: number[]) => [x[2], x[3], ...doublePendulumAcceleration(oracle, x[0], x[1], x[2], x[3])];
    const ref: number[][] = [[p.q1, p.q2, p.qd1, p.qd2]];
    for (let s = 0; s < Math.round(stop / h); s++) {
      const x = ref[ref.length - 1];
      const k1 = f(x);
      const k2 = f(x.map((v, i) => v + (h / 2) * k1[i]));
      const k3 = f(x.map((v, i) => v + (h / 2) * k2[i]));
      const k4 = f(x.map((v, i) => v + h * k3[i]));
      ref.push(x.map((v, i) => v + (h / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i])));
    }
    const signals = ['j1.q', 'j2.q', 'j1.qd', 'j2.qd'];
    for (const mode of modes) {
      const res = simulate(compile(doublePendulum(p), { mode }), { stop, step: h, signals });
      expect(res.length).toBe(ref.length);
      let worst = 0;
      signals.forEach((s, i) =>
        res.get(s).forEach((v, k) => {
          worst = Math.max(worst, Math.abs(v - ref[k][i]) / Math.max(1, Math.abs(ref[k][i])));
          expectClose(v, ref[k][i], 1e-8, `${mode} ${s} at t = ${res.time[k]}`);
        }),
      );
      console.log(`doublependulum ${mode}: 2 s run, largest deviation from RK4 on the closed form ${worst.toExponential(2)}`);
    }
  });
});

describe('PUMA 560 (Armstrong, Khatib & Burdick 1986; Corke mdl_puma560)', () => {
  const joints = ['j1', 'j2', 'j3', 'j4', 'j5', 'j6'];
  // the toolbox's gravity, so that gravload(qz) compares
  const torn = compile(puma560({ g: 9.81 }), { mode: 'torn' });
  const relaxed = compile(puma560({ g: 9.81 }), { mode: 'relaxed' });

  it('torn: one algebraic loop, torn to the 6 joint accelerations', () => {
    const { blocks, equations } = torn.report;
    console.log(`puma560 torn: equations ${equations}, blocks ${JSON.stringify(blocks.map((b) => ({ size: b.size, tearing: b.tearing, solver: b.solver })))}`);
    expect(blocks).toHaveLength(1);
    expect(blocks[0].tearing).toBe(6);
    expect([...blocks[0].tearVariables].sort()).toEqual(joints.map((j) => `der(${j}.qd)`));
  });

  it('relaxed: one block per joint, each torn to 1, none spanning the mechanism', () => {
    const { blocks, equations, relaxedLoops } = relaxed.report;
    console.log(
      `puma560 relaxed: equations ${equations}, blocks ${JSON.stringify(blocks.map((b) => ({ size: b.size, tearing: b.tearing, tear: b.tearVariables.join(' ') })))}, relaxedLoops ${JSON.stringify(relaxedLoops)}`,
    );
    expect(blocks).toHaveLength(6);
    for (const b of blocks) {
      expect(b.tearing).toBe(1);
      expect(b.size).toBeLessThanOrEqual(40);
      expect(
        b.variables.filter((v) => /^der\(j\d\.qd\)$/.test(v)),
        `block torn on ${b.tearVariables}`,
      ).toHaveLength(1);
    }
    expect(blocks.flatMap((b) => b.tearVariables).sort()).toEqual(joints.map((j) => `der(${j}.qd)`));
  });

  it('torn and relaxed accelerations agree to 1e-10 on 100 random states and drive torques', () => {
    const r = rng(560);
    for (let k = 0; k < 100; k++) {
      const q = Object.fromEntries(joints.map((j) => [j, r(-Math.PI, Math.PI)]));
      const qd = Object.fromEntries(joints.map((j) => [j, r(-2, 2)]));
      for (const j of joints) {
        const tau = r(-30, 30);
        torn.setInput(`${j}.tau`, tau);
        relaxed.setInput(`${j}.tau`, tau);
      }
      const a = accelerations(torn, joints, stateOf(torn, q, qd));
      const b = accelerations(relaxed, joints, stateOf(relaxed, q, qd));
      joints.forEach((j, i) => expectClose(b[i], a[i], 1e-10, `state ${k} der(${j}.qd)`));
    }
  });

  it('holding torque at qz is the toolbox gravload(qz) = [0 37.4837 0.2489 0 0 0]; M(qz) is symmetric', () => {
    // at rest qdd = M^-1 (tau - G) is affine in tau: the columns of M^-1 from unit torques, then G = -M qdd(tau = 0)
    // hand check at qz (arm straight up, x along base x): joint 2 holds g sum_k m_k x_k over the centres
    // of mass of links 2..6, joint 3 holds g a3 (m4 + m5 + m6) (link 3's centre of mass is over its axis)
    const [, l2, l3, l4, l5, l6] = pumaLinks;
    const a2 = l2.a,
      a3 = l3.a,
      g = 9.81;
    const x = [a2 + l2.r[0], a2 + a3 + l3.r[0], a2 + a3, a2 + a3, a2 + a3];
    const G2 = g * [l2.m, l3.m, l4.m, l5.m, l6.m].reduce((s, m, i) => s + m * x[i], 0);
    const G3 = g * a3 * (l4.m + l5.m + l6.m);
    for (const c of [torn, relaxed]) {
      const x0 = stateOf(c, Object.fromEntries(joints.map((j) => [j, 0])), Object.fromEntries(joints.map((j) => [j, 0])));
      const at = (tau: number[]) => {
        joints.forEach((j, i) => c.setInput(`${j}.tau`, tau[i]));
        return accelerations(c, joints, x0);
      };
      const free = at([0, 0, 0, 0, 0, 0]);
      const Minv = joints.map((_, i) => at(joints.map((_, k) => (k === i ? 1 : 0))).map((v, r) => v - free[r]));
      // Minv[i] is column i of M^-1; M^-1 is symmetric when M is
      for (let i = 0; i < 6; i++) for (let k = 0; k < i; k++) expectClose(Minv[i][k], Minv[k][i], 1e-10, `${c.report.mode} M^-1 symmetry (${i}, ${k})`);
      const Mi = joints.map((_, r) => joints.map((_, i) => Minv[i][r]));
      const G = solveDense(
        Mi,
        free.map((v) => -v),
      );
      const want = [0, G2, G3, 0, 0, 0];
      G.forEach((v, i) => expectClose(v, want[i], 1e-9, `${c.report.mode} G${i + 1}(qz)`));
      [0, 37.4837, 0.2489, 0, 0, 0].forEach((v, i) => expect(Math.abs(G[i] - v), `${c.report.mode} gravload ${i + 1}`).toBeLessThanOrEqual(5e-5));
    }
  });
});

describe('branched tree: torso on a slide and a turntable, two three-link arms', () => {
  const joints = ['slide', 'yaw', 'L1', 'L2', 'L3', 'R1', 'R2', 'R3'];

  function agree(torn: CompiledModel, relaxed: CompiledModel, seed: number): void {
    const r = rng(seed);
    for (let k = 0; k < 100; k++) {
      const q = Object.fromEntries(joints.map((j) => [j, j === 'slide' ? r(-0.5, 0.5) : r(-Math.PI, Math.PI)]));
      const qd = Object.fromEntries(joints.map((j) => [j, r(-2, 2)]));
      for (const j of joints) {
        const tau = r(-20, 20);
        torn.setInput(`${j}.tau`, tau);
        relaxed.setInput(`${j}.tau`, tau);
      }
      const a = accelerations(torn, joints, stateOf(torn, q, qd));
      const b = accelerations(relaxed, joints, stateOf(relaxed, q, qd));
      joints.forEach((j, i) => expectClose(b[i], a[i], 1e-10, `state ${k} der(${j}.qd)`));
    }
  }

  it('torn tears to 8; relaxed has one block per joint, none spanning; they agree to 1e-10 on 100 random states', () => {
    const torn = compile(tree(), { mode: 'torn' });
    const relaxed = compile(tree(), { mode: 'relaxed' });
    console.log(
      `tree torn: equations ${torn.report.equations}, blocks ${JSON.stringify(torn.report.blocks.map((b) => [b.size, b.tearing]))}; relaxed: blocks ${JSON.stringify(relaxed.report.blocks.map((b) => [b.size, b.tearing, b.tearVariables[0]]))}`,
    );
    expect(torn.report.blocks).toHaveLength(1);
    expect(torn.report.blocks[0].tearing).toBe(8);
    const { blocks } = relaxed.report;
    expect(blocks).toHaveLength(joints.length);
    for (const b of blocks) {
      expect(b.tearing).toBe(1);
      expect(
        b.variables.filter((v) => /^der\(\w+\.qd\)$/.test(v)),
        `block torn on ${b.tearVariables}`,
      ).toHaveLength(1);
    }
    expect(blocks.flatMap((b) => b.tearVariables).sort()).toEqual(joints.map((j) => `der(${j}.qd)`).sort());
    agree(torn, relaxed, 77);
  });

  // A joint whose frame_b carries no inertia before the next joint (here the
  // slide with a massless carriage, mC = 0) is a legal mechanism; torn mode
  // compiles it. The paper's proof of eq. 31 assumes a body on every joint;
  // without one the slide's d'Alembert equation is matched only through its
  // residue(qdd), and that pivot is put off to a last 1-equation system, so
  // the relaxed form stays one small block per joint (no fallback to tearing).
  it('a massless carriage (mC = 0): relaxed keeps one block per joint and agrees with torn', () => {
    const torn = compile(tree({ mC: 0 }), { mode: 'torn' });
    const relaxed = compile(tree({ mC: 0 }), { mode: 'relaxed' });
    expect(relaxed.report.diagnostics).toEqual([]);
    expect(relaxed.report.blocks.every((b) => b.tearing === 1)).toBe(true);
    expect(relaxed.report.relaxedLoops[0].remainder).toBe(1);
    agree(torn, relaxed, 78);
  });
});
