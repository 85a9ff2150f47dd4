// The MJCF writer (src/bench/mjcf.ts) against two oracles: MuJoCo's forward
// dynamics of the written model equals Kron's der(qd) (der(v), der(w) of free
// and ball joints) at random states with random inputs (both forms: a check
// of the MJCF, of the state mapping mjcf-state.ts and of Kron at once, by an
// independent engine), and MuJoCo's kinematics of the PUMA 560 equals the
// Denavit-Hartenberg product of Corke's table (independent of Kron's frames).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { ModelError } from '../../src/errors.ts';
import { Frame, Mechanism } from '../../src/library/multibody/index.ts';
import { Component } from '../../src/model/index.ts';
import chain from '../../mechanisms/chain.ts';
import puma560, { links } from '../../mechanisms/puma560.ts';
import tree from '../../mechanisms/tree.ts';
import { accelerationsAt, randomState, relativeDifference } from '../../src/bench/agreement.ts';
import { type Mjcf, combined, mjcf, referenceValues } from '../../src/bench/mjcf.ts';
import { mujocoState } from '../../src/bench/mjcf-state.ts';
import { MujocoPeer, mujoco, quaternion } from '../../src/bench/mujoco.ts';
import { rng } from '../../src/bench/timing.ts';

const peers: MujocoPeer[] = [];
afterAll(() => peers.forEach((p) => p.delete()));

async function written(mech: Mechanism, c: CompiledModel): Promise<{ doc: Mjcf; peer: MujocoPeer }> {
  const doc = mjcf(mech, referenceValues(c));
  const peer = await MujocoPeer.load(doc);
  peers.push(peer);
  return { doc, peer };
}

/** one joint carrying two bodies, one of them behind a fixed rotation and an offset: their inertias are combined */
function twoBodies(): Mechanism {
  const m = new Mechanism('two', { gravity: [0, 0, -9.81] });
  const j = m.revolute('j', { axis: [0, 1, 1] });
  const a = m.body('a', { m: 2, rcm: [0.2, 0, 0.1], I: [0.02, 0.03, 0.04, 0.001, -0.002, 0.003] });
  const turn = m.rotation('turn', { axis: [1, 1, 0], angle: 0.7, r: [0.3, -0.1, 0.2] });
  const b = m.body('b', { m: 0.5, rcm: [0, 0.1, 0], I: [0.01, 0.005, 0.008] });
  const j2 = m.prismatic('j2', { axis: [0, 0, 1] });
  const tip = m.body('tip', { m: 1, rcm: [0.1, 0, 0], I: [0.001, 0.002, 0.002] });
  m.connect(m.world.frame_b, j.frame_a);
  m.connect(j.frame_b, a.frame_a);
  m.connect(j.frame_b, turn.frame_a);
  m.connect(turn.frame_b, b.frame_a);
  m.connect(turn.frame_b, j2.frame_a);
  m.connect(j2.frame_b, tip.frame_a);
  return m;
}

/**
 * A floating body whose free joint's frame_a is turned and moved from the
 * world's frame (so MuJoCo's world-resolved qpos and qvel differ from Kron's
 * r, Q, v), a damped quaternion ball joint, a revolute beyond it
 */
function floating(): Mechanism {
  const m = new Mechanism('floating', { gravity: [0, 0, -9.81] });
  const tilt = m.rotation('tilt', { axis: [1, 1, 0], angle: 0.7, r: [0.3, -0.1, 0.2] });
  const base = m.free('base');
  const torso = m.body('torso', { m: 3, rcm: [0.05, 0.02, -0.1], I: [0.1, 0.2, 0.25, 0.01, -0.02, 0.005] });
  const neck = m.bar('neck', { r: [0, 0, 0.3] });
  const ball = m.ball('ball', { d: 0.3 });
  const head = m.body('head', { m: 1, rcm: [0.02, 0, 0.1], I: [0.01, 0.012, 0.008, 0.001, 0, -0.002] });
  const arm = m.revolute('arm', { axis: [0, 1, 0], d: 0.1 });
  const hand = m.body('hand', { m: 0.4, rcm: [0.15, 0, 0], I: [0.001, 0.004, 0.004] });
  m.connect(m.world.frame_b, tilt.frame_a);
  m.connect(tilt.frame_b, base.frame_a);
  m.connect(base.frame_b, torso.frame_a);
  m.connect(base.frame_b, neck.frame_a);
  m.connect(neck.frame_b, ball.frame_a);
  m.connect(ball.frame_b, head.frame_a);
  m.connect(ball.frame_b, arm.frame_a);
  m.connect(arm.frame_b, hand.frame_a);
  return m;
}

