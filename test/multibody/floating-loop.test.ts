// A loop on a floating base (issue 29): a torso on a free joint with two
// legs (universal hip, revolute knee) whose feet are joined by a quaternion
// ball joint as the loop's cut — a biped standing on one point, in the air.
// Oracles, none of them Kron's own output: the cut's two frames stay
// together (position residual), the loop's forces are internal (without
// gravity the momentum.* signals stay and com.r moves on its line), they do
// no work (the energy stays), and the torn form agrees with the relaxed.
// Measured (2026-11-28): feet 2e-14 m apart, momentum 4.8e-13 and 1.0e-12
// (relative), the centre of mass 1.7e-13 m off its line, energy 1.7e-11.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import { prng } from './random-tree.ts';

type V = [number, number, number];

/** the biped: feet meet at (0, 0, -0.8) in the torso's frame, the loop assembled at q = 0 */
function biped(gravity: V, kneeTorque = 0): Mechanism {
  const m = new Mechanism('biped', { gravity });
  const torso = m.free('torso_free', { r: [0.1, 0, 1], Q: [0.95, 0.1, -0.2, 0.15], v: [0.3, -0.1, 0.2], w: [0.4, -0.3, 0.6] });
  m.connect(m.world.frame_b, torso.frame_a);
  m.connect(torso.frame_b, m.body('torso', { m: 8, rcm: [0, 0, 0.1], I: [0.3, 0.2, 0.15] }).frame_a);
  const cut = m.ball('feet', { cut: true });
  for (const [side, s] of [
    ['l', 1],
    ['r', -1],
  ] as const) {
    const hipAt = m.bar(`${side}_hip_at`, { r: [0, 0.15 * s, 0] });
    const hip = m.universal(`${side}_hip`, {
      axes: [
        [1, 0, 0],
        [0, 1, 0],
      ],
      qd: [0.5 * s, -0.3],
    }); // a start velocity the loop's closure projects
    const thigh = m.body(`${side}_thigh`, { m: 1.2, rcm: [0, -0.0375 * s, -0.2], I: [0.02, 0.02, 0.004] });
    const thighBar = m.bar(`${side}_thigh_bar`, { r: [0, -0.075 * s, -0.4] });
    const knee = m.revolute(`${side}_knee`, { axis: [0, 1, 0], tau: kneeTorque * s, c: 10, q0: -0.3 }); // a spring, bent at rest: the legs swing, and do not fold onto themselves
    const shank = m.body(`${side}_shank`, { m: 0.8, rcm: [0, -0.0375 * s, -0.2], I: [0.01, 0.01, 0.002] });
    const shankBar = m.bar(`${side}_shank_bar`, { r: [0, -0.075 * s, -0.4] });
    m.connect(torso.frame_b, hipAt.frame_a);
    m.connect(hipAt.frame_b, hip.frame_a);
    m.connect(hip.frame_b, thigh.frame_a);
    m.connect(hip.frame_b, thighBar.frame_a);
    m.connect(thighBar.frame_b, knee.frame_a);
    m.connect(knee.frame_b, shank.frame_a);
    m.connect(knee.frame_b, shankBar.frame_a);
    m.connect(shankBar.frame_b, side === 'l' ? cut.frame_a : cut.frame_b);
  }
  return m;
}

const vector = (name: string) => [1, 2, 3].map((i) => `${name}[${i}]`);
/** each shank's frame signals: the foot is at r + R (0, -0.075 s, -0.4), each computed along its own leg */
const SHANKS = ['l', 'r'].flatMap((side) => [...vector(`${side}_shank.frame_a.r`), ...[1, 2, 3].flatMap((i) => vector(`${side}_shank.frame_a.R[${i}]`))]);
function feet(read: (name: string) => number): V[] {
  return (['l', 'r'] as const).map((side) => {
    const b = [0, (side === 'l' ? -1 : 1) * 0.075, -0.4];
    return [1, 2, 3].map(
      (i) => read(`${side}_shank.frame_a.r[${i}]`) + [1, 2, 3].reduce((sum, j) => sum + read(`${side}_shank.frame_a.R[${i}][${j}]`) * b[j - 1], 0),
    ) as V;
  });
}
const MOMENTUM = [...vector('momentum.linear'), ...vector('momentum.angular'), ...vector('com.r'), 'com.m', 'energy.total'];

