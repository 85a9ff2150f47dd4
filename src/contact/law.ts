// The contact force law at one contact: compliant normal force and
// regularised Coulomb friction (Hunt & Crossley 1975; the regularisation as
// Drake's "stiction tolerance", Castro et al. 2019). With d the signed
// distance (penetration delta = -d > 0), n the normal from A to B and
// v = v_B(p) - v_A(p) the velocity of B's material point at the contact
// point relative to A's:
//   delta' = -n.v                       rate of penetration
//   linear:         fn = k delta + c delta'
//   Hunt-Crossley:  fn = delta^e (k + c delta')
//   fn := max(fn, 0)                    (surfaces push, never pull)
//   v_t = v - (n.v) n                   slip velocity
//   f_t = -mu fn v_t / sqrt(|v_t|^2 + v_s^2)
// Force on B: fn n + f_t; on A its opposite. The friction is Coulomb's
// (|f_t| -> mu fn) for slip much faster than v_s, and a viscous law
// f_t = -(mu fn / v_s) v_t below it: the creep a regularised law allows.
import type { PairMaterial } from './material.ts';

/** Drake's default stiction tolerance (m/s): slip below it is viscous creep */
export const DEFAULT_SLIP_SPEED = 1e-4;

/**
 * how a contact's friction holds it: 'regularised' (this file: Coulomb with viscous creep below v_s, the default) or
 * 'elasto-plastic' (elasto-plastic.ts: a tangential spring to an anchor that slides at mu fn, no creep)
 */
export type FrictionLaw = 'regularised' | 'elasto-plastic';
/** the friction laws, the default first */
export const FRICTION_LAWS: readonly FrictionLaw[] = ['regularised', 'elasto-plastic'];

// (material, penetration delta > 0, its rate delta') => fn before the clamp at 0 (the header's two laws)
export function normalForce(m: PairMaterial, delta: number, rate: number): number {
  return m.law === 'linear' ? m.k * delta + m.c * rate : delta ** m.n * (m.k + m.c * rate);
}

// (out, material, d, normal, relative velocity, v_s) => out[0..2] the force on B (world); returns fn
export function contactForce(out: Float64Array, m: PairMaterial, d: number, n: ArrayLike<number>, v: ArrayLike<number>, slipSpeed: number): number {
  out[0] = out[1] = out[2] = 0;
  if (!(d < 0)) return 0;
  const delta = -d;
  const vn = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
  const fn = normalForce(m, delta, -vn);
  if (!(fn > 0)) return 0;
  const tx = v[0] - vn * n[0],
    ty = v[1] - vn * n[1],
    tz = v[2] - vn * n[2];
  const scale = (m.mu * fn) / Math.sqrt(tx * tx + ty * ty + tz * tz + slipSpeed * slipSpeed);
  out[0] = fn * n[0] - scale * tx;
  out[1] = fn * n[1] - scale * ty;
  out[2] = fn * n[2] - scale * tz;
  return fn;
}
