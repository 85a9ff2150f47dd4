// The generated mass matrix (tangents of the inverse dynamics along qdd,
// src/codegen/inverse-tangents.ts) against two independent computations:
// n + 1 evaluations of the model's own inverse-dynamics code
// (massMatrixByColumns) and MuJoCo's mj_fullM of the same MJCF file. Its
// agreement with the kinetic-energy oracle is mass-matrix.test.ts's.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { InverseDynamics } from '../../src/codegen/inverse.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import { mujoco } from '../../src/bench/mujoco.ts';
import { cases, prng } from './cases.ts';
import { iiwa, iiwaXml, trees } from './trees.ts';
import { freePeersAfterAll, smoothPeer } from '../io/mjcf-peer.ts';

freePeersAfterAll();

const maxAbs = (a: ArrayLike<number>) => Math.max(1e-300, ...Array.from(a, Math.abs));
const randomQ = (n: number, rnd: () => number) => Float64Array.from({ length: n }, () => -Math.PI + 2 * Math.PI * rnd());

describe('generated M(q) against n + 1 inverse-dynamics evaluations (1e-12 of the largest entry of M and of ID(q, 0, 0))', () => {
  const all = [...trees, ...cases.map((c) => ({ name: c.name, build: c.mechanism }))];
  for (const t of all) {
    it(t.name, () => {
      const inv = new InverseDynamics(compile(t.build(), { problem: 'inverse' }));
      expect(typeof inv.derivatives(), 'a tree has generated derivatives').toBe('object');
      const rnd = prng(33 + inv.n);
      for (let s = 0; s < 3; s++) {
        const q = randomQ(inv.n, rnd);
        const M = inv.massMatrix(q),
          want = inv.massMatrixByColumns(q);
        // the columns' oracle subtracts ID(q, 0, 0) (gravity, springs): its rounding is relative to that too
        const zero = new Float64Array(inv.n);
        const scale = Math.max(maxAbs(want), maxAbs(inv.evaluate(0, q, zero, zero)));
        M.forEach((v, k) => expect(Math.abs(v - want[k]) / scale, `M[${Math.floor(k / inv.n)}][${k % inv.n}] at state ${s}`).toBeLessThanOrEqual(1e-12));
      }
    });
  }
  it('a kinematic loop (four-bar): generated through the loop (implicit tangents), equal to the n + 1 evaluations', () => {
    const inv = new InverseDynamics(compile(fourbar(), { problem: 'inverse' }));
    expect(typeof inv.derivatives()).toBe('object');
    const q = [0.4];
    expect(Math.abs(inv.massMatrix(q)[0] - inv.massMatrixByColumns(q)[0])).toBeLessThanOrEqual(1e-12 * inv.massMatrixByColumns(q)[0]);
  });
});

describe("generated M(q) against MuJoCo's mj_fullM of the same MJCF file", () => {
  it('KUKA iiwa 14 (armature included on both sides), 5 random q, 1e-10', async () => {
    const mj = await mujoco();
    const peer = await smoothPeer(iiwaXml());
    const c = compile(iiwa(), { problem: 'inverse' });
    const n = c.coordinates.length;
    expect(n).toBe(peer.nv);
    const rnd = prng(14);
    const buffer = new mj.DoubleBuffer(n * n);
    try {
      for (let s = 0; s < 5; s++) {
        const q = randomQ(n, rnd);
        (peer.data.qpos as Float64Array).set(q);
        mj.mj_forward(peer.model, peer.data);
        mj.mj_fullM(peer.model, peer.data, buffer);
        const want = buffer.GetView() as Float64Array;
        const M = c.massMatrix(q);
        const scale = maxAbs(want);
        M.forEach((v, k) => expect(Math.abs(v - want[k]) / scale, `M[${Math.floor(k / n)}][${k % n}] at state ${s}`).toBeLessThanOrEqual(1e-10));
      }
    } finally {
      buffer.delete();
    }
  });
});