const cases: [string, () => Mechanism][] = [
  ['two bodies on one joint (combined inertia, full inertia tensor, oblique axes)', twoBodies],
  ['chain n=1', () => chain({ n: 1 })],
  ['chain n=2', () => chain({ n: 2 })],
  ['chain n=7', () => chain({ n: 7 })],
  ['chain n=16', () => chain({ n: 16 })],
  ['puma560 (limits=0: MuJoCo has none)', () => puma560({ limits: 0 })],
  ['tree (prismatic with spring-damper, point mass, branches)', () => tree()],
  ['floating body (free joint off the world frame, damped ball joint, revolute)', floating],
];

describe('MJCF writer: MuJoCo mj_forward equals Kron der(qd)', () => {
  for (const [name, build] of cases) {
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      it(`${name}, ${mode}: qacc at 5 random states with random inputs to 1e-10`, async () => {
        const mech = build();
        const c = compile(mech, { mode });
        const { doc, peer } = await written(mech, c);
        const state = c.createState();
        // every Kron state is one number of qpos or qvel, every input one of qfrc_applied
        expect(peer.model.nq + peer.nv).toBe(c.stateNames.length);
        expect(peer.nv).toBe(c.generated.layout.inputs.length);
        const rand = rng(42);
        for (let k = 0; k < 5; k++) {
          for (const u of c.generated.layout.inputs) state.setInput(u, 2 * rand() - 1);
          expect(relativeDifference(accelerationsAt(state, doc, peer, randomState(state, rand)))).toBeLessThan(1e-10);
        }
      });
    }
  }

  it("the MJCF text through MuJoCo's XML reader gives the same accelerations as the mjSpec build", async () => {
    for (const mech of [tree(), twoBodies(), puma560({ limits: 0 }), chain({ n: 5 }), floating()]) {
      const { doc, peer } = await written(mech, compile(mech, { mode: 'relaxed' }));
      const fromXml = await MujocoPeer.fromXml(doc.xml);
      peers.push(fromXml);
      expect([fromXml.model.nq, fromXml.nv]).toEqual([peer.model.nq, peer.nv]);
      const rand = rng(11);
      const q = Array.from({ length: peer.model.nq }, () => -2 + 4 * rand()),
        qd = Array.from({ length: peer.nv }, () => -2 + 4 * rand());
      const a = peer.accelerations(q, qd),
        b = fromXml.accelerations(q, qd);
      a.forEach((x, i) => expect(Math.abs(x - b[i])).toBeLessThan(1e-9 * Math.max(1, Math.abs(x))));
    }
  });

  it('gravity reaches MuJoCo: a 1-link chain at rest accelerates as -g L/2 cos(q) / (m L^2/3) (horizontal start)', async () => {
    const mech = chain({ n: 1 });
    const { peer } = await written(mech, compile(mech, { mode: 'relaxed' }));
    const [L, m, g, q] = [0.3, 1, 9.80665, 0.4];
    // about z through the joint: I_zz = m L^2 / 12 + m (L/2)^2 = m L^2 / 3; torque of gravity (-y) -m g (L/2) cos q
    expect(peer.accelerations([q], [0])[0]).toBeCloseTo((-m * g * (L / 2) * Math.cos(q)) / ((m * L * L) / 3), 10);
  });
});

