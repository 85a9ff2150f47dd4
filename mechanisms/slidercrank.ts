// The offset slider-crank, cut at its slider: a crank about z, a coupler,
// a wrist pin and a slider on a guide along x fixed in the world. The slider's
// prismatic joint closes the loop; the loop moves in the xy plane, so it is
// the planar prismatic cut ({ cut: 'planar' }: the in-plane translation
// normal to the guide, y, and the slider's turn about z).
//
//   A = world origin, crank AB (r), coupler BC (l), C the wrist pin on the slider
//   world --j1 (state)-- crank --j2-- coupler --j3-- slider --j4 (planar cut, along x)-- world
//
// j1.q = theta, the crank angle from the x axis; j4.q = x, the slider's
// position along the guide (measured by the cut joint), the wrist pin at
// height e (the offset):
//   x = r cos(theta) + sqrt(l^2 - (r sin(theta) - e)^2)
// j2.q is the coupler's angle relative to the crank, j3.q the slider's
// relative to the coupler: theta + j2.q + j3.q = 0 (the slider does not turn).
import { Mechanism } from 'kron';

export const parameters = {
  r: 0.15,
  l: 0.5,
  e: 0.05,
  /** slider mass (kg) */
  ms: 1,
  /** start crank angle (rad) and speed (rad/s) */
  theta: Math.PI / 4,
  w: 6,
  /** spring on the slider's position (N/m) and its rest position (m): 0 leaves it free */
  c: 0,
  x0: 0.5,
  diameter: 0.02,
};

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const m = new Mechanism('slidercrank');
  const z = [0, 0, 1] as const;
  // start guesses of the angles the loop determines, from the geometry at theta (Newton closes the loop from them)
  const beta = -Math.asin((o.r * Math.sin(o.theta) - o.e) / o.l);
  const j1 = m.revolute('j1', { axis: z, q: o.theta, qd: o.w });
  const crank = m.bodyCylinder('crank', { r: [o.r, 0, 0], diameter: o.diameter, color: '#c0392b' });
  const j2 = m.revolute('j2', { axis: z, q: beta - o.theta });
  const coupler = m.bodyCylinder('coupler', { r: [o.l, 0, 0], diameter: o.diameter, color: '#27ae60' });
  const j3 = m.revolute('j3', { axis: z, q: -beta });
  const slider = m.body('slider', { m: o.ms, I: [1e-3, 1e-3, 1e-3], geometry: { shape: { type: 'box', size: [0.08, 0.04, 0.04] }, color: '#2980b9' } });
  const guide = m.bar('guide', { r: [0, o.e, 0] });
  // marked: breadth-first from the world the builder would reach the slider through j4 and cut j3
  const j4 = m.prismatic('j4', { axis: [1, 0, 0], c: o.c, q0: o.x0, cut: 'planar' });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, crank.frame_a);
  m.connect(crank.frame_b, j2.frame_a);
  m.connect(j2.frame_b, coupler.frame_a);
  m.connect(coupler.frame_b, j3.frame_a);
  m.connect(j3.frame_b, slider.frame_a);
  m.connect(m.world.frame_b, guide.frame_a);
  m.connect(guide.frame_b, j4.frame_a);
  m.connect(j4.frame_b, slider.frame_a);
  return m;
}
