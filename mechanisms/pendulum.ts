// A simple pendulum: a revolute joint about z at the world origin and a body
// whose centre of mass lies at distance L along frame_a's x axis. With
// gravity along -y the motion is  (m L^2 + Izz) qdd = -m g L cos(q).
import { Mechanism } from 'kron';

export const parameters = { m: 1, L: 0.5, Izz: 0.01, q0: 0.3, qd0: 0 };

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const q = { ...parameters, ...p };
  const mech = new Mechanism('pendulum');
  const j1 = mech.revolute('j1', { axis: [0, 0, 1], q: q.q0, qd: q.qd0 });
  const link = mech.body('link', {
    m: q.m,
    rcm: [q.L, 0, 0],
    I: [q.Izz / 10, q.Izz, q.Izz],
    geometry: { shape: { type: 'cylinder', radius: 0.02, length: q.L }, color: '#2e86de', offset: [q.L / 2, 0, 0], axis: [1, 0, 0] },
  });
  mech.connect(mech.world.frame_b, j1.frame_a);
  mech.connect(j1.frame_b, link.frame_a);
  return mech;
}
