// A rigid box tumbling freely in space on a free joint (issue 29): the
// intermediate-axis theorem (the Dzhanibekov effect). A box of 0.4 x 0.2 x
// 0.1 m has principal inertias in the order Ixx < Iyy < Izz; spun about its
// y axis with a small disturbance it flips over and back, while its kinetic
// energy and its angular momentum in the world stay what they were. The
// free joint's states are MuJoCo's numbers: j.r, j.Q (w, x, y, z), j.v
// (world), j.w (body).
//   npx kron simulate mechanisms/tumbling.ts --stop 20 --signals 'j.w[1],j.w[2],j.w[3],energy.total'
//   npx kron view mechanisms/tumbling.ts
import { Mechanism } from 'kron';

export const parameters = {
  /** box sides along x, y, z (m) and mass (kg) */
  a: 0.4,
  b: 0.2,
  c: 0.1,
  m: 1,
  /** spin about the intermediate (y) axis and a disturbance about x (rad/s) */
  spin: 3,
  disturbance: 0.01,
};

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const mech = new Mechanism('tumbling', { gravity: [0, 0, 0] });
  const j = mech.free('j', { r: [0, 0, 0.5], w: [o.disturbance, o.spin, 0] });
  const box = mech.body('box', {
    m: o.m,
    I: [(o.m * (o.b ** 2 + o.c ** 2)) / 12, (o.m * (o.a ** 2 + o.c ** 2)) / 12, (o.m * (o.a ** 2 + o.b ** 2)) / 12],
    geometry: { shape: { type: 'box', size: [o.a, o.b, o.c] }, color: '#e67e22' },
  });
  mech.connect(mech.world.frame_b, j.frame_a);
  mech.connect(j.frame_b, box.frame_a);
  return mech;
}
