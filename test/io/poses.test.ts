// Poses against closed forms (the planar double pendulum), against the
// rotation matrices read back from the same run (the spatial PUMA 560), and
// interpolation and bounds on hand-made poses.
import { describe, expect, it } from 'vitest';
import { mat3, quat } from 'gl-matrix';
import doublependulum, { parameters as dp } from '../../mechanisms/doublependulum.ts';
import puma560 from '../../mechanisms/puma560.ts';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { simulatePlayback } from '../../src/io/playback.ts';
import { packPoses, posesAtInto, sampleBefore, SIGNALS_PER_FRAME } from '../../src/io/poses.ts';
import { runBounds } from '../../src/io/bounds.ts';
import { POSE_STRIDE, type Poses, type Scene } from '../../src/io/types.ts';

const pose = (p: Poses, k: number, f: number) => p.data.slice((k * p.frames + f) * POSE_STRIDE, (k * p.frames + f + 1) * POSE_STRIDE);
/** the angle of a rotation about z from its quaternion (sign-independent) */
const zAngle = (q: number[]) => 2 * Math.atan2(q[5], q[6]);
const wrap = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));

describe('playback poses', () => {
  it('double pendulum: link 2 sits at L1 (cos q1, sin q1, 0), turned by q1 + q2 about z', () => {
    const c = compile(doublependulum(), { mode: 'torn' });
    const { result, playback } = simulatePlayback(doublependulum(), c, { stop: 1, step: 1e-3, interval: 0.05 });
    expect(result.names).toEqual(c.stateNames); // pose signals stay out of the result's signals
    const { scene, poses } = playback!;
    const f1 = scene.frames.findIndex((f) => f.members.includes('link1.frame_a'));
    const f2 = scene.frames.findIndex((f) => f.members.includes('link2.frame_a'));
    const q1 = result.get('j1.q'),
      q2 = result.get('j2.q');
    expect(poses.data).toHaveLength(result.length * poses.frames * POSE_STRIDE);
    for (let k = 0; k < result.length; k++) {
      const p1 = pose(poses, k, f1),
        p2 = pose(poses, k, f2);
      expect(p1.slice(0, 3).map(Math.abs)).toEqual([0, 0, 0]);
      expect(wrap(zAngle(p1) - q1[k])).toBeCloseTo(0, 5);
      expect(p2[0]).toBeCloseTo(dp.L1 * Math.cos(q1[k]), 5);
      expect(p2[1]).toBeCloseTo(dp.L1 * Math.sin(q1[k]), 5);
      expect(p2[2]).toBeCloseTo(0, 6);
      expect(wrap(zAngle(p2) - q1[k] - q2[k])).toBeCloseTo(0, 5);
    }
  });

  it("PUMA 560 (spatial): each quaternion gives back the frame's recorded R, element by element", () => {
    const model = puma560({ q2: 0.4, q3: -0.7, q4: 0.3, q5: 0.9, q6: -0.2 });
    const c = compile(model, { mode: 'relaxed' });
    const { playback } = simulatePlayback(model, c, { stop: 0.2, step: 1e-3, interval: 0.05 });
    const { scene, poses } = playback!;
    const f = scene.frames.findIndex((x) => x.members.includes('link6.frame_a'));
    const R = [1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => `link6.frame_a.R[${i}][${j}]`));
    const r = [1, 2, 3].map((i) => `link6.frame_a.r[${i}]`);
    const direct = simulate(c, { stop: 0.2, step: 1e-3, interval: 0.05, signals: [...R, ...r] });
    const m = mat3.create();
    for (let k = 0; k < direct.length; k++) {
      const p = pose(poses, k, f);
      mat3.fromQuat(m, quat.fromValues(p[3], p[4], p[5], p[6]));
      // gl-matrix is column-major: R[i][j] is m[j * 3 + i]
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(m[j * 3 + i]).toBeCloseTo(direct.get(R[i * 3 + j])[k], 5);
      r.forEach((n, i) => expect(p[i]).toBeCloseTo(direct.get(n)[k], 6));
    }
    // the hand really turns in space: its orientation is not a rotation about one world axis
    expect(Math.min(...pose(poses, 0, f).slice(3, 6).map(Math.abs))).toBeGreaterThan(0.01);
  });

  it('packPoses keeps quaternion signs continuous, so q and -q samples do not flip', () => {
    // a rotation about z through pi and beyond: fromMat3 alone would flip the sign past pi
    const angles = [2.8, 3.0, 3.2, 3.4];
    const cols = Array.from({ length: SIGNALS_PER_FRAME }, () => new Float64Array(angles.length));
    angles.forEach((a, k) => {
      const [c, s] = [Math.cos(a), Math.sin(a)];
      [c, -s, 0, s, c, 0, 0, 0, 1].forEach((v, i) => (cols[i][k] = v));
    });
    const p = packPoses(cols, angles.length);
    for (let k = 1; k < angles.length; k++) {
      const a = pose(p, k - 1, 0).slice(3),
        b = pose(p, k, 0).slice(3);
      expect(a.reduce((s, v, i) => s + v * b[i], 0)).toBeGreaterThan(0.9);
    }
  });
});

describe('interpolation and bounds', () => {
  /** one frame turning about z by angle(t) = t and moving along x by x(t) = 2t, sampled at t = 0, 1, 2 */
  const time = [0, 1, 2];
  const poses: Poses = {
    layout: 'x y z qx qy qz qw',
    frames: 1,
    data: time.flatMap((t) => [2 * t, 0, 0, 0, 0, Math.sin(t / 2), Math.cos(t / 2)]),
  };

  it('between samples: position by lerp, angle by slerp; clamped outside the run', () => {
    const out = new Float32Array(7);
    for (const t of [0, 0.25, 1, 1.6, 2]) {
      posesAtInto(out, poses, time, t);
      expect(out[0]).toBeCloseTo(2 * t, 6);
      expect(zAngle([...out])).toBeCloseTo(t, 6);
    }
    posesAtInto(out, poses, time, 5);
    expect(out[0]).toBeCloseTo(4, 6);
    posesAtInto(out, poses, time, -1);
    expect(out[0]).toBeCloseTo(0, 6);
  });

  it('sampleBefore finds time[k] <= t < time[k + 1]', () => {
    const t = [0, 0.1, 0.2, 0.3];
    expect([-1, 0, 0.05, 0.1, 0.25, 0.3, 9].map((x) => sampleBefore(t, x))).toEqual([0, 0, 0, 1, 2, 3, 3]);
  });

  it('runBounds holds a sphere swung round a full circle', () => {
    // a sphere of radius 0.1 at x = 1 in a frame turning about z: quarter turns at the samples
    const turns = [0, 1, 2, 3].map((k) => (k * Math.PI) / 2);
    const p: Poses = { layout: 'x y z qx qy qz qw', frames: 1, data: turns.flatMap((a) => [0, 0, 0, 0, 0, Math.sin(a / 2), Math.cos(a / 2)]) };
    const scene: Scene = {
      gravity: [0, -9.81, 0],
      frames: [{ name: 'f', members: ['f'] }],
      world: -1,
      links: [],
      joints: [],
      shapes: [{ name: 'ball', kind: 'body', frame: 0, geometry: { shape: { type: 'sphere', radius: 0.1 }, color: '#000', offset: [1, 0, 0] } }],
    };
    const b = runBounds(scene, p);
    [
      [-1.1, -1.1, -0.1],
      [1.1, 1.1, 0.1],
    ].forEach((want, i) => want.forEach((v, j) => expect((i ? b.max : b.min)[j]).toBeCloseTo(v, 12)));
  });
});
