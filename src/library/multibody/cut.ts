// Cut joints (tearing paper, "Mechanical systems with kinematic loops"): a
// joint that closes a loop is replaced by its constraint forces fc, and its
// constraints on position, velocity and acceleration level (eqs. 2b, 2c, 2d)
// become residue equations:
//   residue(dummyq) = r_rel    residue(dummyqd) = v_rel    residue(fc) = a_rel
// dummyq, dummyqd are constants (here residue(0)): those equations are residue
// equations without a tearing variable of their own; the tearing variables
// of the position and velocity loops are the q, qd of the tree joints.
//
// Every constraint is written with its two time derivatives, all vectors
// world-resolved, d = r_b - r_a:
//   translation along u fixed in frame a:  u . d = 0
//     velocity      (w_a x u) . d + u . (v_b - v_a)
//     acceleration  (z_a x u + w_a x (w_a x u)) . d + 2 (w_a x u) . (v_b - v_a) + u . (a_b - a_a)
//   (u fixed in the world: the w_a, z_a terms vanish)
//   orientation, u fixed in frame a, e fixed in frame b:  u . e = c
//     velocity      (w_a - w_b) . (u x e)
//     acceleration  (z_a - z_b) . (u x e) + (w_a - w_b) . ((w_a x u) x e + u x (w_b x e))
// The constraint force of a translation acts along u, the constraint torque
// of an orientation constraint along u x e: each is the gradient of its
// constraint, so the constraint forces do no work (eq. 2a's G^T fc).
import { type Expr, type Vec3, ZERO, add, cross, dot, mul, mulMV, residue, sub, vadd, vec3, vscale, vsub } from '../../expr/index.ts';
import type { Component } from '../../model/index.ts';
import type { Frame } from './frame.ts';
import { cutBalance } from './kinematics.ts';

export interface Constraint {
  position: Expr;
  velocity: Expr;
  acceleration: Expr;
  /** direction of its constraint force on frame_b (translations) */
  force?: Vec3;
  /** direction of its constraint torque on frame_b (orientations) */
  torque?: Vec3;
}

/** u . (r_b - r_a) = 0; u world-resolved, fixed in frame a unless `inWorld` */
export function translation(fa: Frame, fb: Frame, u: Vec3, inWorld = false): Constraint {
  const d = vsub(fb.r, fa.r),
    vrel = vsub(fb.v, fa.v),
    arel = vsub(fb.a, fa.a);
  if (inWorld) return { position: dot(u, d), velocity: dot(u, vrel), acceleration: dot(u, arel), force: u };
  const du = cross(fa.w, u);
  const ddu = vadd(cross(fa.z, u), cross(fa.w, du));
  return {
    position: dot(u, d),
    velocity: add(dot(du, d), dot(u, vrel)),
    acceleration: add(dot(ddu, d), mul(2, dot(du, vrel)), dot(u, arel)),
    force: u,
  };
}

/** u . e = c with u fixed in frame a and e fixed in frame b (both world-resolved) */
export function orientation(fa: Frame, fb: Frame, u: Vec3, e: Vec3, c: number): Constraint {
  const n = cross(u, e);
  const wrel = vsub(fa.w, fb.w);
  const dn = vadd(cross(cross(fa.w, u), e), cross(u, cross(fb.w, e)));
  return {
    position: sub(dot(u, e), c),
    velocity: dot(wrel, n),
    acceleration: add(dot(vsub(fa.z, fb.z), n), dot(wrel, dn)),
    torque: n,
  };
}

/** a force and torque applied on frame_b besides the constraint forces (a cut joint's drive) */
export interface Applied {
  force?: Vec3;
  torque?: Vec3;
}

/**
 * The cut joint's equations: one constraint force fc[i] per constraint as
 * tearing variable of the acceleration loop, the three residue equations
 * per constraint, and the force balance of the massless joint with an
 * applied torque (a drive on a cut revolute) or force (on a cut prismatic).
 */
export function closeLoop(c: Component, fa: Frame, fb: Frame, constraints: readonly Constraint[], applied: Applied = {}): Expr[] {
  let f: Vec3 = applied.force ?? vec3(0, 0, 0),
    t: Vec3 = applied.torque ?? vec3(0, 0, 0);
  const fc = constraints.map((k, i) => {
    const lambda = c.variable(`fc[${i + 1}]`);
    c.equation(k.position, residue(ZERO));
    c.equation(k.velocity, residue(ZERO));
    c.equation(k.acceleration, residue(lambda));
    if (k.force) f = vadd(f, vscale(lambda, k.force));
    if (k.torque) t = vadd(t, vscale(lambda, k.torque));
    return lambda;
  });
  c.vectorEquation(fb.f, f);
  c.vectorEquation(fb.t, t);
  cutBalance(c, fa, fb, vsub(fb.r, fa.r));
  return fc;
}

/** the three world directions: a spherical joint's translations */
export const WORLD_AXES: readonly Vec3[] = [vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1)];

/**
 * The two unit directions normal to the unit vector p and to each other (numbers).
 */
export function planeDirections(p: readonly number[]): [number[], number[]] {
  const a = Math.abs(p[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = a[0] * p[0] + a[1] * p[1] + a[2] * p[2];
  const u = [a[0] - d * p[0], a[1] - d * p[1], a[2] - d * p[2]];
  const k = Math.hypot(u[0], u[1], u[2]);
  const u1 = [u[0] / k, u[1] / k, u[2] / k];
  return [u1, [p[1] * u1[2] - p[2] * u1[1], p[2] * u1[0] - p[0] * u1[2], p[0] * u1[1] - p[1] * u1[0]]];
}

/**
 * A point cut's constraints in a planar loop: the translations along the two
 * directions normal to p (frame_a coordinates), the plane's normal. The
 * translation along p is implied: every joint of the loop moves its frames
 * in the planes normal to p, so it keeps the value it has at the start
 * (checked there: topology.ts), and a third constraint would make the torn
 * position Jacobian singular. The directions are fixed in the world when the
 * plane is (relaxing then pivots on constant coefficients), else they turn
 * with frame_a.
 */
export function inPlane(fa: Frame, fb: Frame, p: readonly number[], inWorld: boolean): Constraint[] {
  return planeDirections(p).map((u) => {
    const local = vec3(u[0], u[1], u[2]);
    return translation(fa, fb, inWorld ? local : mulMV(fa.R, local), inWorld);
  });
}
