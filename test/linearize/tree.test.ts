// linearize() of a revolute/prismatic tree by its analytical derivatives
// (src/analysis/linearize-tree.ts) against two independent oracles: the
// generated tangents of the model's whole forward code (the path it
// replaces; method 'generated') to 1e-10 of the largest entry, and
// fourth-order central differences of the compiled forward code to 1e-7.
// Models: the PUMA 560 (torn and relaxed, which must agree), the KUKA iiwa
// 14 (MJCF position servos on ctrl), and seeded random trees with springs,
// dampers and position servos on random joints. A force that is not affine
// (a cubic spring) must fall back, with its reason.
import { describe, expect, it } from 'vitest';
import fourbar from '../../mechanisms/fourbar.ts';
import puma from '../../mechanisms/puma560.ts';
import { compile } from '../../src/compile.ts';
import { linearize } from '../../src/analysis/index.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { mul, pow } from '../../src/expr/index.ts';
import type { OneDofJoint } from '../../src/library/multibody/index.ts';
import { iiwa, withServos } from '../dynamics/trees.ts';
import { randomTree } from '../multibody/random-tree.ts';
import { relativeDifference } from './helpers.ts';

const point = (c: CompiledModel, inputs = 0.3) => ({
  ...Object.fromEntries(c.stateNames.map((s, i) => [s, 0.4 * Math.sin(1.3 * i + 0.5)])),
  ...Object.fromEntries(c.generated.layout.inputs.map((u, k) => [u, inputs * Math.cos(0.7 * k + 0.2)])),
});

/** A and B by fourth-order central differences of the compiled forward code: step h (1 + |v|) */
function differences(c: CompiledModel, x: readonly number[], u: readonly number[], h = 1e-3): { A: number[][]; B: number[][] } {
  const state = c.createState(),
    n = x.length;
  const f = (xs: number[], us: number[]) => {
    state.u.set(us);
    const dx = new Float64Array(n);
    state.derivatives(0, Float64Array.from(xs), dx);
    return dx;
  };
  const column = (at: (d: number) => [number[], number[]], s: number) => {
    const [p2, p1, m1, m2] = [2, 1, -1, -2].map((k) => f(...at(k * s)));
    return Array.from(p1, (_, i) => (-p2[i] + 8 * p1[i] - 8 * m1[i] + m2[i]) / (12 * s));
  };
  const set = (v: readonly number[], j: number, d: number) => v.map((y, k) => (k === j ? y + d : y));
  const byX = x.map((v, j) => column((d) => [set(x, j, d), [...u]], h * (1 + Math.abs(v))));
  const byU = u.map((v, k) => column((d) => [[...x], set(u, k, d)], h * (1 + Math.abs(v))));
  const transpose = (cols: number[][]) => Array.from({ length: n }, (_, i) => cols.map((col) => col[i]));
  return { A: transpose(byX), B: transpose(byU) };
}

/** analytical against the generated tangents and the differences; returns the analytical result */
function agrees(c: CompiledModel) {
  const at = point(c);
  const a = linearize(c, { at });
  expect(a.method).toBe('analytical');
  const g = linearize(c, { at, method: 'generated' });
  expect(g.method).toBe('generated');
  expect(relativeDifference(a.A, g.A)).toBeLessThanOrEqual(1e-10);
  expect(relativeDifference(a.B, g.B)).toBeLessThanOrEqual(1e-10);
  expect(a.dx).toEqual(g.dx);
  const fd = differences(c, a.x, a.u);
  expect(relativeDifference(a.A, fd.A)).toBeLessThanOrEqual(1e-7);
  expect(relativeDifference(a.B, fd.B)).toBeLessThanOrEqual(1e-7);
  return a;
}

describe('linearize by the analytical tree derivatives', () => {
  it('PUMA 560: torn and relaxed, against the tangents and the differences, and each other', () => {
    const [t, r] = (['torn', 'relaxed'] as const).map((mode) => agrees(compile(puma(), { mode })));
    expect(relativeDifference(t.A, r.A)).toBeLessThanOrEqual(1e-10);
    expect(relativeDifference(t.B, r.B)).toBeLessThanOrEqual(1e-10);
  });

  it('KUKA iiwa 14: the MJCF servos enter A through kp, kv and B through ctrl', () => {
    const a = agrees(compile(iiwa()));
    const k = a.inputs.indexOf('actuator1.ctrl');
    expect(a.B[a.states.indexOf('joint1.qd')][k]).not.toBe(0);
  });

  for (let k = 0; k < 6; k++) {
    const seed = 3300 + k,
      nb = 2 + ((3 * k) % 9);
    it(`random tree seed ${seed}, ${nb} bodies, springs, dampers and servos`, () => {
      agrees(compile(withServos(seed, nb)));
    });
  }

  it('a cubic spring is not affine: the tangents answer, and asking for the analytical path says why', () => {
    const mech = randomTree(3400, 3).mechanism,
      j = mech.children.find((c) => c.localName === 'j2') as OneDofJoint;
    j.applyForce(mul(-40, pow(j.q, 3)));
    const c = compile(mech),
      at = point(c);
    expect(() => linearize(c, { at, method: 'analytical' })).toThrow(/analytical tree derivatives is not possible: a force outside the tree is not affine/);
    expect(linearize(c, { at }).method).toBe('symbolic');
    expect(linearize(c, { at }).method).toBe('generated');
  });

  it('outputs or a loop keep the other paths: symbolic first, then generated', () => {
    const c = compile(puma());
    expect(linearize(c, { at: point(c), outputs: ['j1.q'] }).method).toBe('symbolic');
    const loop = compile(fourbar());
    expect(() => linearize(loop, { method: 'analytical' })).toThrow(/a kinematic loop/);
    expect(linearize(loop).method).toBe('symbolic');
  });
});
