// Relaxing (relaxing paper, section 4): relaxed BLT and symbolic block
// elimination against torn compilations, closed forms and dense solves.
import { describe, expect, it } from 'vitest';
import { add, mul, relax } from '../../src/expr/index.ts';
import { Model, der } from '../../src/model/index.ts';
import { compile } from '../../src/compile.ts';
import { StructuralError } from '../../src/errors.ts';
import { Gear, Shaft, ShaftS, TorqueSource } from '../../src/library/rotational/index.ts';
import drivetrain from '../../mechanisms/drivetrain.ts';
import * as ladder from '../../mechanisms/resistorladder.ts';
import * as bondgraph from '../../mechanisms/bondgraph.ts';
import * as drive from '../../mechanisms/drivetrain.ts';
import { solveDense } from '../oracles/gauss.ts';

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** every signal of two compilations of one model at the same state, relative agreement */
function expectSameSignals(a: ReturnType<typeof compile>, b: ReturnType<typeof compile>, x: Float64Array, tol: number) {
  a.derivatives(0, x, new Float64Array(x.length));
  b.derivatives(0, x, new Float64Array(x.length));
  for (const name of a.signalNames()) {
    const va = a.signal(name),
      vb = b.signal(name);
    expect(Math.abs(va - vb), name).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(va)));
  }
}

describe('relaxed drive train (sections 3, 5)', () => {
  it('falls apart into four blocks of one equation: no loop is left', () => {
    const r = compile(drivetrain(), { mode: 'relaxed' }).report;
    expect(r.blocks).toEqual([]);
    expect(r.relaxedLoops).toEqual([{ size: 4, relaxedBlocks: 4, largest: 1, remainder: 0, checkedPivots: 0 }]);
  });
  it('is the eight-assignment sequence of section 5 (6 mul, 3 add, 1 div), of which der(s2.w) needs five', () => {
    const c = compile(drivetrain(), { mode: 'relaxed', foldParameters: false });
    const { ops, outputOps } = c.report;
    // all of it: the paper's 6 mul, 3 add, 1 div plus 1 mul for the velocity s1.w = i s2.w
    expect({ mul: ops.mul + outputOps.mul, add: ops.add + outputOps.add, div: ops.div + outputOps.div }).toEqual({ mul: 7, add: 3, div: 1 });
    // what der(s2.w) needs: c1, c2, c3, c4 and alpha2 = -c1/c4; tau1, tau2, alpha1 are outputs
    expect(ops).toEqual({ mul: 3, add: 1, div: 1, fn: 0 });
  });
  it('gives eq. 5 and the torn result on random parameters', () => {
    const r = rng(3);
    for (let k = 0; k < 20; k++) {
      const p = { J1: 0.1 + r() * 3, J2: 0.1 + r() * 3, i: 0.2 + r() * 5, tau: r() * 4 - 2, w0: r() };
      const relaxed = compile(drivetrain(p), { mode: 'relaxed', foldParameters: false });
      const torn = compile(drivetrain(p), { mode: 'torn', foldParameters: false });
      expectSameSignals(relaxed, torn, relaxed.x0(), 1e-12);
      expect(relaxed.signal('der(s2.w)')).toBeCloseTo((p.i * p.tau) / (p.J2 + p.i * p.i * p.J1), 12);
    }
  });
  it('the reversed gear of section 10 fails with a message naming the gear; torn mode handles it', () => {
    const m = new Model('reversed');
    const src = m.add(new TorqueSource('drive', { tau: 1 }));
    const s1 = m.add(new Shaft('s1', { J: 1 }));
    const g = m.add(new Gear('g', { i: 3 }));
    const s2 = m.add(new ShaftS('s2', { J: 2 }));
    m.connect(src.flange, s1.l);
    m.connect(s1.r, g.r); // turned around
    m.connect(g.l, s2.l);
    let err: StructuralError | undefined;
    try {
      compile(m, { mode: 'relaxed' });
    } catch (e) {
      err = e as StructuralError;
    }
    expect(err).toBeInstanceOf(StructuralError);
    expect(err!.message).toMatch(/relax\(\) marks in .*\bg\b/);
    expect(err!.details.hint).toMatch(/turn .*\bg\b.* around/);
    const torn = compile(m, { mode: 'torn' });
    torn.derivatives(0, torn.x0(), new Float64Array(1));
    // s2 on the left flange: s1.w = s2.w / i, so (J2 + J1 / i^2) der(s2.w) = tau / i
    expect(torn.signal('der(s2.w)')).toBeCloseTo(1 / 3 / (2 + 1 / 9), 12);
  });
});

