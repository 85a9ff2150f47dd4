// MuJoCo's soft contact (solref, solimp) as the equivalent linear spring of
// Kron's compliant law, matched at rest depth. MuJoCo documentation,
// "Computation > Soft constraints" (mujoco.readthedocs.io, computation.html
// #soft-constraints) and "XML Reference > solimp": a constraint row's
// reference acceleration is a_ref = -b v - k d(r) r with
//   b = 2 / (dmax tc)        k = 1 / (dmax^2 tc^2 zeta^2)
// (solref = tc, zeta; solimp = d0, dmax, width, mid, power, d(r) rising from
// d0 at r = 0 to dmax at r >= width along a spline of that midpoint and
// power), and its regulariser R = (1 - d) / d * A with A MuJoCo's diagonal
// approximation of the row's inverse inertia (1 / m for a body of mass m).
// The solver gives a1 - a_ref = -R f, so at rest (a1 = 0, v = 0) a row holds
//   f = k d^2 r / (1 - d) * m
// a spring whose stiffness per unit mass grows with depth. Kron's law is
// linear: it takes the secant of that curve at the rest depth r* where the
// row carries its share of the weight, f = m g / n (n = the rows a body
// rests on: 4 for a box on a face, MuJoCo's and Kron's corner contacts; 1
// otherwise), so a body resting on a plane sits at MuJoCo's depth, found by
// bisection (f/m is increasing in r). Checked against MuJoCo's WebAssembly
// build in test/io/mjcf-contact-mujoco.test.ts (to 1%).
// Per unit mass the spring is kappa = g / (n r*); material.ts multiplies by
// the pair's mass (as MuJoCo's A). It is handed over as an equivalent solref
// (tc' = 1 / (zeta sqrt(kappa)), zeta): material.ts's k = m / (tc' zeta)^2
// is then m kappa, and its damping 2 m / tc' critical damping scaled by zeta,
// i.e. the solref's damping ratio kept on the stiffer spring (the closest a
// spring-damper comes: MuJoCo's transient is set by tc, its rest by d).
// Approximations: d at the rest depth under MuJoCo's default gravity 9.81
// (beyond solimp's width d = dmax and the spring is the same at any load:
// kappa = 1 / ((1 - dmax) tc^2 zeta^2)); the body's mass where MuJoCo uses
// its inverse weight at qpos0 (equal for a free body, not for a robot's
// link); the load a body's own weight, not what a robot's limbs put on it.

/** MuJoCo's default solref and solimp */
export const SOLREF: readonly [number, number] = [0.02, 1];
export const SOLIMP: readonly [number, number, number, number, number] = [0.9, 0.95, 0.001, 0.5, 2];

/** MuJoCo's default gravity, m/s^2: the load at which d is evaluated (header) */
const G = 9.81;

// (depth r >= 0, solimp) => MuJoCo's impedance d(r) (its getimpedance: a spline of x = r / width)
export function impedance(r: number, [d0, dmax, width, mid, power]: readonly number[]): number {
  const x = width > 0 ? Math.min(r / width, 1) : 1;
  const y = power === 1 ? x : x <= mid ? x ** power / mid ** (power - 1) : 1 - (1 - x) ** power / (1 - mid) ** (power - 1);
  // MuJoCo keeps d within [mjMINIMP, mjMAXIMP] = [1e-4, 0.9999]
  return Math.min(0.9999, Math.max(1e-4, d0 + y * (dmax - d0)));
}

// (solref, solimp, rows sharing the weight) => the rest depth r* (m): f/m = k d^2 r / (1 - d) equals g / n
export function restDepth(solref: readonly number[], solimp: readonly number[], rows = 1): number {
  const [tc, zeta] = solref;
  const k = 1 / (solimp[1] ** 2 * tc ** 2 * zeta ** 2);
  const load = G / rows;
  const held = (r: number) => {
    const d = impedance(r, solimp);
    return (k * d * d * r) / (1 - d);
  };
  let [lo, hi] = [0, solimp[2] > 0 ? solimp[2] : 1];
  while (held(hi) < load) hi *= 2;
  for (let i = 0; i < 100 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (held(mid) < load) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

// (solref, solimp, rows sharing the weight) => the equivalent solref of Kron's linear law (header)
export function equivalentSolref(solref: readonly number[], solimp: readonly number[], rows = 1): { timeConstant: number; dampingRatio: number } {
  const kappa = G / rows / restDepth(solref, solimp, rows);
  return { timeConstant: 1 / (solref[1] * Math.sqrt(kappa)), dampingRatio: solref[1] };
}
