// A planar double pendulum: two revolute joints about z, two rods in the x-y
// plane, gravity along -y. Rod k has mass mk, length Lk, its centre of mass at
// lck from its joint along the rod and inertia Ik about the centre of mass
// (about z). j1.q is the angle of rod 1 from the x axis, j2.q the angle of rod
// 2 relative to rod 1. The closed form is test/oracles/pendulum.ts.
import { Mechanism } from 'kron';

export const parameters = {
  m1: 1,
  L1: 0.5,
  lc1: 0.25,
  I1: (1 * 0.5 ** 2) / 12,
  m2: 0.8,
  L2: 0.4,
  lc2: 0.2,
  I2: (0.8 * 0.4 ** 2) / 12,
  q1: 0.4,
  q2: -0.3,
  qd1: 0,
  qd2: 0,
};

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const q = { ...parameters, ...p };
  const mech = new Mechanism('doublependulum');
  const j1 = mech.revolute('j1', { axis: [0, 0, 1], q: q.q1, qd: q.qd1 });
  const link1 = mech.body('link1', { m: q.m1, rcm: [q.lc1, 0, 0], I: rod(q.I1), geometry: look(q.L1, '#2e86de') });
  const bar1 = mech.bar('bar1', { r: [q.L1, 0, 0] });
  const j2 = mech.revolute('j2', { axis: [0, 0, 1], q: q.q2, qd: q.qd2 });
  const link2 = mech.body('link2', { m: q.m2, rcm: [q.lc2, 0, 0], I: rod(q.I2), geometry: look(q.L2, '#e67e22') });
  mech.connect(mech.world.frame_b, j1.frame_a);
  mech.connect(j1.frame_b, link1.frame_a);
  mech.connect(j1.frame_b, bar1.frame_a);
  mech.connect(bar1.frame_b, j2.frame_a);
  mech.connect(j2.frame_b, link2.frame_a);
  return mech;
}

/** a thin rod along x: I about the transverse axes, next to nothing about its own axis */
function rod(I: number): [number, number, number] {
  return [I / 100, I, I];
}

function look(L: number, color: string) {
  return {
    shape: { type: 'cylinder' as const, radius: 0.02, length: L },
    color,
    offset: [L / 2, 0, 0] as [number, number, number],
    axis: [1, 0, 0] as [number, number, number],
  };
}
