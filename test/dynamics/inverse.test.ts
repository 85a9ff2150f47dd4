// Inverse dynamics compiled from the same library by changing which
// variables are known (compile(model, { problem: 'inverse' })): the state
// joints' q, qd, qdd given, their tau computed. Against the independent
// Newton-Euler oracle (test/oracles/rnea.ts) on chains, random trees
// (revolute and prismatic, springs and dampers) and the PUMA 560; on the
// four-bar and six-bar loops, the forces fed to forward dynamics give back
// the accelerations.
import { describe, expect, it } from 'vitest';
import chain, { parameters as chainParameters } from '../../mechanisms/chain.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import sixbar from '../../mechanisms/sixbar.ts';
import { type CompileReport, compile } from '../../src/compile.ts';
import { main } from '../../src/cli/main.ts';
import { UsageError } from '../../src/errors.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import { rnea } from '../oracles/rnea.ts';
import { chainTree } from '../oracles/aba.ts';
import { type Case, cases, passiveForce, prng, pumaTree } from './cases.ts';
import puma560 from '../../mechanisms/puma560.ts';

const relDiff = (got: ArrayLike<number>, want: ArrayLike<number>, scale: number) => {
  let m = 0;
  for (let i = 0; i < want.length; i++) m = Math.max(m, Math.abs(got[i] - want[i]) / scale);
  return m;
};

describe('inverse dynamics against the recursive Newton-Euler oracle (1e-10 relative)', () => {
  const all: Case[] = [
    { name: 'chain n = 8', mechanism: () => chain({ n: 8 }), oracle: chainTree(8, chainParameters) },
    { name: 'chain n = 64', mechanism: () => chain({ n: 64 }), oracle: chainTree(64, chainParameters) },
    { name: 'PUMA 560', mechanism: () => puma560(), oracle: pumaTree(9.80665) },
    ...cases,
  ];
  for (const c of all) {
    for (const mode of ['torn', 'relaxed'] as const) {
      it(`${c.name}, ${mode}`, () => {
        const inv = compile(c.mechanism(), { mode, problem: 'inverse' });
        const n = c.oracle.bodies.length;
        expect(inv.coordinates.map((k) => k.tau)).toEqual(Array.from({ length: n }, (_, i) => `j${i + 1}.tau`));
        // a tree: no algebraic loop is left, the sorted equations are the recursion
        expect(inv.report.blocks).toEqual([]);
        expect(inv.report.problem).toBe('inverse');
        expect(inv.report.inverse!.ops).toEqual(inv.report.ops);
        const rnd = prng(31 * n + (mode === 'torn' ? 1 : 2));
        let worst = 0;
        for (let s = 0; s < 5; s++) {
          const q = Array.from({ length: n }, () => -Math.PI + 2 * Math.PI * rnd());
          const qd = Array.from({ length: n }, () => -2 + 4 * rnd());
          const qdd = Array.from({ length: n }, () => -5 + 10 * rnd());
          const tau = inv.inverse(0, q, qd, qdd);
          // the drive balances inertia, gravity, velocity terms and the joint's spring-damper
          const want = rnea(c.oracle, q, qd, qdd).map((v, i) => v + passiveForce(c.passive?.[i], q[i], qd[i]));
          const scale = Math.max(1, ...want.map(Math.abs));
          const d = relDiff(tau, want, scale);
          worst = Math.max(worst, d);
          expect(d, `state ${s}: q = [${q}], tau = [${[...tau]}], oracle [${want}]`).toBeLessThanOrEqual(1e-10);
        }
        if (/chain n = 64|PUMA/.test(c.name))
          console.log(`inverse ${c.name} ${mode}: max relative difference to RNEA ${worst.toExponential(2)}; ops ${JSON.stringify(inv.report.ops)}`);
      });
    }
  }
});

