// Oracle: world-resolved kinematics of a tree of one-axis joints (the RNEA
// tree of rnea.ts), plain numbers, no Kron code: poses, velocities, the
// accelerations at qdd = 0 (bias accelerations), and the partial velocities
// of a frame with respect to each coordinate from the joint screw axes.
// The loop oracle (loops.ts) builds the constraint Jacobian G and
// gamma = -(dG/dt) qd from these analytically.
//
// Why not finite differences: G and gamma by Ridders' differences carry an
// absolute error of ~1e-12 and ~1e-10; the KKT solve multiplies gamma's by
// the mass matrix, so next to a body of 1e12 kg it became forces of ~1e2 N
// on 1 kg links (fuzz seed 1802: 7e-3 relative error in the oracle, checked
// at 50 digits by bench/fuzz/adjudicate.py). Analytic columns are exact to
// rounding in the geometry, with no mass in them.
//
// For body i with parent p (world: at rest, at the origin), s_i the joint's
// unit axis in world coordinates (fixed in the parent: s_i = R_p E n) and
// rho = r_i - r_p (a vector fixed in the parent for a revolute joint, sliding
// along s_i for a prismatic one; differentiate r_i = r_p + rho twice):
//   revolute   w_i = w_p + s_i qd_i          v_i = v_p + w_p x rho
//              al_i = al_p + w_p x s_i qd_i  a_i = a_p + al_p x rho + w_p x (w_p x rho)
//   prismatic  w_i = w_p   al_i = al_p       v_i = v_p + w_p x rho + s_i qd_i
//              a_i = a_p + al_p x rho + w_p x (w_p x rho) + 2 w_p x s_i qd_i
// (v, a: of the body frame's origin; al, a at qdd = 0: the bias accelerations.)
// Partial velocities of a point P rigidly attached to body b, for a
// coordinate k on the path from the root to b: revolute w = s_k,
// v = s_k x (r_P - r_k) (r_k on the axis: the joint's origin); prismatic
// w = 0, v = s_k. Coordinates not on the path: zero.
import { type M3, type RneaTree, type V3, add, cross, identity, mulMM, mulMV, normalize, rotation, scale } from './rnea.ts';

export interface Motion {
  /** body to world */
  R: M3;
  /** origin, world */
  r: V3;
  /** angular velocity, velocity of the origin */
  w: V3;
  v: V3;
  /** angular and origin acceleration at qdd = 0 */
  al: V3;
  a: V3;
  /** the body's joint axis, world-resolved (unit) */
  s: V3;
}

const ZERO: V3 = [0, 0, 0];
export const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

// (RNEA tree, q, qd) => the motion of every body frame
export function motions(t: RneaTree, q: readonly number[], qd: readonly number[]): Motion[] {
  const out: Motion[] = [];
  t.bodies.forEach((b, i) => {
    const p: Motion = b.parent < 0 ? { R: identity(), r: ZERO, w: ZERO, v: ZERO, al: ZERO, a: ZERO, s: ZERO } : out[b.parent];
    const n = normalize(b.axis);
    const Ra = mulMM(p.R, b.E);
    const s = mulMV(Ra, n);
    const prismatic = b.joint === 'prismatic';
    const rho = mulMV(p.R, prismatic ? add(b.o, mulMV(b.E, scale(q[i], n))) : b.o);
    const r = add(p.r, rho);
    const wxr = cross(p.w, rho);
    const carried = add(add(p.a, cross(p.al, rho)), cross(p.w, wxr));
    if (prismatic) {
      out.push({ R: Ra, r, w: p.w, v: add(add(p.v, wxr), scale(qd[i], s)), al: p.al, a: add(carried, scale(2 * qd[i], cross(p.w, s))), s });
    } else {
      out.push({
        R: mulMM(Ra, rotation(n, q[i])),
        r,
        w: add(p.w, scale(qd[i], s)),
        v: add(p.v, wxr),
        al: add(p.al, scale(qd[i], cross(p.w, s))),
        a: carried,
        s,
      });
    }
  });
  return out;
}

/** the bodies on the path from the root to body b, b included (none for the world, b = -1) */
export function path(t: RneaTree, b: number): Set<number> {
  const out = new Set<number>();
  for (let i = b; i >= 0; i = t.bodies[i].parent) out.add(i);
  return out;
}

export interface FrameMotion extends Omit<Motion, 's'> {
  /** per coordinate: the frame's angular and origin velocity for a unit rate of that coordinate */
  dw: V3[];
  dv: V3[];
}

/** the motion of a frame (orientation E, origin o in body b's frame; b = -1: the world) and its partial velocities */
export function frameMotion(t: RneaTree, all: readonly Motion[], b: number, E: M3, o: V3): FrameMotion {
  const n = t.bodies.length;
  if (b < 0) return { R: E, r: o, w: ZERO, v: ZERO, al: ZERO, a: ZERO, dw: new Array<V3>(n).fill(ZERO), dv: new Array<V3>(n).fill(ZERO) };
  const m = all[b];
  const rho = mulMV(m.R, o);
  const r = add(m.r, rho);
  const on = path(t, b);
  const dw: V3[] = [],
    dv: V3[] = [];
  for (let k = 0; k < n; k++) {
    if (!on.has(k)) {
      dw.push(ZERO);
      dv.push(ZERO);
    } else if (t.bodies[k].joint === 'prismatic') {
      dw.push(ZERO);
      dv.push(all[k].s);
    } else {
      dw.push(all[k].s);
      dv.push(cross(all[k].s, sub(r, all[k].r)));
    }
  }
  return {
    R: mulMM(m.R, E),
    r,
    w: m.w,
    v: add(m.v, cross(m.w, rho)),
    al: m.al,
    a: add(add(m.a, cross(m.al, rho)), cross(m.w, cross(m.w, rho))),
    dw,
    dv,
  };
}

/** a unit vector u fixed in a moving frame (world-resolved u, frame's w and al): u, du/dt, d2u/dt2 at qdd = 0 */
export function carried(u: V3, f: { w: V3; al: V3 }): [V3, V3, V3] {
  const du = cross(f.w, u);
  return [u, du, add(cross(f.al, u), cross(f.w, du))];
}