describe('symbolic block elimination (section 4, eqs. 7-11)', () => {
  it('solves the three-block system of eq. 7 like a dense solve', () => {
    const r = rng(11);
    for (let k = 0; k < 10; k++) {
      const A = [0, 1, 2].map(() => [0, 1, 2].map(() => r() * 2 - 1));
      for (let i = 0; i < 3; i++) A[i][i] += 3; // keep the fixed pivot order well conditioned
      const b = [r(), r(), r()];
      const m = new Model('eq7');
      const s = m.variable('s', { start: 0 });
      const x = [m.variable('x1'), m.variable('x2'), m.variable('x3')];
      m.equation(der(s), x[2]);
      m.equation(add(mul(A[0][0], x[0]), mul(A[0][1], relax(x[1])), mul(A[0][2], relax(x[2]))), b[0]);
      m.equation(add(mul(A[1][0], x[0]), mul(A[1][1], x[1]), mul(A[1][2], relax(x[2]))), b[1]);
      m.equation(add(mul(A[2][0], x[0]), mul(A[2][1], x[1]), mul(A[2][2], x[2])), b[2]);
      const c = compile(m, { mode: 'relaxed' });
      expect(c.report.relaxedLoops).toEqual([{ size: 3, relaxedBlocks: 3, largest: 1, remainder: 0, checkedPivots: 0 }]);
      c.derivatives(0, c.x0(), new Float64Array(1));
      const want = solveDense(A, b);
      x.forEach((xi, i) => expect(c.signal(xi.sym!.name)).toBeCloseTo(want[i], 12));
    }
  });
  it('relaxed and torn agree on every signal of the papers models, on random parameters', () => {
    const r = rng(5);
    const cases: [string, (p: Record<string, number>) => Model, Record<string, number>][] = [
      ...[0, 1, 2, 3].map(
        (variant) =>
          [`ladder ${variant}`, ladder.default as never, { ...ladder.parameters, variant }] as [
            string,
            (p: Record<string, number>) => Model,
            Record<string, number>,
          ],
      ),
      ...[0, 1, 2].map(
        (variant) =>
          [`bond graph ${variant}`, bondgraph.default as never, { ...bondgraph.parameters, variant }] as [
            string,
            (p: Record<string, number>) => Model,
            Record<string, number>,
          ],
      ),
      ['drive train', drive.default as never, drive.parameters],
    ];
    for (const [, build, defaults] of cases) {
      for (let k = 0; k < 5; k++) {
        const p = Object.fromEntries(Object.entries(defaults).map(([n, v]) => [n, n === 'variant' ? v : v * (0.5 + r())]));
        const torn = compile(build(p), { mode: 'torn', foldParameters: false });
        const relaxed = compile(build(p), { mode: 'relaxed', foldParameters: false });
        const x = torn.x0().map(() => r() * 2 - 1);
        expectSameSignals(torn, relaxed, x, 1e-10);
      }
    }
  });
});

describe('relaxed circuits (section 6)', () => {
  it('a relaxed ladder keeps only the node equations: a remainder of 3 on the 3 node voltages', () => {
    const rep = compile(ladder.default({ variant: 0 }), { mode: 'relaxed' }).report;
    expect(rep.relaxedLoops[0].remainder).toBe(3);
  });
});
