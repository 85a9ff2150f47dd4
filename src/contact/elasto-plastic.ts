// Elasto-plastic friction at one contact: a tangential spring-damper from
// the contact to an anchor that slides when the force reaches the Coulomb
// cone (Dahl 1968's bristle without its smoothing; the "spring anchor" of
// elasto-plastic friction, Dupont et al. 2002, with the anchor's plastic
// flow taken as a projection at every accepted step). Glossary:
//   b, a    the bristle (bristles.ts): the material point of B at the
//           contact when the step began, in B's frame, and its anchor, in
//           A's frame (kept at the step's start tn)
//   d       X_B b - X_A a, how far B's material point has moved from its
//           anchor (world), on the contact's tangent plane
//   v_t     the slip velocity (B's material point relative to A's)
//   kt, ct  the tangential stiffness and damping: the normal law's own,
//           k and c (linear), n k delta^(n-1) and c delta^n (Hunt-Crossley,
//           its stiffness and damping at the depth)
// Within a step the spring stretches with the material point: f is a
// function of x alone, smooth but for the cone's kink, and its Jacobian
// (the spring through the positions, the damper through the velocities)
// is the one radau's Newton needs:
//   trial = -kt d - ct v_t
//   f_t   = trial                       |trial| <= mu fn   (sticks: no creep)
//   f_t   = mu fn trial / |trial|       beyond it          (slides: Coulomb)
// and the deflection an accepted step at this state keeps is
//   d1 = d                              sticking
//   d1 = -(f_t + ct v_t) / kt           sliding: the anchor moved so that
//                                       the force is the same
// after which the bristle is re-anchored at the contact point where it now
// is (bristles.ts), so the next step starts from the same force. A contact
// that holds still holds a fixed deflection and force: no creep. Rolling
// moves the contact point over the surface, and the bristle's material
// point away from it: within a step of rotation omega h by r (omega h)^2 / 2
// along the normal (dropped: d is taken on the tangent plane) and
// r (omega h)^3 / 6 along the surface, a spurious deflection of that order
// until the next accept() anchors the bristle again (a rolling resistance
// that vanishes with the step). The friction's stiffness is the normal
// contact's (kt and ct against the regularised law's mu fn / v_s).
import type { PairMaterial } from './material.ts';
import { normalForce } from './law.ts';

/** per contact, what acceptance keeps: the deflection d1 (3, world) and whether the contact slides (1) */
export const NEXT_STRIDE = 4;

// (material, penetration delta > 0) => [kt, ct], the tangential spring and damper at that depth (header)
export function tangentialSpring(m: PairMaterial, delta: number): [number, number] {
  return m.law === 'linear' ? [m.k, m.c] : [m.n * m.k * delta ** (m.n - 1), m.c * delta ** m.n];
}

/**
 * (out force on B, out d1 at next[at..at+2] and sliding at next[at+3], material, d, normal, relative
 * velocity, d (world, any normal part ignored; zeros for a new contact)) => fn
 */
export function elastoPlasticForce(
  out: Float64Array,
  next: Float64Array,
  at: number,
  m: PairMaterial,
  d: number,
  n: ArrayLike<number>,
  v: ArrayLike<number>,
  e: ArrayLike<number>,
): number {
  out[0] = out[1] = out[2] = 0;
  next[at] = next[at + 1] = next[at + 2] = next[at + 3] = 0;
  if (!(d < 0)) return 0;
  const delta = -d;
  const vn = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
  const fn = normalForce(m, delta, -vn);
  if (!(fn > 0)) return 0;
  const vx = v[0] - vn * n[0],
    vy = v[1] - vn * n[1],
    vz = v[2] - vn * n[2];
  const en = n[0] * e[0] + n[1] * e[1] + n[2] * e[2];
  let dx = e[0] - en * n[0],
    dy = e[1] - en * n[1],
    dz = e[2] - en * n[2];
  const [kt, ct] = tangentialSpring(m, delta);
  let fx = -kt * dx - ct * vx,
    fy = -kt * dy - ct * vy,
    fz = -kt * dz - ct * vz;
  const cone = m.mu * fn,
    trial = Math.sqrt(fx * fx + fy * fy + fz * fz);
  if (trial > cone) {
    const s = cone / trial;
    ((fx *= s), (fy *= s), (fz *= s));
    // the anchor moves: the spring alone then holds f_t less the damper's part
    ((dx = -(fx + ct * vx) / kt), (dy = -(fy + ct * vy) / kt), (dz = -(fz + ct * vz) / kt));
    next[at + 3] = 1;
  }
  ((next[at] = dx), (next[at + 1] = dy), (next[at + 2] = dz));
  out[0] = fn * n[0] + fx;
  out[1] = fn * n[1] + fy;
  out[2] = fn * n[2] + fz;
  return fn;
}