describe("free joint: Kron's r, Q, v, w as MuJoCo's qpos and qvel", () => {
  it('MuJoCo places the free body where Kron does: xpos, xmat of the torso equal its frame_a r, R (frame_a of the joint turned and moved)', async () => {
    const mech = floating();
    const c = compile(mech, { mode: 'relaxed' });
    const { doc, peer } = await written(mech, c);
    const state = c.createState();
    const rand = rng(3);
    for (let k = 0; k < 5; k++) {
      const x = randomState(state, rand);
      state.derivatives(0, x, new Float64Array(x.length));
      const { qpos, qvel } = mujocoState(doc, (n) => x[c.stateNames.indexOf(n)]);
      peer.accelerations(qpos, qvel);
      const b = peer.model.body('base').id as number;
      const xpos = peer.data.xpos as Float64Array,
        xmat = peer.data.xmat as Float64Array;
      for (let i = 0; i < 3; i++) {
        expect(xpos[3 * b + i]).toBeCloseTo(state.signal(`torso.frame_a.r[${i + 1}]`), 13);
        for (let j = 0; j < 3; j++) expect(xmat[9 * b + 3 * i + j]).toBeCloseTo(state.signal(`torso.frame_a.R[${i + 1}][${j + 1}]`), 13);
      }
    }
  });

  // qacc alone cannot tell: with the base's linear velocity in world coordinates no acceleration depends on it
  // (Galilean invariance), so a wrong qvel[0:3] would pass the dynamics tests above; MuJoCo's own velocity of the body can
  it("MuJoCo moves the free body as Kron does: mj_objectVelocity (world) equals the torso's frame_a v and w", async () => {
    const mech = floating();
    const c = compile(mech, { mode: 'relaxed' });
    const { doc, peer } = await written(mech, c);
    const mj = await mujoco();
    const state = c.createState();
    const rand = rng(8);
    for (let k = 0; k < 5; k++) {
      const x = randomState(state, rand);
      state.derivatives(0, x, new Float64Array(x.length));
      const { qpos, qvel } = mujocoState(doc, (n) => x[c.stateNames.indexOf(n)]);
      peer.accelerations(qpos, qvel);
      // [angular; linear] velocity of the body frame at its origin (XBODY; BODY would be its centre of mass), world coordinates
      const buffer = new mj.DoubleBuffer(6);
      mj.mj_objectVelocity(peer.model, peer.data, mj.mjtObj.mjOBJ_XBODY.value, peer.model.body('base').id as number, buffer, 0);
      const res = Float64Array.from(buffer.GetView() as Float64Array);
      buffer.delete();
      for (let i = 0; i < 3; i++) {
        expect(res[i]).toBeCloseTo(state.signal(`torso.frame_a.w[${i + 1}]`), 13);
        expect(res[3 + i]).toBeCloseTo(state.signal(`torso.frame_a.v[${i + 1}]`), 13);
      }
    }
  });
});

describe('MJCF writer: PUMA 560 kinematics equal the standard DH product', () => {
  let peer: MujocoPeer;
  let doc: Mjcf;
  beforeAll(async () => {
    const mech = puma560({ limits: 0 });
    ({ doc, peer } = await written(mech, compile(mech, { mode: 'relaxed' })));
  });

  /** T_0^k = prod_i Rz(q_i) Tz(d_i) Tx(a_i) Rx(alpha_i), as a 4x4 row-major matrix */
  function dh(q: number[], k: number): number[][] {
    let T = [
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ];
    for (let i = 0; i < k; i++) {
      const { d, a, alpha } = links[i];
      const [ct, st, ca, sa] = [Math.cos(q[i]), Math.sin(q[i]), Math.cos(alpha), Math.sin(alpha)];
      const A = [
        [ct, -st * ca, st * sa, a * ct],
        [st, ct * ca, -ct * sa, a * st],
        [0, sa, ca, d],
        [0, 0, 0, 1],
      ];
      T = T.map((row) => A[0].map((_, j) => row.reduce((s, v, m) => s + v * A[m][j], 0)));
    }
    return T;
  }

  it('body jk+1 sits at DH frame k (position and orientation) at random angles', () => {
    expect(doc.joints).toEqual(['j1', 'j2', 'j3', 'j4', 'j5', 'j6']);
    const rand = rng(7);
    for (let trial = 0; trial < 5; trial++) {
      const q = doc.joints.map(() => -Math.PI + 2 * Math.PI * rand());
      peer.accelerations(q, [0, 0, 0, 0, 0, 0]);
      const xpos = peer.data.xpos as Float64Array,
        xmat = peer.data.xmat as Float64Array;
      for (let k = 1; k <= 5; k++) {
        const b = peer.model.body(`j${k + 1}`).id as number;
        // the body frame of joint k+1 is DH frame k rotated further by q_{k+1} about its z
        const Tk = dh(q, k);
        for (let i = 0; i < 3; i++) {
          expect(xpos[3 * b + i]).toBeCloseTo(Tk[i][3], 12);
          for (let j = 0; j < 3; j++) expect(xmat[9 * b + 3 * i + j]).toBeCloseTo(zRotated(Tk, q[k])[i][j], 12);
        }
      }
    }
  });

  /** R Rz(angle): the orientation of frame k after joint k+1 turned by angle */
  function zRotated(T: number[][], angle: number): number[][] {
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    return [0, 1, 2].map((i) => [T[i][0] * c + T[i][1] * s, -T[i][0] * s + T[i][1] * c, T[i][2]]);
  }
});

