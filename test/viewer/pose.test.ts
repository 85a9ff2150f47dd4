// The viewer's posing of free and ball joints (viewer/page/pose.ts,
// rotation.ts) in node, against rotations composed here from elementary
// turns: roll, pitch, yaw give R = Rz(yaw) Ry(pitch) Rx(roll) and back; a
// ball pendulum posed by a quaternion puts its bob at R(Q) times the rod; a
// free joint puts its body at r with R(Q); a quaternion of any length
// poses as its unit one, one of no length is a UsageError naming the joint
// and leaves the last pose as it was. Both forms of each model.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { UsageError } from '../../src/errors.ts';
import { describeScene } from '../../src/io/scene.ts';
import { POSE_STRIDE } from '../../src/io/types.ts';
import { Mechanism } from '../../src/library/multibody/mechanism.ts';
import { Poser } from '../../viewer/page/pose.ts';
import { type Quaternion, type Rpy, quaternionOfRpy, rpyOfQuaternion } from '../../viewer/page/rotation.ts';

type M = number[][];
const mul = (A: M, B: M): M => A.map((row) => B[0].map((_, j) => row.reduce((s, a, k) => s + a * B[k][j], 0)));
const apply = (A: M, v: readonly number[]) => A.map((row) => row.reduce((s, a, k) => s + a * v[k], 0));
const Rx = (a: number): M => [
  [1, 0, 0],
  [0, Math.cos(a), -Math.sin(a)],
  [0, Math.sin(a), Math.cos(a)],
];
const Ry = (a: number): M => [
  [Math.cos(a), 0, Math.sin(a)],
  [0, 1, 0],
  [-Math.sin(a), 0, Math.cos(a)],
];
const Rz = (a: number): M => [
  [Math.cos(a), -Math.sin(a), 0],
  [Math.sin(a), Math.cos(a), 0],
  [0, 0, 1],
];
const fromRpy = ([r, p, y]: Rpy): M => mul(Rz(y), mul(Ry(p), Rx(r)));
/** the rotation matrix of a unit quaternion (w, x, y, z), as the textbooks write it */
const fromQuaternion = ([w, x, y, z]: readonly number[]): M => [
  [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
  [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
  [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
];
const far = (A: M, B: M) => Math.max(...A.flatMap((row, i) => row.map((a, j) => Math.abs(a - B[i][j]))));

/** deterministic angles: a fixed sequence spread over the ranges */
const angles = (k: number): Rpy => [Math.PI * Math.sin(1.3 * k + 0.2), (Math.PI / 2) * Math.sin(0.7 * k + 1.1), Math.PI * Math.sin(2.9 * k + 0.5)];

/** a ball pendulum: world, ball joint j, a 1 m rod along -y to the bob */
function ballPendulum(): Mechanism {
  const m = new Mechanism('ballpendulum');
  const j = m.ball('j');
  const rod = m.bar('rod', { r: [0, -1, 0] });
  const bob = m.body('bob', { m: 1, I: [0.01, 0.01, 0.01] });
  m.connect(m.world.frame_b, j.frame_a);
  m.connect(j.frame_b, rod.frame_a);
  m.connect(rod.frame_b, bob.frame_a);
  return m;
}

/** a free box with its centre of mass 0.2 m along its x axis */
function freeBox(): Mechanism {
  const m = new Mechanism('freebox', { gravity: [0, 0, -9.81] });
  const j = m.free('j', { r: [0, 0, 1] });
  const arm = m.bar('arm', { r: [0.2, 0, 0] });
  const box = m.body('box', { m: 2, I: [0.1, 0.2, 0.3] });
  m.connect(m.world.frame_b, j.frame_a);
  m.connect(j.frame_b, arm.frame_a);
  m.connect(arm.frame_b, box.frame_a);
  return m;
}

function poser(m: Mechanism, mode: 'torn' | 'relaxed'): { poser: Poser; frameOf: (member: string) => number } {
  const compiled = compile(m, { mode });
  const scene = describeScene(m, (n) => compiled.signal(n), [0, -9.81, 0]);
  return { poser: new Poser(compiled, scene), frameOf: (member) => scene.frames.findIndex((f) => f.members.includes(member)) };
}

/** the frame's position and rotation matrix in a pose (Poses keep x y z qx qy qz qw, in float32) */
function framePose(pose: Float32Array, f: number): { p: number[]; R: M } {
  const o = f * POSE_STRIDE;
  return { p: [pose[o], pose[o + 1], pose[o + 2]], R: fromQuaternion([pose[o + 6], pose[o + 3], pose[o + 4], pose[o + 5]]) };
}

const toStates = (joint: string, Q: readonly number[]) => Object.fromEntries(Q.map((v, i) => [`${joint}.Q[${i + 1}]`, v]));

describe('roll, pitch, yaw of a quaternion (rotation.ts)', () => {
  it('Q of roll, pitch, yaw is the rotation Rz(yaw) Ry(pitch) Rx(roll), of unit length; and its angles are those again', () => {
    for (let k = 0; k < 200; k++) {
      const rpy = angles(k);
      const Q = quaternionOfRpy(rpy);
      expect(Math.abs(Math.hypot(...Q) - 1)).toBeLessThan(1e-15);
      expect(far(fromQuaternion(Q), fromRpy(rpy))).toBeLessThan(1e-14);
      const back = rpyOfQuaternion(Q);
      // away from pitch ±π/2 the angles are unique
      if (Math.abs(Math.cos(rpy[1])) > 1e-3) back.forEach((a, i) => expect(Math.abs(a - rpy[i])).toBeLessThan(1e-12));
      // always the same rotation, also from a quaternion of another length and sign
      expect(far(fromRpy(rpyOfQuaternion(Q.map((v) => -3 * v) as Quaternion)), fromRpy(rpy))).toBeLessThan(1e-14);
    }
  });

  it('near and at pitch ±π/2 (roll and yaw about one axis) the angles give the rotation to rounding; at it, roll 0', () => {
    let worst = 0;
    for (let k = 0; k < 2000; k++) {
      // cos(pitch) from 1e-1 down to 1e-17, both signs, roll and yaw all round
      const pitch = (k % 2 ? 1 : -1) * (Math.PI / 2 - 10 ** (-1 - (16 * k) / 2000));
      const rpy: Rpy = [Math.PI * Math.sin(1.3 * k), pitch, Math.PI * Math.sin(0.77 * k + 1)];
      worst = Math.max(worst, far(fromRpy(rpyOfQuaternion(quaternionOfRpy(rpy))), fromRpy(rpy)));
    }
    // below cos(pitch) = 1e-14 the roll is taken as 0: a rotation off by that much
    expect(worst).toBeLessThan(3e-14);
    for (const pitch of [Math.PI / 2, -Math.PI / 2]) {
      const rpy: Rpy = [0.7, pitch, -1.9];
      const back = rpyOfQuaternion(quaternionOfRpy(rpy));
      expect(back[0]).toBeCloseTo(0, 12);
      expect(Math.abs(back[1] - pitch)).toBeLessThan(1e-15);
      expect(far(fromRpy(back), fromRpy(rpy))).toBeLessThan(1e-14);
    }
  });
});

describe.each(['torn', 'relaxed'] as const)('posing free and ball joints (pose.ts), %s form', (mode) => {
  it('a ball joint is an orientation (Q[1..4]), no scalar coordinate; its bob goes to R(Q) (0, -1, 0)', () => {
    const { poser: p, frameOf } = poser(ballPendulum(), mode);
    expect(p.coordinates).toEqual([]);
    expect(p.orientations).toEqual([{ joint: 'j', states: ['j.Q[1]', 'j.Q[2]', 'j.Q[3]', 'j.Q[4]'] }]);
    const bob = frameOf('bob.frame_a');
    for (let k = 0; k < 20; k++) {
      const R = fromRpy(angles(k));
      const { p: at, R: drawn } = framePose(p.pose(toStates('j', quaternionOfRpy(angles(k)))), bob);
      apply(R, [0, -1, 0]).forEach((v, i) => expect(Math.abs(at[i] - v)).toBeLessThan(1e-6));
      expect(far(drawn, R)).toBeLessThan(5e-6); // float32 quaternions: a few of its ulps per entry
    }
  });

  it('a free joint has r[1..3] (lengths) and Q; its body is at r + R(Q) (0.2, 0, 0), turned by R(Q)', () => {
    const { poser: p, frameOf } = poser(freeBox(), mode);
    expect(p.coordinates).toEqual(['j.r[1]', 'j.r[2]', 'j.r[3]'].map((name) => ({ name, joint: 'j', length: true })));
    expect(p.orientations.map((o) => o.joint)).toEqual(['j']);
    const box = frameOf('box.frame_a');
    for (let k = 0; k < 20; k++) {
      const r = [Math.sin(k), Math.cos(2 * k), 1 + 0.5 * Math.sin(3 * k)];
      const R = fromRpy(angles(k));
      const { p: at, R: drawn } = framePose(p.pose({ 'j.r[1]': r[0], 'j.r[2]': r[1], 'j.r[3]': r[2], ...toStates('j', quaternionOfRpy(angles(k))) }), box);
      apply(R, [0.2, 0, 0]).forEach((v, i) => expect(Math.abs(at[i] - (r[i] + v))).toBeLessThan(1e-6));
      expect(far(drawn, R)).toBeLessThan(5e-6); // float32 quaternions: a few of its ulps per entry
    }
  });

  it('a quaternion of any length poses as its unit one; one of no length is a UsageError naming the joint, the pose kept', () => {
    const { poser: p } = poser(ballPendulum(), mode);
    const Q = quaternionOfRpy([0.3, -0.4, 1.2]);
    const unit = p.pose(toStates('j', Q));
    expect(
      Array.from(
        p.pose(
          toStates(
            'j',
            Q.map((v) => 7.5 * v),
          ),
        ),
      ),
    ).toEqual(Array.from(unit));
    let error: unknown;
    try {
      p.pose(toStates('j', [0, 0, 0, 0]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('j.Q = (0, 0, 0, 0) is not an orientation: a quaternion of no length');
    expect((error as UsageError).details.component).toBe('j');
    // the last pose stands: the other states as they were
    expect(Array.from(p.pose({}))).toEqual(Array.from(unit));
  });
});
