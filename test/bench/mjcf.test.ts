// The MJCF writer (bench/mjcf.ts) against two oracles: MuJoCo's forward
// dynamics of the written model equals Kron's der(qd) at random states (both
// forms: a check of the MJCF and of Kron at once, by an independent engine),
// and MuJoCo's kinematics of the PUMA 560 equals the Denavit-Hartenberg
// product of Corke's table (independent of Kron's frames).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { ModelError } from '../../src/errors.ts';
import { Frame, Mechanism } from '../../src/library/multibody/index.ts';
import { Component } from '../../src/model/index.ts';
import chain from '../../mechanisms/chain.ts';
import puma560, { links } from '../../mechanisms/puma560.ts';
import tree from '../../mechanisms/tree.ts';
import { type Mjcf, mjcf, referenceValues } from '../../bench/mjcf.ts';
import { MujocoPeer } from '../../bench/mujoco.ts';
import { rng } from '../../bench/timing.ts';

const peers: MujocoPeer[] = [];
afterAll(() => peers.forEach((p) => p.delete()));

async function written(mech: Mechanism, c: CompiledModel): Promise<{ doc: Mjcf; peer: MujocoPeer }> {
  const doc = mjcf(mech, referenceValues(c));
  const peer = await MujocoPeer.load(doc.xml);
  peers.push(peer);
  return { doc, peer };
}

/** Kron's der(qd) in MJCF joint order at (q, qd) given in that order */
function kronAccelerations(c: CompiledModel, joints: string[], q: number[], qd: number[]): number[] {
  const x = new Float64Array(c.stateNames.length), dx = new Float64Array(x.length);
  joints.forEach((j, k) => {
    x[c.stateNames.indexOf(`${j}.q`)] = q[k];
    x[c.stateNames.indexOf(`${j}.qd`)] = qd[k];
  });
  c.derivatives(0, x, dx);
  return joints.map((j) => dx[c.stateNames.indexOf(`${j}.qd`)]);
}

const cases: [string, () => Mechanism][] = [
  ['chain n=1', () => chain({ n: 1 })],
  ['chain n=2', () => chain({ n: 2 })],
  ['chain n=7', () => chain({ n: 7 })],
  ['chain n=16', () => chain({ n: 16 })],
  ['puma560', () => puma560()],
  ['tree (prismatic with spring-damper, point mass, branches)', () => tree()],
];

describe('MJCF writer: MuJoCo mj_forward equals Kron der(qd)', () => {
  for (const [name, build] of cases) {
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      it(`${name}, ${mode}: qacc at 5 random states to 1e-8`, async () => {
        const mech = build();
        const c = compile(mech, { mode });
        const { doc, peer } = await written(mech, c);
        expect(peer.nv).toBe(c.stateNames.length / 2);
        expect([...doc.joints].sort()).toEqual(c.stateNames.filter((s) => s.endsWith('.q')).map((s) => s.slice(0, -2)).sort());
        const rand = rng(42);
        for (let k = 0; k < 5; k++) {
          const q = doc.joints.map(() => -Math.PI + 2 * Math.PI * rand());
          const qd = doc.joints.map(() => -3 + 6 * rand());
          const mj = peer.accelerations(q, qd);
          const kron = kronAccelerations(c, doc.joints, q, qd);
          const scale = Math.max(1, ...kron.map(Math.abs));
          kron.forEach((a, i) => expect(Math.abs(mj[i] - a) / scale).toBeLessThan(1e-8));
        }
      });
    }
  }

  it('gravity reaches MuJoCo: a 1-link chain at rest accelerates as -g L/2 cos(q) / (m L^2/3) (horizontal start)', async () => {
    const mech = chain({ n: 1 });
    const { peer } = await written(mech, compile(mech, { mode: 'relaxed' }));
    const [L, m, g, q] = [0.3, 1, 9.80665, 0.4];
    // about z through the joint: I_zz = m L^2 / 12 + m (L/2)^2 = m L^2 / 3; torque of gravity (-y) -m g (L/2) cos q
    expect(peer.accelerations([q], [0])[0]).toBeCloseTo((-m * g * (L / 2) * Math.cos(q)) / ((m * L * L) / 3), 10);
  });
});

describe('MJCF writer: PUMA 560 kinematics equal the standard DH product', () => {
  let peer: MujocoPeer;
  let doc: Mjcf;
  beforeAll(async () => {
    const mech = puma560();
    ({ doc, peer } = await written(mech, compile(mech, { mode: 'relaxed' })));
  });

  /** T_0^k = prod_i Rz(q_i) Tz(d_i) Tx(a_i) Rx(alpha_i), as a 4x4 row-major matrix */
  function dh(q: number[], k: number): number[][] {
    let T = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
    for (let i = 0; i < k; i++) {
      const { d, a, alpha } = links[i];
      const [ct, st, ca, sa] = [Math.cos(q[i]), Math.sin(q[i]), Math.cos(alpha), Math.sin(alpha)];
      const A = [[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st], [0, sa, ca, d], [0, 0, 0, 1]];
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
      const xpos = peer.data.xpos as Float64Array, xmat = peer.data.xmat as Float64Array;
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

describe('MJCF writer: what it cannot write is a ModelError naming the element', () => {
  it('a kinematic loop', () => {
    const m = new Mechanism('loop');
    const j1 = m.revolute('j1'), bar = m.bar('bar', { r: [1, 0, 0] }), j2 = m.revolute('j2');
    m.connect(m.world.frame_b, j1.frame_a);
    m.connect(j1.frame_b, bar.frame_a);
    m.connect(bar.frame_b, j2.frame_a);
    m.connect(j2.frame_b, m.world.frame_b);
    expect(() => mjcf(m, () => 0)).toThrow(ModelError);
    expect(() => mjcf(m, () => 0)).toThrow(/kinematic loop/);
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