describe('quaternion', () => {
  /** rotation matrix of the unit quaternion (w, x, y, z), row-major */
  const matrix = ([w, x, y, z]: number[]) => [
    1 - 2 * (y * y + z * z),
    2 * (x * y - w * z),
    2 * (x * z + w * y),
    2 * (x * y + w * z),
    1 - 2 * (x * x + z * z),
    2 * (y * z - w * x),
    2 * (x * z - w * y),
    2 * (y * z + w * x),
    1 - 2 * (x * x + y * y),
  ];
  it('inverts the quaternion-to-matrix map on random rotations, including near-half-turns', () => {
    const rand = rng(5);
    for (let k = 0; k < 200; k++) {
      const angle = k % 4 === 0 ? Math.PI - 1e-9 * rand() : 2 * Math.PI * rand();
      const u = [rand() - 0.5, rand() - 0.5, rand() - 0.5],
        n = Math.hypot(...u);
      const q = [Math.cos(angle / 2), ...u.map((x) => (Math.sin(angle / 2) * x) / n)];
      const back = matrix(quaternion(matrix(q)));
      matrix(q).forEach((v, i) => expect(back[i]).toBeCloseTo(v, 12));
    }
  });
});

describe('combined mass properties', () => {
  it('two point masses: centre of mass between them, m1 m2 / (m1 + m2) d^2 across the line joining them', () => {
    const zero = new Array(9).fill(0);
    const u = combined([
      { m: 1, c: [0, 0, 0], I: zero },
      { m: 3, c: [2, 0, 0], I: zero },
    ]);
    expect(u.m).toBe(4);
    expect(u.c).toEqual([1.5, 0, 0]);
    const across = ((1 * 3) / 4) * 2 * 2;
    [0, 0, 0, 0, across, 0, 0, 0, across].forEach((v, k) => expect(u.I[k]).toBeCloseTo(v, 14));
  });
  it("massless parts keep their inertia and the first part's centre", () => {
    const I = [1, 0, 0, 0, 2, 0, 0, 0, 2];
    expect(combined([{ m: 0, c: [0.5, 0, 0], I }])).toEqual({ m: 0, c: [0.5, 0, 0], I });
  });
});

describe('MJCF writer: what it cannot write is a ModelError naming the element', () => {
  it('a kinematic loop', () => {
    const m = new Mechanism('loop');
    const j1 = m.revolute('j1'),
      bar = m.bar('bar', { r: [1, 0, 0] }),
      j2 = m.revolute('j2');
    m.connect(m.world.frame_b, j1.frame_a);
    m.connect(j1.frame_b, bar.frame_a);
    m.connect(bar.frame_b, j2.frame_a);
    m.connect(j2.frame_b, m.world.frame_b);
    expect(() => mjcf(m, () => 0)).toThrow(ModelError);
    expect(() => mjcf(m, () => 0)).toThrow(/kinematic loop/);
  });

  it('a joint with limits or friction (MuJoCo would model them otherwise): the PUMA 560 with its qlim', () => {
    expect(() => mjcf(puma560({ limits: 1 }), () => 0)).toThrow(ModelError);
    expect(() => mjcf(puma560({ limits: 1 }), () => 0)).toThrow(/joint j1 has limits or friction, which the MJCF writer does not write/);
  });

  it('a free joint under another joint (MuJoCo allows free joints only in bodies of the world)', () => {
    const m = new Mechanism('nested');
    const j = m.revolute('j'),
      arm = m.body('arm', { m: 1, rcm: [0.1, 0, 0], I: [1, 1, 1] });
    const base = m.free('base'),
      b = m.body('b', { m: 1, rcm: [0, 0, 0], I: [1, 1, 1] });
    m.connect(m.world.frame_b, j.frame_a);
    m.connect(j.frame_b, arm.frame_a);
    m.connect(j.frame_b, base.frame_a);
    m.connect(base.frame_b, b.frame_a);
    const c = compile(m, { mode: 'relaxed' });
    expect(() => mjcf(m, referenceValues(c))).toThrow(ModelError);
    expect(() => mjcf(m, referenceValues(c))).toThrow(/free joint base moves a body under joint j; MuJoCo allows a free joint only in a body of the world/);
  });

  it('an element it does not know', () => {
    class Sensor extends Component {
      readonly frame_a = this.add(new Frame('frame_a'));
    }
    const m = new Mechanism('odd');
    const s = m.add(new Sensor('probe'));
    m.connect(m.world.frame_b, s.frame_a);
    expect(() => mjcf(m, () => 0)).toThrow(/does not know the element probe \(Sensor\)/);
  });
});
