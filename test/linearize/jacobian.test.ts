// Frame Jacobians: a planar two-link arm against the textbook closed form,
// and on spatial mechanisms (a chain, the four-bar with its loop closed)
// against two independent routes: central differences of the frame's
// position after derivatives() at perturbed coordinates, and the velocity
// level the compiled code solves, v = J_v qd and w = J_w qd.
import { describe, expect, it } from 'vitest';
import chain from '../../mechanisms/chain.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import { compile } from '../../src/compile.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import { frameJacobian } from '../../src/analysis/index.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';

const [l1, l2] = [0.7, 0.4];

/** two revolutes about z, links of length l1 and l2 in the x-y plane; the tip is bar2.frame_b */
function twoLinkArm(): Mechanism {
  const m = new Mechanism('arm');
  const j1 = m.revolute('j1', { axis: [0, 0, 1] });
  const b1 = m.body('b1', { m: 1, rcm: [l1 / 2, 0, 0], I: [0.01, 0.04, 0.04] });
  const bar1 = m.bar('bar1', { r: [l1, 0, 0] });
  const j2 = m.revolute('j2', { axis: [0, 0, 1] });
  const b2 = m.body('b2', { m: 0.5, rcm: [l2 / 2, 0, 0], I: [0.005, 0.01, 0.01] });
  const bar2 = m.bar('bar2', { r: [l2, 0, 0] });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, b1.frame_a);
  m.connect(j1.frame_b, bar1.frame_a);
  m.connect(bar1.frame_b, j2.frame_a);
  m.connect(j2.frame_b, b2.frame_a);
  m.connect(j2.frame_b, bar2.frame_a);
  return m;
}

/** the frame's position, R, v and w where derivatives() left them at state x */
function frameAt(c: CompiledModel, frame: string, x: Float64Array) {
  const s = c.createState();
  s.derivatives(0, x, new Float64Array(x.length));
  const v3 = (name: string) => [1, 2, 3].map((k) => s.signal(`${frame}.${name}[${k}]`));
  return { r: v3('r'), v: v3('v'), w: v3('w') };
}

describe('frame Jacobians', () => {
  it('planar two-link arm: the textbook closed form', () => {
    for (const [q1, q2] of [
      [0.3, 0.9],
      [-1.2, 2.1],
      [2.5, -0.4],
    ]) {
      const J = frameJacobian(twoLinkArm(), 'bar2.frame_b', { at: { 'j1.q': q1, 'j2.q': q2 } });
      expect(J.coordinates).toEqual(['j1.q', 'j2.q']);
      expect(J.speeds).toEqual(['j1.qd', 'j2.qd']);
      const s1 = Math.sin(q1),
        c1 = Math.cos(q1),
        s12 = Math.sin(q1 + q2),
        c12 = Math.cos(q1 + q2);
      const want = [
        [-l1 * s1 - l2 * s12, -l2 * s12],
        [l1 * c1 + l2 * c12, l2 * c12],
        [0, 0],
        [0, 0],
        [0, 0],
        [1, 1],
      ];
      J.J.forEach((row, i) => row.forEach((v, j) => expect(Math.abs(v - want[i][j])).toBeLessThanOrEqual(1e-14)));
      expect(Math.abs(J.r[0] - (l1 * c1 + l2 * c12))).toBeLessThanOrEqual(1e-14);
      expect(Math.abs(J.r[1] - (l1 * s1 + l2 * s12))).toBeLessThanOrEqual(1e-14);
    }
  });
  it('spatial chain: J qd is the frame velocity the compiled code computes, J_v the difference quotient of r', () => {
    const c = compile(chain({ n: 4 }));
    const at = { 'j1.q': 0.3, 'j2.q': -0.5, 'j3.q': 0.8, 'j4.q': 0.2, 'j1.qd': 0.7, 'j2.qd': -1.1, 'j3.qd': 0.4, 'j4.qd': 1.3 };
    const J = frameJacobian(c, 'bar4.frame_b', { at });
    const x = Float64Array.from(c.stateNames, (n) => at[n as keyof typeof at]);
    const qd = J.speeds.map((n) => at[n as keyof typeof at]);
    const { v, w } = frameAt(c, 'bar4.frame_b', x);
    const Jqd = J.J.map((row) => row.reduce((s, a, j) => s + a * qd[j], 0));
    [...v, ...w].forEach((value, i) => expect(Math.abs(Jqd[i] - value)).toBeLessThanOrEqual(1e-13));
    J.coordinates.forEach((q, j) => {
      const h = 1e-6,
        k = c.stateNames.indexOf(q);
      const rp = frameAt(
        c,
        'bar4.frame_b',
        x.map((v, i) => (i === k ? v + h : v)),
      ).r;
      const rm = frameAt(
        c,
        'bar4.frame_b',
        x.map((v, i) => (i === k ? v - h : v)),
      ).r;
      for (let i = 0; i < 3; i++) expect(Math.abs((rp[i] - rm[i]) / (2 * h) - J.J[i][j])).toBeLessThanOrEqual(1e-8);
    });
  });
  it('four-bar, loop closed: the coupler follows the crank (velocity level and differences of r)', () => {
    const c = compile(fourbar());
    for (const q of [0.3, 1.5, -2.2]) {
      const qd = 1.7;
      const J = frameJacobian(c, 'b3.bar.frame_b', { at: { 'j1.q': q, 'j1.qd': qd } });
      expect(J.coordinates).toEqual(['j1.q']);
      const x = Float64Array.of(q, qd);
      const { v, w } = frameAt(c, 'b3.bar.frame_b', x);
      [...v, ...w].forEach((value, i) => expect(Math.abs(J.J[i][0] * qd - value)).toBeLessThanOrEqual(1e-10 * (1 + Math.abs(value))));
      const h = 1e-6;
      const rp = frameAt(c, 'b3.bar.frame_b', Float64Array.of(q + h, qd)).r;
      const rm = frameAt(c, 'b3.bar.frame_b', Float64Array.of(q - h, qd)).r;
      for (let i = 0; i < 3; i++) expect(Math.abs((rp[i] - rm[i]) / (2 * h) - J.J[i][0])).toBeLessThanOrEqual(1e-7);
      // the coupler moves: its Jacobian is not zero (a loop cut open would leave it still)
      expect(Math.hypot(J.J[3][0], J.J[4][0], J.J[5][0])).toBeGreaterThan(0.1);
    }
  });
});
