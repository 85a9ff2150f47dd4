// linearize() of models with free and ball joints on the tangent space
// (src/analysis/linearize-tangent.ts): each quaternion's four states become
// the rotation vector theta[1..3], Q = Q0 (x) exp(theta / 2), so A is
// 2 n_v x 2 n_v. Oracle for the acceleration rows: fourth-order differences
// of the compiled forward code along q (+) delta e_j (test/dynamics/
// tangent-space.ts: the quaternion turned and normalised), along qd and
// along the inputs; for the theta rows the kinematics of the chart,
// d theta/dt = w - 1/2 w x theta + O(theta^2) (the inverse of SO(3)'s right
// Jacobian), by hand. Symbolic and generated agree (1e-10).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { linearize } from '../../src/analysis/index.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import tumbling, { parameters as box } from '../../mechanisms/tumbling.ts';
import { forwardDynamics, jacobian } from '../dynamics/differences.ts';
import { places, tangentJacobian } from '../dynamics/tangent-space.ts';
import { relativeDifference } from './helpers.ts';

/** a free torso with a ball-jointed leg and a revolute foot (gravity -y) */
function floater(): Mechanism {
  const m = new Mechanism('floater');
  const base = m.free('base', { r: [0.1, 0.2, 0.3], Q: [0.9, 0.1, 0.3, -0.2], v: [0.1, -0.2, 0.3], w: [0.4, -0.3, 0.2] });
  m.connect(m.world.frame_b, base.frame_a);
  m.connect(base.frame_b, m.body('torso', { m: 3, rcm: [0.1, 0.2, 0], I: [1, 2, 3] }).frame_a);
  const hip = m.ball('hip', { Q: [0.8, 0.2, -0.1, 0.3], w: [0.5, 0.1, -0.4] });
  m.connect(base.frame_b, hip.frame_a);
  m.connect(hip.frame_b, m.body('leg', { m: 1, rcm: [0, -0.5, 0.1], I: [0.1, 0.05, 0.1] }).frame_a);
  const shin = m.bar('shin', { r: [0, -1, 0] });
  m.connect(hip.frame_b, shin.frame_a);
  const ankle = m.revolute('ankle', { axis: [1, 0, 0], q: 0.3, qd: -0.2 });
  m.connect(shin.frame_b, ankle.frame_a);
  m.connect(ankle.frame_b, m.body('foot', { m: 0.5, rcm: [0, 0, 0.1], I: [0.01, 0.01, 0.02] }).frame_a);
  return m;
}

const skew = ([a, b, c]: readonly number[]) => [
  [0, -c, b],
  [c, 0, -a],
  [-b, a, 0],
];

