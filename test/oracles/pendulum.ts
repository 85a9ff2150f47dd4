// Oracle: the planar double pendulum in closed form, independent of the
// compiler (any dynamics textbook, e.g. Spong, Hutchinson & Vidyasagar,
// "Robot Modeling and Control", sec. 6.4, the two-link planar arm).
//
// Rod k: mass mk, centre of mass at lck from its joint, inertia Ik about its
// centre of mass (z axis). q1 is rod 1's angle from the x axis, q2 rod 2's
// angle relative to rod 1; gravity g along -y; joint torques tau1, tau2.
//
// Centres of mass and their velocities (s12 = sin(q1 + q2), c12 = cos(q1 + q2)):
//   p1 = lc1 (c1, s1)                         |v1|^2 = lc1^2 qd1^2
//   p2 = L1 (c1, s1) + lc2 (c12, s12)         |v2|^2 = L1^2 qd1^2 + lc2^2 (qd1 + qd2)^2
//                                                     + 2 L1 lc2 cos q2 qd1 (qd1 + qd2)
// Angular velocities qd1 and qd1 + qd2, so T = 1/2 qd' M(q) qd with
//   M11 = m1 lc1^2 + I1 + m2 (L1^2 + lc2^2 + 2 L1 lc2 cos q2) + I2
//   M12 = m2 (lc2^2 + L1 lc2 cos q2) + I2
//   M22 = m2 lc2^2 + I2
// and V = g (m1 lc1 s1 + m2 (L1 s1 + lc2 s12)). Lagrange's equations
// d/dt dT/dqd - dT/dq + dV/dq = tau give M qdd = b = tau - C - G with
// h = m2 L1 lc2 sin q2 (dM11/dq2 = -2 h, dM12/dq2 = -h):
//   C1 = -h (2 qd1 qd2 + qd2^2)      C2 = h qd1^2
//   G1 = g ((m1 lc1 + m2 L1) c1 + m2 lc2 c12)      G2 = g m2 lc2 c12
// The 2x2 by Cramer's rule, det = M11 M22 - M12^2 > 0:
//   qdd1 = (M22 b1 - M12 b2) / det      qdd2 = (M11 b2 - M12 b1) / det

export interface DoublePendulumParameters {
  m1: number;
  lc1: number;
  I1: number;
  L1: number;
  m2: number;
  lc2: number;
  I2: number;
  /** gravity magnitude, along -y */
  g: number;
}

/** [qdd1, qdd2] at (q1, q2, qd1, qd2) with joint torques tau1, tau2 */
export function doublePendulumAcceleration(
  p: DoublePendulumParameters,
  q1: number,
  q2: number,
  qd1: number,
  qd2: number,
  tau1 = 0,
  tau2 = 0,
): [number, number] {
  const { m1, lc1, I1, L1, m2, lc2, I2, g } = p;
  const cos2 = Math.cos(q2),
    c1 = Math.cos(q1),
    c12 = Math.cos(q1 + q2);
  const M11 = m1 * lc1 * lc1 + I1 + m2 * (L1 * L1 + lc2 * lc2 + 2 * L1 * lc2 * cos2) + I2;
  const M12 = m2 * (lc2 * lc2 + L1 * lc2 * cos2) + I2;
  const M22 = m2 * lc2 * lc2 + I2;
  const h = m2 * L1 * lc2 * Math.sin(q2);
  const b1 = tau1 + h * (2 * qd1 * qd2 + qd2 * qd2) - g * ((m1 * lc1 + m2 * L1) * c1 + m2 * lc2 * c12);
  const b2 = tau2 - h * qd1 * qd1 - g * m2 * lc2 * c12;
  const det = M11 * M22 - M12 * M12;
  return [(M22 * b1 - M12 * b2) / det, (M11 * b2 - M12 * b1) / det];
}

/** total energy T + V (zero potential at y = 0) */
export function doublePendulumEnergy(p: DoublePendulumParameters, q1: number, q2: number, qd1: number, qd2: number): number {
  const { m1, lc1, I1, L1, m2, lc2, I2, g } = p;
  const cos2 = Math.cos(q2);
  const M11 = m1 * lc1 * lc1 + I1 + m2 * (L1 * L1 + lc2 * lc2 + 2 * L1 * lc2 * cos2) + I2;
  const M12 = m2 * (lc2 * lc2 + L1 * lc2 * cos2) + I2;
  const M22 = m2 * lc2 * lc2 + I2;
  const T = 0.5 * (M11 * qd1 * qd1 + 2 * M12 * qd1 * qd2 + M22 * qd2 * qd2);
  const V = g * (m1 * lc1 * Math.sin(q1) + m2 * (L1 * Math.sin(q1) + lc2 * Math.sin(q1 + q2)));
  return T + V;
}
