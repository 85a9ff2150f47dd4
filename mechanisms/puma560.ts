// The PUMA 560 with the kinematic and inertial parameters of Armstrong,
// Khatib & Burdick, "The explicit dynamic model and inertial parameters of
// the PUMA 560 arm", ICRA 1986, as collected in Corke's Robotics Toolbox
// `mdl_puma560` (standard Denavit-Hartenberg convention; the same set is
// KDL's `Puma560()` in orocos kinematics_dynamics, models/puma560.cpp).
//
// Standard DH: link k's frame sits at joint k+1, and frame k-1 -> frame k is
//   Rz(q_k) Tz(d_k) Tx(a_k) Rx(alpha_k)
// here the revolute jk (about z of frame k-1), then one FixedRotation dhk
// (alpha_k about x, translated by r = [a_k, 0, d_k] in the rotated frame:
// Tz(d) Tx(a) is the translation [a, 0, d], which Rx(alpha) follows).
// Body linkk is attached at frame k with its centre of mass r_k and inertia
// I_k about the centre of mass, both in frame k coordinates, as in the set.
//
// Where we differ from the toolbox model:
// - rigid bodies only: no motor inertia Jm, gear ratio G or friction B, Tc;
// - link 1 (mass 0) has I = [0, 0.35, 0] in the set, which is not the inertia
//   of a rigid body (Ixx + Izz < Iyy) and the Body component rejects it. Link
//   1 only ever turns about the base z axis, which is its y axis, so Ixx and
//   Izz never enter the dynamics; we give Ixx = Izz = 0.175, the smallest
//   values that satisfy the triangle inequality;
// - link 3's [0.066, 0.086, 0.0125] violates it as well (0.066 + 0.0125 <
//   0.086, so no rigid body has it); we raise Ixx by 0.0075 to 0.0735, the
//   smallest change (11%) of one moment that makes it physical. Inertias do
//   not enter the gravity load, which stays the toolbox's.
// - joint limits: none by default (the arm falls freely, as this module always
//   has, and as the oracles and MuJoCo peers model it); --set limits=1 gives
//   the toolbox's qlim, as in mechanisms/puma560.urdf: beyond them a stiff
//   one-sided spring-damper (src/library/multibody/limits.ts, defaults sized
//   by the inertia beyond each joint).
// Gravity: standard gravity 9.80665 m/s^2 along -z of the base, as URDF robots get
// (the toolbox uses 9.81: --set g=9.81 reproduces its gravload).
import { Mechanism } from 'kron';

const pi = Math.PI;

/** one row per link: DH (d, a, alpha), mass, centre of mass, [Ixx, Iyy, Izz] about the centre of mass (links 1 and 3 adjusted, see above), the joint's qlim */
export const links = [
  { d: 0, a: 0, alpha: pi / 2, m: 0, r: [0, 0, 0], I: [0.175, 0.35, 0.175], qlim: [-2.7925, 2.7925] },
  { d: 0, a: 0.4318, alpha: 0, m: 17.4, r: [-0.3638, 0.006, 0.2275], I: [0.13, 0.524, 0.539], qlim: [-0.7854, 3.927] },
  { d: 0.15005, a: 0.0203, alpha: -pi / 2, m: 4.8, r: [-0.0203, -0.0141, 0.07], I: [0.0735, 0.086, 0.0125], qlim: [-3.927, 0.7854] },
  { d: 0.4318, a: 0, alpha: pi / 2, m: 0.82, r: [0, 0.019, 0], I: [1.8e-3, 1.3e-3, 1.8e-3], qlim: [-1.9199, 2.9671] },
  { d: 0, a: 0, alpha: -pi / 2, m: 0.34, r: [0, 0, 0], I: [0.3e-3, 0.4e-3, 0.3e-3], qlim: [-1.7453, 1.7453] },
  { d: 0, a: 0, alpha: 0, m: 0.09, r: [0, 0, 0.032], I: [0.15e-3, 0.15e-3, 0.04e-3], qlim: [-4.6426, 4.6426] },
] as const;

/** g: gravity along -z; q1..q6: start angles (default qz, the zero angle pose: arm straight up); limits: 0 none (default), 1 the toolbox's qlim */
export const parameters = { g: 9.80665, q1: 0, q2: 0, q3: 0, q4: 0, q5: 0, q6: 0, limits: 0 };

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const q0 = [o.q1, o.q2, o.q3, o.q4, o.q5, o.q6];
  const mech = new Mechanism('puma560', { gravity: [0, 0, -o.g] });
  let parent = mech.world.frame_b;
  links.forEach((l, i) => {
    const k = i + 1;
    const joint = mech.revolute(`j${k}`, { axis: [0, 0, 1], q: q0[i], limits: o.limits ? [...l.qlim] : undefined });
    const dh = mech.rotation(`dh${k}`, { axis: [1, 0, 0], angle: l.alpha, r: [l.a, 0, l.d] });
    const body = mech.body(`link${k}`, { m: l.m, rcm: [...l.r], I: [...l.I] });
    mech.connect(parent, joint.frame_a);
    mech.connect(joint.frame_b, dh.frame_a);
    mech.connect(dh.frame_b, body.frame_a);
    parent = dh.frame_b;
  });
  return mech;
}
