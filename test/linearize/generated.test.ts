// linearize() by generated tangent code (src/analysis/linearize-generated.ts)
// against the symbolic path (implicit.ts: the implicit function theorem on
// the flat equations, which never runs the generated code): A, B, C, D to
// 1e-10 of their largest entry, on models compiled torn (planned again
// relaxed for the tangents) and relaxed, with chosen inputs and outputs.
import { describe, expect, it } from 'vitest';
import doublependulum from '../../mechanisms/doublependulum.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import fourbarPlanar from '../../mechanisms/fourbar-planar.ts';
import sixbar from '../../mechanisms/sixbar.ts';
import slidercrank from '../../mechanisms/slidercrank.ts';
import puma from '../../mechanisms/puma560.ts';
import rcladder from '../../mechanisms/rcladder.ts';
import { compile } from '../../src/compile.ts';
import { frameJacobian, frameJacobianFunction, linearize } from '../../src/analysis/index.ts';
import { iiwa } from '../dynamics/trees.ts';
import { relativeDifference } from './helpers.ts';

type Build = () => Parameters<typeof compile>[0];
const point = (states: readonly string[]) => Object.fromEntries(states.map((s, i) => [s, 0.4 * Math.sin(1.3 * i + 0.5)]));

function agree(build: Build, mode: 'torn' | 'relaxed', pick: { inputs?: (all: string[]) => string[]; outputs?: (signals: string[]) => string[] } = {}) {
  const compiled = compile(build(), { mode });
  const at = point(compiled.stateNames);
  const inputs = pick.inputs?.(compiled.generated.layout.inputs);
  const outputs = pick.outputs?.(compiled.signalNames());
  const s = linearize(compiled, { at, inputs, outputs, method: 'symbolic' });
  const g = linearize(compiled, { at, inputs, outputs, method: 'generated' });
  expect(s.method).toBe('symbolic');
  expect(g.method).toBe('generated');
  for (const m of ['A', 'B', 'C', 'D'] as const) expect(relativeDifference(g[m], s[m]), `${m} (${mode})`).toBeLessThanOrEqual(1e-10);
  expect(g.y).toEqual(s.y);
  expect(g.dx).toEqual(s.dx);
  return { s, g };
}

describe('generated A, B, C, D against the symbolic linearization (1e-10)', () => {
  for (const mode of ['torn', 'relaxed'] as const) {
    it(`PUMA 560, ${mode}: every input; outputs a frame position and a joint force`, () => {
      const { g } = agree(() => puma(), mode, {
        outputs: (all) => [all.find((n) => /^j6\.frame_b\.r_0\[1\]$/.test(n)) ?? all.find((n) => n.includes('frame_b.r'))!, 'j2.tau'],
      });
      expect(g.C).toHaveLength(2);
    });
  }
  it('KUKA iiwa 14 from MJCF (7 dof, servos as inputs), relaxed', () => {
    agree(iiwa, 'relaxed');
  });
  it('double pendulum, torn: one chosen input, outputs a state and an unknown', () => {
    agree(() => doublependulum(), 'torn', { inputs: () => ['j2.tau'], outputs: () => ['j1.q', 'der(j2.qd)'] });
  });
  it('an RC ladder (no mechanism: states are capacitor voltages)', () => {
    agree(() => rcladder(), 'relaxed');
  });
});