describe('kinematic loops: the forces of inverse dynamics, fed to forward dynamics, give back the accelerations', () => {
  const loops: { name: string; build: () => Mechanism; step: number }[] = [
    { name: 'four-bar (mechanisms/fourbar.ts)', build: () => fourbar(), step: 0.05 },
    { name: 'six-bar (mechanisms/sixbar.ts)', build: () => sixbar(), step: 0.05 },
  ];
  for (const l of loops) {
    for (const mode of ['torn', 'relaxed'] as const) {
      it(`${l.name}, ${mode}`, () => {
        const inv = compile(l.build(), { mode, problem: 'inverse' });
        const fwd = compile(l.build(), { mode });
        expect(inv.coordinates).toHaveLength(1);
        const k = inv.coordinates[0];
        const x = fwd.x0();
        const iq = fwd.stateNames.indexOf(k.q),
          iqd = fwd.stateNames.indexOf(k.qd);
        const q0 = x[iq];
        const rnd = prng(l.name.length);
        for (let s = 0; s < 8; s++) {
          // a path from the start pose, so that both loops' Newton iterations follow the same branch
          const q = q0 + l.step * s,
            qd = -2 + 4 * rnd(),
            qdd = -10 + 20 * rnd();
          const tau = inv.inverse(0, [q], [qd], [qdd]);
          x[iq] = q;
          x[iqd] = qd;
          fwd.setInput(k.tau, tau[0]);
          const dx = new Float64Array(x.length);
          fwd.derivatives(0, x, dx);
          expect(Math.abs(dx[iqd] - qdd), `state ${s}: q ${q}, qd ${qd}, tau ${tau[0]}: forward gives ${dx[iqd]}, wanted ${qdd}`).toBeLessThanOrEqual(
            1e-10 * Math.max(1, Math.abs(qdd)),
          );
          // the rest joints agree too: the same closed loop
          for (const name of fwd.stateNames.length ? inv.signalNames().filter((v) => /\.q(\[\d\])?$/.test(v) && v !== k.q) : []) {
            if (fwd.hasSignal(name)) expect(Math.abs(fwd.signal(name) - inv.signal(name)), name).toBeLessThanOrEqual(1e-9);
          }
        }
        console.log(
          `inverse ${l.name} ${mode}: ops ${JSON.stringify(inv.report.ops)} (forward ${JSON.stringify(fwd.report.ops)}), blocks ${JSON.stringify(inv.report.blocks.map((b) => [b.size, b.tearing, b.solver]))}`,
        );
      });
    }
  }
});

