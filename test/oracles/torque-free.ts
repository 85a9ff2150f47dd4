// Oracle: the torque-free rigid body in closed form (Euler's equations in the
// body frame, Landau & Lifshitz, Mechanics, 3rd ed., §37, eqs. 37.7–37.10),
// with the Jacobi elliptic functions and the complete and incomplete elliptic
// integrals of the first kind written here from Abramowitz & Stegun (ch. 16,
// 17) and Carlson (1995). No Kron code.
//
// Principal moments I1 < I2 < I3, angular velocity Omega in the principal
// frame, energy 2E = sum I_k Omega_k^2, |M|^2 = sum I_k^2 Omega_k^2. For
// M^2 > 2 E I2 (L&L 37.10; parameter m = k^2, as in A&S):
//   Omega1 =   sqrt((2E I3 - M^2) / (I1 (I3 - I1))) cn(tau, m)
//   Omega2 =   sqrt((2E I3 - M^2) / (I2 (I3 - I2))) sn(tau, m)
//   Omega3 =   sqrt((M^2 - 2E I1) / (I3 (I3 - I1))) dn(tau, m)
//   tau    = lambda t,  lambda = sqrt((I3 - I2)(M^2 - 2E I1) / (I1 I2 I3))
//   m      = (I2 - I1)(2E I3 - M^2) / ((I3 - I2)(M^2 - 2E I1))
// and for M^2 < 2 E I2 the same with the suffixes 1 and 3 exchanged. The
// angular velocity repeats after T = 4 K(m) / lambda; the component along the
// intermediate axis, Omega2 ~ sn, changes sign every T / 2: a body spun near
// its intermediate axis flips over (the Dzhanibekov effect) once every T / 2.
// Signs and phase: any solution is the one above with a shift tau0 and a sign
// on each component with an even number of minus signs (Euler's equations
// keep their form under such flips); tau0 and the signs are fitted to Omega(0).
import type { V3 } from './rnea.ts';

/** the arithmetic-geometric mean of a and b */
function agm(a: number, b: number): number {
  for (let i = 0; i < 64 && Math.abs(a - b) > 1e-16 * a; i++) [a, b] = [(a + b) / 2, Math.sqrt(a * b)];
  return (a + b) / 2;
}

function checkParameter(m: number): void {
  if (!(m >= 0 && m < 1)) throw new Error(`elliptic parameter m = ${m} outside [0, 1)`);
}

/** K(m) = pi / (2 AGM(1, sqrt(1 - m)))  (A&S 17.6.1) */
export function ellipticK(m: number): number {
  checkParameter(m);
  return Math.PI / (2 * agm(1, Math.sqrt(1 - m)));
}

/** Carlson's symmetric integral R_F(x, y, z) by duplication (Carlson 1995, Numer. Algorithms 10, alg. 1; NR 3rd ed. 6.12.2) */
export function carlsonRF(x: number, y: number, z: number): number {
  for (let i = 0; i < 100; i++) {
    const l = Math.sqrt(x) * Math.sqrt(y) + Math.sqrt(y) * Math.sqrt(z) + Math.sqrt(z) * Math.sqrt(x);
    [x, y, z] = [(x + l) / 4, (y + l) / 4, (z + l) / 4];
    const A = (x + y + z) / 3;
    const X = 1 - x / A,
      Y = 1 - y / A,
      Z = -(X + Y);
    // error of the series below: ~ max|X, Y, Z|^6 / 4 < 1e-17
    if (Math.max(Math.abs(X), Math.abs(Y), Math.abs(Z)) < 0.0015) {
      const E2 = X * Y - Z * Z,
        E3 = X * Y * Z;
      return (1 - E2 / 10 + E3 / 14 + (E2 * E2) / 24 - (3 * E2 * E3) / 44) / Math.sqrt(A);
    }
  }
  throw new Error(`carlsonRF(${x}, ${y}, ${z}) did not converge`);
}

/** F(phi | m) for any real amplitude phi: sin phi R_F(cos^2, 1 - m sin^2, 1) on |phi| <= pi/2, quasi-periodic beyond (A&S 17.4.3) */
export function ellipticF(phi: number, m: number): number {
  checkParameter(m);
  const K = ellipticK(m);
  const turns = Math.round(phi / Math.PI);
  const r = phi - turns * Math.PI;
  const s = Math.sin(r),
    c = Math.cos(r);
  return 2 * turns * K + s * carlsonRF(c * c, 1 - m * s * s, 1);
}