describe('kinematic loops: generated through the blocks implicitly, against the symbolic linearization (1e-10)', () => {
  // the point: the state joints near their start (the loop's Newton stays on its assembly branch)
  const near = (c: ReturnType<typeof compile>) => Object.fromEntries(c.stateNames.map((s, i) => [s, c.x0()[i] + 0.05 * Math.cos(i)]));
  const loops = [
    ['four-bar', fourbar, ['j4.q']],
    ['planar four-bar', fourbarPlanar, ['j2.q', 'j4.q']],
    ['six-bar', sixbar, ['jB.q', 'jF.q']],
    ['slider-crank', slidercrank, ['j2.q', 'j3.q']],
  ] as const;
  for (const [name, build, outputs] of loops) {
    for (const mode of ['torn', 'relaxed'] as const) {
      it(`${name}, ${mode}: A, B and the loop's joints as outputs`, () => {
        const compiled = compile(build(), { mode });
        const at = near(compiled);
        const s = linearize(compiled, { at, outputs: [...outputs], method: 'symbolic' });
        const g = linearize(compiled, { at, outputs: [...outputs], method: 'generated' });
        expect(g.method).toBe('generated');
        for (const m of ['A', 'B', 'C', 'D'] as const) expect(relativeDifference(g[m], s[m]), m).toBeLessThanOrEqual(1e-10);
        expect(g.C.flat().some((v) => v !== 0)).toBe(true);
      });
    }
  }
});

describe('when the generated code is used', () => {
  it('unset: the first call with a compiled model is symbolic, the next ones generated (a tree without outputs: analytical, tree.test.ts)', () => {
    const compiled = compile(puma(), { mode: 'relaxed' });
    const at = point(compiled.stateNames);
    expect(linearize(compiled, { at }).method).toBe('analytical');
    expect(linearize(compiled, { at, outputs: ['j1.q'] }).method).toBe('symbolic');
    expect(linearize(compiled, { at, outputs: ['j1.q'] }).method).toBe('generated');
    // other outputs are other code: symbolic first again
    expect(linearize(compiled, { at, outputs: ['j2.q'] }).method).toBe('symbolic');
  });
  it('a kinematic loop (four-bar) too: symbolic first, then generated', () => {
    const compiled = compile(fourbar(), { mode: 'relaxed' });
    expect(linearize(compiled).method).toBe('symbolic');
    expect(linearize(compiled).method).toBe('generated');
  });
});

describe('frame Jacobians by generated code against the symbolic ones (1e-12)', () => {
  const frames = (c: ReturnType<typeof compile>) =>
    c
      .signalNames()
      .filter((n) => n.endsWith('.R[1][1]'))
      .map((n) => n.slice(0, -'.R[1][1]'.length));
  for (const [name, build, mode] of [
    ['PUMA 560', () => puma(), 'torn'],
    ['KUKA iiwa 14', iiwa, 'relaxed'],
  ] as const) {
    it(`${name} (${mode}): the last frame, same J, r, R; the first call symbolic, the second generated`, () => {
      const compiled = compile(build(), { mode });
      const frame = frames(compiled).at(-1)!;
      const at = point(compiled.stateNames);
      const s = frameJacobian(compiled, frame, { at });
      const g = frameJacobian(compiled, frame, { at });
      expect([s.method, g.method]).toEqual(['symbolic', 'generated']);
      expect(g.coordinates).toEqual(s.coordinates);
      expect(g.speeds).toEqual(s.speeds);
      expect(relativeDifference(g.J, s.J)).toBeLessThanOrEqual(1e-12);
      expect(g.r).toEqual(s.r);
      expect(g.R).toEqual(s.R);
    });
  }
  it('the four-bar: the coupler frame generated through the loop, the symbolic J (1e-12)', () => {
    const compiled = compile(fourbar());
    const at = { 'j1.q': 0.4, 'j1.qd': 0.2 };
    const s = frameJacobian(compiled, 'b3.bar.frame_b', { at, method: 'symbolic' }),
      g = frameJacobian(compiled, 'b3.bar.frame_b', { at, method: 'generated' });
    expect(relativeDifference(g.J, s.J)).toBeLessThanOrEqual(1e-12);
    expect(g.J.flat().some((v) => v !== 0)).toBe(true);
  });
});