describe('a loop on a floating base: two legs of a free torso joined at the feet by a ball cut', () => {
  it('compiles in both forms with the loop cut at the feet, and torn and relaxed agree at random velocities to 1e-10', () => {
    const [torn, relaxed] = (['torn', 'relaxed'] as const).map((mode) => compile(biped([0, 0, -9.80665], 2), { mode }));
    expect(relaxed.report.kinematics?.cutJoints).toEqual(['feet']);
    const random = prng(29);
    const [a, b] = [torn.createState(), relaxed.createState()];
    for (let k = 0; k < 10; k++) {
      // positions as assembled (the loop determines some), velocities random (the loop's velocity closure projects them)
      const x = a.x0().map((v, i) => (/\.(qd|w|v)(\[|$)/.test(torn.stateNames[i]) ? v + (random() - 0.5) : v));
      const [da, db] = [new Float64Array(x.length), new Float64Array(x.length)];
      a.derivatives(0, x, da);
      b.derivatives(0, x, db);
      let worst = 0,
        scale = 1;
      for (let i = 0; i < x.length; i++) ((worst = Math.max(worst, Math.abs(da[i] - db[i]))), (scale = Math.max(scale, Math.abs(db[i]))));
      expect(worst / scale).toBeLessThan(1e-10);
    }
  });

  it('over 3 s without gravity, knee torques: the feet stay together, momentum and the line of the centre of mass stay to 1e-9', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const r = simulate(compile(biped([0, 0, 0], 0.3), { mode }), {
        stop: 3,
        step: 1e-3,
        integrator: 'adaptive',
        rtol: 1e-12,
        atol: 1e-14,
        interval: 0.05,
        signals: [...SHANKS, ...MOMENTUM],
      });
      const at = (names: string[], k: number) => names.map((n) => r.get(n)[k]);
      const p0 = at(vector('momentum.linear'), 0),
        L0 = at(vector('momentum.angular'), 0),
        c0 = at(vector('com.r'), 0),
        M = r.get('com.m')[0];
      let gap = 0,
        dp = 0,
        dL = 0,
        line = 0,
        moved = 0;
      for (let k = 0; k < r.length; k++) {
        const [l, rf] = feet((n) => r.get(n)[k]);
        gap = Math.max(gap, Math.hypot(l[0] - rf[0], l[1] - rf[1], l[2] - rf[2]));
        dp = Math.max(dp, ...at(vector('momentum.linear'), k).map((v, i) => Math.abs(v - p0[i])));
        dL = Math.max(dL, ...at(vector('momentum.angular'), k).map((v, i) => Math.abs(v - L0[i])));
        line = Math.max(line, ...at(vector('com.r'), k).map((v, i) => Math.abs(v - c0[i] - (p0[i] / M) * r.time[k])));
        const l0 = feet((n) => r.get(n)[0])[0];
        moved = Math.max(moved, Math.hypot(l[0] - l0[0], l[1] - l0[1], l[2] - l0[2]));
      }
      expect(moved, mode).toBeGreaterThan(0.2); // the feet did move (the torso turns and the legs swing)
      expect(gap, mode).toBeLessThan(1e-10); // Newton's closure tolerance on the positions
      expect(dp / Math.hypot(...p0), mode).toBeLessThan(1e-9);
      expect(dL / Math.hypot(...L0), mode).toBeLessThan(1e-9);
      expect(line, mode).toBeLessThan(1e-9);
    }
  });

  it("without torques the loop's forces do no work: the energy (kinetic and the knees' springs) stays to 1e-9 over 3 s", () => {
    const r = simulate(compile(biped([0, 0, 0], 0)), {
      stop: 3,
      step: 1e-3,
      integrator: 'adaptive',
      rtol: 1e-12,
      atol: 1e-14,
      interval: 0.05,
      signals: ['energy.total', 'energy.kinetic'],
    });
    const E = r.get('energy.total'),
      K = r.get('energy.kinetic');
    const worst = Math.max(...E.map((e) => Math.abs(e - E[0])));
    expect(Math.max(...K) - Math.min(...K)).toBeGreaterThan(1e-3); // the legs swing: energy moves between motion and springs
    expect(worst / Math.max(...K)).toBeLessThan(1e-9);
  });
});
