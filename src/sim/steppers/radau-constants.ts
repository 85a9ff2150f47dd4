// The constants of radau5.ts: Radau IIA's nodes, error weights and the
// eigen-decomposition of A⁻¹ (Hairer & Wanner, Solving Ordinary
// Differential Equations II, §IV.5 and §IV.8), RADAU5's default tuning,
// and its error norm.
export const EPS = Number.EPSILON;
// the nodes c1, c2, c3 = 1 of Radau IIA of order 5 (§IV.5)
export const SQ6 = Math.sqrt(6);
export const C1 = (4 - SQ6) / 10,
  C2 = (4 + SQ6) / 10;
export const C1M1 = C1 - 1,
  C2M1 = C2 - 1,
  C1MC2 = C1 - C2;
// the error estimate's weights (γ0 = 1/u1, e = (DD1, DD2, DD3)/h; §IV.8 'Error Estimation')
export const DD1 = -(13 + 7 * SQ6) / 3,
  DD2 = (-13 + 7 * SQ6) / 3,
  DD3 = -1 / 3;
// the eigenvalues of A⁻¹: u1 real, α ± iβ ('Simplified Newton Iterations')
export const CBRT81 = Math.cbrt(81),
  CBRT9 = Math.cbrt(9);
export const U1 = 30 / (6 + CBRT81 - CBRT9);
export const ALPH0 = (12 - CBRT81 + CBRT9) / 60,
  BETA0 = ((CBRT81 + CBRT9) * Math.sqrt(3)) / 60;
export const ALPH = ALPH0 / (ALPH0 * ALPH0 + BETA0 * BETA0),
  BETA = BETA0 / (ALPH0 * ALPH0 + BETA0 * BETA0);
// T with T⁻¹ A⁻¹ T = diag(u1, [[α, -β], [β, α]]), and T⁻¹; RADAU5's 20-digit values
// rounded to doubles (T32 = 1, T33 = 0)
export const T11 = 0.09123239487089295,
  T12 = -0.1412552950209542,
  T13 = -0.030029194105147424;
export const T21 = 0.241717932707107,
  T22 = 0.20412935229379994,
  T23 = 0.3829421127572619;
export const T31 = 0.966048182615093;
export const TI11 = 4.325579890063155,
  TI12 = 0.33919925181580984,
  TI13 = 0.5417705399358749;
export const TI21 = -4.178718591551905,
  TI22 = -0.32768282076106237,
  TI23 = 0.47662355450055044;
export const TI31 = -0.5028726349457868,
  TI32 = 2.571926949855605,
  TI33 = -0.5960392048282249;
// RADAU5's defaults: Newton iterations per step, the θ below which J is kept, the safety
// factor, the bounds of h_new / h, and the band of h_new / h in which h (and its LU) is kept
export const NIT = 7,
  THET = 0.001,
  SAFE = 0.9,
  FACL = 5,
  FACR = 1 / 8,
  QUOT1 = 1,
  QUOT2 = 1.2;
/**
 * θ below which J is kept when J is by differences (n evaluations of f, against 3 for one more
 * Newton iteration): RADAU5's documentation of WORK(3), "increase WORK(3), to 0.1 say, when
 * Jacobian evaluations are costly". On the contact robots (37 and 56 states) it halved the
 * Jacobians and cut the evaluations by a quarter to a half (docs/performance/contact.md, Where the time went).
 */
export const THET_DIFFERENCES = 0.1;
/** attempts of one step (each cuts h by 2 or more) before the step is given up */
export const MAX_ATTEMPTS = 60;

/** RMS of e_i / scal_i, at least 1e-10 (RADAU5's error norm) */
export function rms(e: Float64Array, scal: Float64Array): number {
  let s = 0;
  for (let i = 0; i < e.length; i++) s += (e[i] / scal[i]) ** 2;
  const err = Math.sqrt(s / e.length);
  return Number.isNaN(err) ? Infinity : Math.max(err, 1e-10);
}

/** every entry finite */
export function finite(v: Float64Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
  return true;
}