describe('linearize of a floating model on the tangent space', () => {
  for (const mode of ['torn', 'relaxed'] as const) {
    it(`a free torso, a ball hip and a revolute ankle, ${mode}: A is 2 n_v square; its rows against differences of the forward code (1e-8)`, () => {
      const fwd = compile(floater(), { mode });
      const inv = compile(floater(), { problem: 'inverse' });
      const n = inv.coordinates.length;
      const s = linearize(fwd, { method: 'symbolic' }),
        g = linearize(fwd, { method: 'generated' }),
        full = linearize(fwd, { method: 'symbolic', quaternions: 'states' });
      expect(full.states.length).toBe(2 * n + 2);
      expect(s.states.length).toBe(2 * n);
      expect(s.states.filter((k) => k.includes('theta'))).toEqual([
        'base.theta[1]',
        'base.theta[2]',
        'base.theta[3]',
        'hip.theta[1]',
        'hip.theta[2]',
        'hip.theta[3]',
      ]);
      for (const m of ['A', 'B'] as const) expect(relativeDifference(g[m], s[m]), m).toBeLessThanOrEqual(1e-10);
      // the point in the inverse model's arrays, from the forward model's start
      const x0 = fwd.x0(),
        value = (name: string) => x0[fwd.stateNames.indexOf(name)];
      const q = inv.positions.map(value),
        qd = inv.coordinates.map((c) => value(c.qd)),
        tau = new Float64Array(n);
      const fd = forwardDynamics(fwd, inv.coordinates, inv.positions);
      const dq = tangentJacobian((y) => fd(y, qd, tau), places(inv.coordinates), q),
        dqd = jacobian((y) => fd(q, y, tau), qd),
        dtau = jacobian((y) => fd(q, qd, y), tau);
      // the state of each coordinate's position (a rotation: its theta) and speed, in s.states
      const thetaOf = (c: (typeof inv.coordinates)[number]) => c.quaternion!.Q[0].replace(/Q\[1\]$/, `theta[${c.quaternion!.axis + 1}]`);
      const pos = inv.coordinates.map((c) => s.states.indexOf(c.quaternion ? thetaOf(c) : c.q)),
        vel = inv.coordinates.map((c) => s.states.indexOf(c.qd)),
        input = inv.coordinates.map((c) => s.inputs.indexOf(c.tau));
      expect([...pos, ...vel, ...input].every((k) => k >= 0)).toBe(true);
      const pick = (rows: number[], cols: number[], M: number[][]) => rows.map((i) => cols.map((j) => M[i][j]));
      const square = (J: Float64Array) => Array.from({ length: n }, (_, i) => [...J.subarray(i * n, i * n + n)]);
      expect(relativeDifference(pick(vel, pos, s.A), square(dq)), 'dqdd/d(q (+) delta)').toBeLessThanOrEqual(1e-8);
      expect(relativeDifference(pick(vel, vel, s.A), square(dqd)), 'dqdd/dqd').toBeLessThanOrEqual(1e-8);
      expect(relativeDifference(pick(vel, input, s.B), square(dtau)), 'dqdd/dtau').toBeLessThanOrEqual(1e-8);
      // the position rows: d(delta q)/dt = qd, and on a rotation's theta -1/2 [w]x theta
      const expected = inv.coordinates.map((c, i) =>
        inv.coordinates.map((d) => {
          if (!c.quaternion || !d.quaternion || d.quaternion.Q[0] !== c.quaternion.Q[0]) return 0;
          const w = [0, 1, 2].map((k) => qd[i - c.quaternion!.axis + k]);
          return -0.5 * skew(w)[c.quaternion.axis][d.quaternion.axis];
        }),
      );
      expect(relativeDifference(pick(pos, pos, s.A), expected), 'dtheta/dtheta').toBeLessThanOrEqual(1e-12);
      expect(
        relativeDifference(
          pick(pos, vel, s.A),
          expected.map((r, i) => r.map((_, j) => (i === j ? 1 : 0))),
        ),
        'd(delta q)/dqd',
      ).toBeLessThanOrEqual(1e-12);
      // the states' derivative at the point: qd on the positions' rows (a rotation's theta: its w)
      expect(
        pos.map((k) => s.dx[k]),
        'dx',
      ).toEqual(qd.map((v) => expect.closeTo(v, 12)));
    });
  }
});

describe("the tumbling box's linearization (docs/guide/analysis.md)", () => {
  it('spun about its intermediate axis: eigenvalues +-omega sqrt((I2 - I1)(I3 - I2) / (I1 I3)) = +-1.8, the chart turning at +-|w0|/2 i, eight zeros', () => {
    const l = linearize(tumbling(), { at: { 'j.w[1]': 0 } });
    expect(l.A).toHaveLength(12);
    const [I1, I2, I3] = [box.b ** 2 + box.c ** 2, box.a ** 2 + box.c ** 2, box.a ** 2 + box.b ** 2].map((v) => (box.m * v) / 12);
    const lambda = box.spin * Math.sqrt(((I2 - I1) * (I3 - I2)) / (I1 * I3));
    expect(lambda).toBeCloseTo(1.8, 12);
    const e = l.eigenvalues;
    expect(e.filter((v) => Math.abs(v.re) > 1e-9 && Math.abs(v.im) < 1e-12).map((v) => v.re)).toEqual([
      expect.closeTo(lambda, 10),
      expect.closeTo(-lambda, 10),
    ]);
    expect(e.filter((v) => Math.abs(v.im) > 1e-9).map((v) => Math.abs(v.im))).toEqual([expect.closeTo(box.spin / 2, 10), expect.closeTo(box.spin / 2, 10)]);
    expect(e.filter((v) => Math.hypot(v.re, v.im) < 1e-9)).toHaveLength(8);
  });
});
