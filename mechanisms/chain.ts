// A spatial chain of n links: revolute joints whose axes alternate between z
// and y (two non-parallel directions), each followed by a link body of
// length L whose frame_b (a bar) carries the next joint.
import { Mechanism } from 'kron';

export const parameters = { n: 8, L: 0.3, m: 1, q0: 0.2 };

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const { n, L, m, q0 } = { ...parameters, ...p };
  const mech = new Mechanism('chain');
  let parent = mech.world.frame_b;
  for (let k = 1; k <= n; k++) {
    const j = mech.revolute(`j${k}`, { axis: k % 2 ? [0, 0, 1] : [0, 1, 0], q: q0 * ((k % 3) - 1) });
    const body = mech.body(`b${k}`, {
      m,
      rcm: [L / 2, 0, 0],
      I: [m * 1e-4, (m * L * L) / 12, (m * L * L) / 12],
      geometry: { shape: { type: 'cylinder', radius: 0.02, length: L }, color: '#e67e22', offset: [L / 2, 0, 0], axis: [1, 0, 0] },
    });
    const bar = mech.bar(`bar${k}`, { r: [L, 0, 0] });
    mech.connect(parent, j.frame_a);
    mech.connect(j.frame_b, body.frame_a);
    mech.connect(j.frame_b, bar.frame_a);
    parent = bar.frame_b;
  }
  return mech;
}
