// The four-bar of the tearing paper ("Mechanical systems with kinematic
// loops"), with the geometry of the Modelica Standard Library example
// MultiBody.Examples.Loops.Fourbar1: revolute j1 (the state joint, the crank's
// angle and speed are the states), spherical j2 (the cut joint), universal j3
// and prismatic j4 (remaining tree joints, determined by the loop).
//
//   world --j1 (axis x)-- b1 crank --j2 (spherical, cut)-- b3 coupler
//   world --ground bar {1.2, 0, 0}--j4 (prismatic, x)-- b2 post --j3 (universal, y then z)-- b3
//
// Bodies are solid steel cylinders of diameter 0.05 m along their r. Gravity
// 9.80665 m/s^2 along -y. The loop closes where
//   (1.2 + s)^2 = 0.8 + 0.2 cos(phi) - 0.04 sin(phi)      (s = j4.q, phi = j1.q)
// which gives s(0) = -0.2 at phi = 0.
import { Mechanism } from 'kron';

export const parameters = {
  /** start angle (rad) and speed (rad/s, 300 deg/s) of the crank j1 */
  phi0: 0,
  w0: (300 * Math.PI) / 180,
  /** start value (a guess: the loop determines it) of the slider j4 */
  s0: -0.2,
  diameter: 0.05,
  density: 7700,
  /**
   * rotation (rad) of the slider guide about z: 0 is the Modelica geometry, in
   * which the loop equations decouple into smaller blocks; any other value
   * gives the tearing paper's three loops (position 3, velocity 3, dynamics 7)
   */
  tilt: 0,
};

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const m = new Mechanism('fourbar');
  const look = { diameter: o.diameter, density: o.density };
  const j1 = m.revolute('j1', { axis: [1, 0, 0], q: o.phi0, qd: o.w0, state: true });
  const b1 = m.bodyCylinder('b1', { r: [0, 0.5, 0.1], color: '#c0392b', ...look });
  const j2 = m.spherical('j2', { cut: true });
  const ground = m.bar('ground', { r: [1.2, 0, 0] });
  const guide = m.rotation('guide', { axis: [0, 0, 1], angle: o.tilt });
  const j4 = m.prismatic('j4', { axis: [1, 0, 0], q: o.s0 });
  const b2 = m.bodyCylinder('b2', { r: [0, 0.2, 0], color: '#2980b9', ...look });
  const j3 = m.universal('j3', {
    axes: [
      [0, 1, 0],
      [0, 0, 1],
    ],
  });
  const b3 = m.bodyCylinder('b3', { r: [-1, 0.3, 0.1], color: '#27ae60', ...look });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, b1.frame_a);
  m.connect(b1.frame_b, j2.frame_a);
  m.connect(m.world.frame_b, ground.frame_a);
  m.connect(ground.frame_b, guide.frame_a);
  m.connect(guide.frame_b, j4.frame_a);
  m.connect(j4.frame_b, b2.frame_a);
  m.connect(b2.frame_b, j3.frame_a);
  m.connect(j3.frame_b, b3.frame_a);
  m.connect(b3.frame_b, j2.frame_b);
  return m;
}