describe('compile stays pure and the problem switch is explicit', () => {
  it('an inverse compile changes nothing in the model: a forward compile afterwards gives the same code, and the variables keep their kinds', () => {
    const m = chain({ n: 4 });
    const before = compile(m);
    const inv = compile(m, { problem: 'inverse' });
    const after = compile(m);
    expect(after.generated.body).toBe(before.generated.body);
    expect(after.report.ops).toEqual(before.report.ops);
    expect(inv.stateNames).toEqual(before.stateNames);
    expect(before.problem).toBe('forward');
    expect(inv.generated.layout.inputs).toEqual(['j1.qdd', 'j2.qdd', 'j3.qdd', 'j4.qdd']);
    // the problem's causality travels as data: the model's variables keep their declared kinds
    for (const k of m.generalizedCoordinates()) {
      expect([k.q.kind, k.qd.kind, k.qdd.kind, k.tau.kind]).toEqual(['state', 'state', 'algebraic', 'input']);
    }
  });

  it('kron compile --inverse --json: problem, the coordinates, the forces and their ops', async () => {
    let stdout = '',
      stderr = '';
    const code = await main(['compile', 'mechanisms/puma560.ts', '--inverse', '--json'], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as CompileReport;
    expect(report.problem).toBe('inverse');
    expect(report.inverse!.coordinates).toEqual(['j1', 'j2', 'j3', 'j4', 'j5', 'j6']);
    expect(report.inverse!.forces).toEqual(['j1.tau', 'j2.tau', 'j3.tau', 'j4.tau', 'j5.tau', 'j6.tau']);
    expect(report.inverse!.ops).toEqual(report.ops);
    expect(report.blocks).toEqual([]);
    const forward = compile(puma560());
    expect(forward.report.problem).toBe('forward');
    expect(forward.report.inverse).toBeUndefined();
  });

  it('inverse(), massMatrix() and bias() on a forward model are usage errors with a hint', () => {
    const fwd = compile(chain({ n: 2 }));
    expect(() => fwd.inverse(0, [0, 0], [0, 0], [0, 0])).toThrow(/compiled for the inverse problem/);
    expect(() => fwd.massMatrix([0, 0])).toThrow(UsageError);
    expect(() => fwd.bias([0, 0], [0, 0])).toThrow(UsageError);
    const error = (() => {
      try {
        fwd.massMatrix([0, 0]);
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(error?.details.hint).toMatch(/problem: 'inverse'/);
  });

  it('wrong array lengths are a usage error naming the coordinates', () => {
    const inv = compile(chain({ n: 2 }), { problem: 'inverse' });
    expect(() => inv.inverse(0, [0], [0, 0], [0, 0])).toThrow(/2 coordinates \(j1.q, j2.q\)/);
  });

  it('two inverse runs of one compiled model side by side give the same forces', () => {
    const inv = compile(chain({ n: 6 }), { problem: 'inverse' });
    const a = inv.inverseDynamics(),
      b = inv.inverseDynamics();
    const q = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
      qd = [1, -1, 1, -1, 1, -1];
    const ta = a.evaluate(0, q, qd, [0, 0, 0, 0, 0, 0]);
    b.evaluate(0, qd, q, [1, 1, 1, 1, 1, 1]);
    expect([...a.evaluate(0, q, qd, [0, 0, 0, 0, 0, 0])]).toEqual([...ta]);
    expect([...inv.inverse(0, q, qd, [0, 0, 0, 0, 0, 0])]).toEqual([...ta]);
  });
});

describe('multi-axis state joints (spherical, universal): one coordinate per axis', () => {
  // world -ball (spherical, damped)- b1 -bar- -cardan (universal)- b2: inverse forces fed to forward dynamics
  const build = () => {
    const m = new Mechanism('balls');
    const ball = m.spherical('ball', { d: 0.3 });
    const b1 = m.body('b1', { m: 2, rcm: [0.2, -0.3, 0.1], I: [0.05, 0.04, 0.03, 0.01, 0, 0.005] });
    const bar = m.bar('bar', { r: [0.1, -0.6, 0.2] });
    const cardan = m.universal('cardan', {
      axes: [
        [1, 0, 0],
        [0, 1, 0],
      ],
    });
    const b2 = m.body('b2', { m: 1, rcm: [0, -0.4, 0.1], I: [0.02, 0.01, 0.02] });
    m.connect(m.world.frame_b, ball.frame_a);
    m.connect(ball.frame_b, b1.frame_a);
    m.connect(ball.frame_b, bar.frame_a);
    m.connect(bar.frame_b, cardan.frame_a);
    m.connect(cardan.frame_b, b2.frame_a);
    return m;
  };
  for (const mode of ['torn', 'relaxed'] as const) {
    it(`${mode}: coordinates ball.q[1..3], cardan.q[1..2]; forward dynamics gives back qdd; M symmetric positive definite`, () => {
      const inv = compile(build(), { mode, problem: 'inverse' });
      const fwd = compile(build(), { mode });
      expect(inv.coordinates.map((k) => k.q)).toEqual(['ball.q[1]', 'ball.q[2]', 'ball.q[3]', 'cardan.q[1]', 'cardan.q[2]']);
      expect(inv.report.inverse!.coordinates).toEqual(['ball[1]', 'ball[2]', 'ball[3]', 'cardan[1]', 'cardan[2]']);
      expect(inv.report.blocks).toEqual([]);
      const rnd = prng(11);
      for (let s = 0; s < 5; s++) {
        const q = inv.coordinates.map(() => -1 + 2 * rnd()),
          qd = q.map(() => -2 + 4 * rnd()),
          qdd = q.map(() => -5 + 10 * rnd());
        const tau = inv.inverse(0, q, qd, qdd);
        const x = fwd.x0();
        inv.coordinates.forEach((k, i) => {
          x[fwd.stateNames.indexOf(k.q)] = q[i];
          x[fwd.stateNames.indexOf(k.qd)] = qd[i];
          fwd.setInput(k.tau, tau[i]);
        });
        const dx = new Float64Array(x.length);
        fwd.derivatives(0, x, dx);
        inv.coordinates.forEach((k, i) =>
          expect(Math.abs(dx[fwd.stateNames.indexOf(k.qd)] - qdd[i]), `${k.qdd} at state ${s}`).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(qdd[i]))),
        );
        const M = inv.massMatrix(q);
        for (let i = 0; i < 5; i++) for (let j = 0; j < i; j++) expect(Math.abs(M[i * 5 + j] - M[j * 5 + i])).toBeLessThanOrEqual(1e-12);
        for (let i = 0; i < 5; i++) expect(M[i * 5 + i]).toBeGreaterThan(0);
      }
    });
  }
});
