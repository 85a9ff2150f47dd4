// The classic planar four-bar (crank-rocker): four parallel revolutes about
// z, closed by the planar revolute cut, which constrains only the two
// in-plane translations (a full revolute or spherical cut would over-constrain
// a planar loop).
//
//   A = world origin, D = (d, 0, 0)      crank AB (a), coupler BC (b), rocker DC (c)
//   world --j1 (state)-- crank --j2-- coupler --j3 (planar cut)-- rocker --j4-- ground bar --world
//
// j1.q = theta2, the crank angle from the x axis; j4.q = theta4, the rocker's;
// j2.q is the coupler's angle relative to the crank and j3.q the rocker's
// relative to the coupler (measured by the cut joint). Freudenstein's equation
//   K1 cos(theta4) - K2 cos(theta2) + K3 = cos(theta2 - theta4),
//   K1 = d/a, K2 = d/c, K3 = (a^2 - b^2 + c^2 + d^2) / (2 a c)
// holds along the motion. Grashof: a + b <= c + d with the crank shortest.
import { Mechanism } from 'kron';

export const parameters = {
  a: 0.2,
  b: 0.6,
  c: 0.5,
  d: 0.6,
  /** start crank angle (rad) and speed (rad/s) */
  theta2: Math.PI / 3,
  w: 4,
  /** start guesses (rad) for the coupler's relative angle and the rocker's angle: the loop determines them */
  q2: -0.5,
  q4: 1.5,
  diameter: 0.02,
};

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const m = new Mechanism('fourbar-planar');
  const z = [0, 0, 1] as const;
  const j1 = m.revolute('j1', { axis: z, q: o.theta2, qd: o.w, state: true });
  const crank = m.bodyCylinder('crank', { r: [o.a, 0, 0], diameter: o.diameter, color: '#c0392b' });
  const j2 = m.revolute('j2', { axis: z, q: o.q2 });
  const coupler = m.bodyCylinder('coupler', { r: [o.b, 0, 0], diameter: o.diameter, color: '#27ae60' });
  const j3 = m.revolute('j3', { axis: z, cut: 'planar' });
  const ground = m.bar('ground', { r: [o.d, 0, 0] });
  const j4 = m.revolute('j4', { axis: z, q: o.q4 });
  const rocker = m.bodyCylinder('rocker', { r: [o.c, 0, 0], diameter: o.diameter, color: '#2980b9' });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, crank.frame_a);
  m.connect(crank.frame_b, j2.frame_a);
  m.connect(j2.frame_b, coupler.frame_a);
  m.connect(coupler.frame_b, j3.frame_a);
  m.connect(m.world.frame_b, ground.frame_a);
  m.connect(ground.frame_b, j4.frame_a);
  m.connect(j4.frame_b, rocker.frame_a);
  m.connect(rocker.frame_b, j3.frame_b);
  return m;
}