describe('a frame Jacobian as a generated function of q (frameJacobianFunction)', () => {
  it('the iiwa 14 link 7 and the PUMA link 6 at three points: the symbolic J (1e-12)', () => {
    for (const [build, frame] of [
      [iiwa, 'link7.frame_a'],
      [() => puma(), 'link6.frame_a'],
    ] as const) {
      const compiled = compile(build());
      const f = frameJacobianFunction(compiled, frame);
      const n = f.coordinates.length;
      for (let s = 0; s < 3; s++) {
        const q = f.coordinates.map((_, i) => Math.sin(1.7 * i + s));
        const J = f.jacobian(q);
        const want = frameJacobian(compiled, frame, { at: Object.fromEntries(f.coordinates.map((c, i) => [c, q[i]])), method: 'symbolic' });
        expect(want.coordinates).toEqual(f.coordinates);
        expect(
          relativeDifference(
            Array.from({ length: 6 }, (_, k) => [...J.subarray(k * n, (k + 1) * n)]),
            want.J,
          ),
        ).toBeLessThanOrEqual(1e-12);
      }
    }
  });
  it('a wrong length: a UsageError naming the coordinates (a loop works: loop-frame-jacobian.test.ts)', () => {
    expect(() => frameJacobianFunction(compile(fourbar()), 'b3.bar.frame_b').jacobian([0, 0])).toThrow(/takes 1 coordinates \(j1.q\)/);
    expect(() => frameJacobianFunction(compile(puma()), 'link6.frame_a').jacobian([0, 0])).toThrow(/takes 6 coordinates \(j1.q, j2.q/);
  });
});

describe("J' qd of a frame as generated code of (q, qd) (frameJacobianFunction's jdotqd)", () => {
  // along a curved path q(t) = q0 + t v + t^2 a / 2: d/dt (J(q(t)) qd(t)) = J' qd + J qdd, so J' qd = that derivative - J a,
  // the derivative by fourth-order central differences of the generated J (step 1e-3)
  for (const [name, build, frame] of [
    ['PUMA 560', () => puma(), 'link6.frame_a'],
    ['KUKA iiwa 14', iiwa, 'link7.frame_a'],
  ] as const) {
    it(`${name}, ${frame}: against differences of J(q(t)) qd(t) along a path, three points (1e-8)`, () => {
      const f = frameJacobianFunction(compile(build()), frame);
      const n = f.coordinates.length;
      for (let k = 0; k < 3; k++) {
        const q0 = Array.from({ length: n }, (_, i) => 0.7 * Math.sin(1.7 * i + k)),
          v = Array.from({ length: n }, (_, i) => Math.cos(0.9 * i + 2 * k)),
          a = Array.from({ length: n }, (_, i) => 0.5 * Math.sin(2.3 * i - k));
        const Jv = (t: number) => {
          const J = f.jacobian(q0.map((q, i) => q + t * v[i] + (t * t * a[i]) / 2));
          return Array.from({ length: 6 }, (_, r) => v.reduce((s, vi, i) => s + J[r * n + i] * (vi + t * a[i]), 0));
        };
        const h = 1e-3,
          [p2, p1, m1, m2] = [Jv(2 * h), Jv(h), Jv(-h), Jv(-2 * h)];
        const J0 = f.jacobian(q0);
        const want = Array.from(
          { length: 6 },
          (_, r) => (-p2[r] + 8 * p1[r] - 8 * m1[r] + m2[r]) / (12 * h) - a.reduce((s, ai, i) => s + J0[r * n + i] * ai, 0),
        );
        const got = f.jdotqd(q0, v);
        const scale = Math.max(1, ...want.map(Math.abs));
        expect(Math.max(...want.map((w, r) => Math.abs(got[r] - w))) / scale, `point ${k}`).toBeLessThanOrEqual(1e-8);
        expect(Math.max(...got.map(Math.abs))).toBeGreaterThan(1e-3);
      }
    });
  }
  it('wrong lengths: a UsageError naming the count', () => {
    expect(() => frameJacobianFunction(compile(puma()), 'link6.frame_a').jdotqd([0], [0])).toThrow(/J' qd of link6.frame_a takes 6 coordinates/);
  });
});