/** sn, cn, dn of (u | m) by the descending AGM (A&S 16.4) */
export function jacobiElliptic(u: number, m: number): { sn: number; cn: number; dn: number } {
  checkParameter(m);
  const a = [1],
    c = [Math.sqrt(m)];
  let b = Math.sqrt(1 - m);
  while (Math.abs(c[c.length - 1]) > 1e-17 && a.length < 64) {
    const an = a[a.length - 1];
    a.push((an + b) / 2);
    c.push((an - b) / 2);
    b = Math.sqrt(an * b);
  }
  const N = a.length - 1;
  let phi = 2 ** N * a[N] * u,
    prev = phi;
  for (let n = N; n >= 1; n--) [prev, phi] = [phi, (phi + Math.asin((c[n] / a[n]) * Math.sin(phi))) / 2];
  return { sn: Math.sin(phi), cn: Math.cos(phi), dn: N === 0 ? 1 : Math.cos(phi) / Math.cos(prev - phi) };
}

export interface TorqueFree {
  /** elliptic parameter m = k^2 and the rate lambda of tau = lambda t */
  m: number;
  lambda: number;
  /** T = 4 K(m) / lambda: the period of Omega(t); the intermediate-axis component flips every T / 2 */
  period: number;
  /** true when M^2 > 2 E I2 (the body turns about the I3 axis on average) */
  aboutI3: boolean;
  /** Omega(t) in the principal frame */
  omega(t: number): V3;
}

// (principal moments I1 < I2 < I3, Omega(0) in the principal frame) => the closed-form motion
export function torqueFree(I: V3, w0: V3): TorqueFree {
  if (!(0 < I[0] && I[0] < I[1] && I[1] < I[2])) throw new Error(`principal moments ${I.join(', ')} must satisfy 0 < I1 < I2 < I3`);
  const E2 = I[0] * w0[0] ** 2 + I[1] * w0[1] ** 2 + I[2] * w0[2] ** 2; // 2E
  const M2 = (I[0] * w0[0]) ** 2 + (I[1] * w0[1]) ** 2 + (I[2] * w0[2]) ** 2;
  const aboutI3 = M2 > E2 * I[1];
  if (M2 === E2 * I[1]) throw new Error('M^2 = 2 E I2: the separatrix, no flip period (T is infinite)');
  // L&L's suffixes 1, 2, 3 are our axes o[0], o[1], o[2]
  const o = aboutI3 ? [0, 1, 2] : [2, 1, 0];
  const [J1, J2, J3] = o.map((k) => I[k]);
  const amp = [(E2 * J3 - M2) / (J1 * (J3 - J1)), (E2 * J3 - M2) / (J2 * (J3 - J2)), (M2 - E2 * J1) / (J3 * (J3 - J1))].map(Math.sqrt);
  const lambda = Math.sqrt(((J3 - J2) * (M2 - E2 * J1)) / (J1 * J2 * J3));
  const m = ((J2 - J1) * (E2 * J3 - M2)) / ((J3 - J2) * (M2 - E2 * J1));
  const W = o.map((k) => w0[k]);
  // the phase from (cn, sn) at t = 0; the sign of the third from Omega3(0); which sign of the second makes Euler's equations hold
  const s3 = Math.sign(W[2]) || 1;
  const fits = [1, -1].map((s2) => {
    const tau0 = ellipticF(Math.atan2(W[1] / (s2 * amp[1]), W[0] / amp[0]), m);
    const at = (t: number): V3 => {
      const { sn, cn, dn } = jacobiElliptic(lambda * t + tau0, m);
      const out: V3 = [0, 0, 0];
      [amp[0] * cn, s2 * amp[1] * sn, s3 * amp[2] * dn].forEach((x, i) => (out[o[i]] = x));
      return out;
    };
    // residual of I1 dOmega1/dt = (I2 - I3) Omega2 Omega3 at t = 0, by a central difference (only to pick the sign)
    const h = 1e-6,
      p = at(h),
      q = at(-h),
      x = at(0);
    const res =
      Math.abs((I[0] * (p[0] - q[0])) / (2 * h) - (I[1] - I[2]) * x[1] * x[2]) + Math.abs((I[1] * (p[1] - q[1])) / (2 * h) - (I[2] - I[0]) * x[2] * x[0]);
    return { res, at };
  });
  const best = fits[0].res <= fits[1].res ? fits[0] : fits[1];
  return { m, lambda, period: (4 * ellipticK(m)) / lambda, aboutI3, omega: best.at };
}

/** the root in [0, 1] of the cubic Hermite interpolant through (0, y0), (1, y1) with slopes d0, d1 (per unit step) */
export function hermiteRoot(y0: number, y1: number, d0: number, d1: number): number {
  const p = (s: number) => (2 * s ** 3 - 3 * s ** 2 + 1) * y0 + (s ** 3 - 2 * s ** 2 + s) * d0 + (-2 * s ** 3 + 3 * s ** 2) * y1 + (s ** 3 - s ** 2) * d1;
  let a = 0,
    b = 1;
  for (let i = 0; i < 60; i++) {
    const m = (a + b) / 2;
    if (Math.sign(p(m)) === Math.sign(p(a))) a = m;
    else b = m;
  }
  return (a + b) / 2;
}
