// Joint limits and friction of a one-degree-of-freedom joint (URDF's
// <limit lower upper> and <dynamics friction>), as smooth-enough forces on
// the coordinate q that the joint's d'Alembert equation adds to its drive:
//
//   beyond a limit, a one-sided spring-damper (p = penetration):
//     p_u = max(0, q - upper),  p_l = max(0, lower - q)
//     tau_l = -c_l p_u + c_l p_l - d_l qd (step(q - upper) + step(lower - q))
//     V_l   = 1/2 c_l (p_u^2 + p_l^2)         (potential energy, energy.potential)
//   regularised Coulomb friction:
//     tau_f = -F tanh(qd / v_eps)
//
// step(x) = (1 + sign(x)) / 2. Inside the limits both limit terms are exactly
// zero; the spring force is continuous at the limit, the damper switches on
// there.
//
// Defaults, sized for the default RK4 step h = 1e-3 s and the joint's
// reference inertia I (kg m^2, or kg for a prismatic joint: the bodies beyond
// the joint about its axis at the start pose, set by the Mechanism builder,
// referenceInertia below; 1 when unknown):
//   c_l   = I omega^2,        omega = 0.3 / h = 300 rad/s
//   d_l   = 2 zeta omega I,   zeta = 0.5 (restitution exp(-zeta pi / sqrt(1 - zeta^2)) = 0.16)
//   v_eps = max(1e-3, F h / (0.3 I))
// Why RK4 stays stable: in contact the coordinate moves like I qdd = -c_l p
// - d_l qd, eigenvalues lambda = omega (-zeta +- i sqrt(1 - zeta^2)), so
// h |lambda| = 0.3, while RK4's stability region reaches |h lambda| = 2.6 in
// that direction (2.83 on the imaginary axis, 2.79 on the negative real
// axis): the default stays stable for an effective inertia down to I / 75
// (configuration, joints beyond it that turn freely). Near qd = 0 friction
// is a damper of rate F / (v_eps I) <= 0.3 / h, h |lambda| <= 0.3 likewise.
// The static deflection under a load tau is tau / c_l (a pendulum of
// gravity torque m g l on I = m l^2: g / (l omega^2), 1.1e-4 rad at l = 1 m);
// a joint held by friction below its level creeps at v_eps atanh(tau / F).
// With a larger step, or a stiffer limit, give limitStiffness, limitDamping
// and frictionVelocity.
import { type Expr, ONE, ZERO, add, max, mul, neg, pow, step, sub, tanh } from '../../expr/index.ts';
import { checkImpactOptions, impactLimits } from './impact-limits.ts';
import type { Component } from '../../model/index.ts';
import { ModelError } from '../../errors.ts';
import type { JointOptions } from './joint.ts';

/** the default step the defaults are sized for (s) */
export const REFERENCE_STEP = 1e-3;
/** omega h of the limit spring at the reference inertia */
export const LIMIT_OMEGA_STEP = 0.3;
/** damping ratio of the limit at the reference inertia */
export const LIMIT_DAMPING_RATIO = 0.5;
/** friction's damper rate F / (v_eps I) times h, at most */
export const FRICTION_RATE_STEP = 0.3;
/** the smallest default friction speed (rad/s or m/s) */
export const MIN_FRICTION_VELOCITY = 1e-3;

export interface LimitFriction {
  /** generalized force of the limits and friction */
  force: Expr;
  /** potential energy of the limit springs */
  potential: Expr;
}

/** the default parameters for reference inertia I */
export function limitDefaults(I: number, friction = 0): { stiffness: number; damping: number; frictionVelocity: number } {
  const omega = LIMIT_OMEGA_STEP / REFERENCE_STEP;
  return {
    stiffness: I * omega * omega,
    damping: 2 * LIMIT_DAMPING_RATIO * omega * I,
    frictionVelocity: Math.max(MIN_FRICTION_VELOCITY, (friction * REFERENCE_STEP) / (FRICTION_RATE_STEP * I)),
  };
}

// (joint, options, q, qd, reference inertia) => the limit and friction forces, their parameters declared on the joint
export function limitFriction(c: Component, o: JointOptions, q: Expr, qd: Expr, referenceInertia: number | undefined): LimitFriction {
  const I = referenceInertia !== undefined && referenceInertia > 0 && Number.isFinite(referenceInertia) ? referenceInertia : 1;
  const defaults = limitDefaults(I, o.friction ?? 0);
  const terms: Expr[] = [];
  let potential: Expr = ZERO;
  if (o.limits) {
    const lower = c.parameter('limit_lower', o.limits[0]),
      upper = c.parameter('limit_upper', o.limits[1]);
    const k = c.parameter('limit_c', o.limitStiffness ?? defaults.stiffness);
    const d = c.parameter('limit_d', o.limitDamping ?? defaults.damping);
    const pu = max(0, sub(q, upper)),
      pl = max(0, sub(lower, q));
    // hard limits: the spring-damper only where an impact has stopped the joint (impact-limits.ts)
    const [cu, cl] = o.limitKind === 'impact' ? impactLimits(c, o, q, qd, lower, upper) : [ONE, ONE];
    terms.push(mul(k, sub(mul(cl, pl), mul(cu, pu))), neg(mul(d, qd, add(mul(cu, step(sub(q, upper))), mul(cl, step(sub(lower, q)))))));
    potential = mul(0.5, k, add(mul(cu, pow(pu, 2)), mul(cl, pow(pl, 2))));
  }
  if (o.friction) {
    const F = c.parameter('friction', o.friction);
    const v = c.parameter('friction_v', o.frictionVelocity ?? defaults.frictionVelocity);
    terms.push(neg(mul(F, tanh(mul(qd, pow(v, -1))))));
  }
  return { force: add(...terms), potential };
}

/** limits, friction and their parameters as numbers a joint can use, else a ModelError naming the joint */
export function checkLimitOptions(name: string, o: JointOptions, hintSuffix = ''): void {
  const fail = (what: string, hint: string, variable: string) => {
    throw new ModelError(`joint ${name}: ${what}`, { component: name, variables: [`${name}.${variable}`], hint: hint + hintSuffix });
  };
  if (o.limits !== undefined) {
    const [lower, upper] = o.limits;
    if (!Number.isFinite(lower) || !Number.isFinite(upper))
      fail(`limits [${lower}, ${upper}] are not finite numbers`, 'give limits: [lower, upper] in rad (revolute) or m (prismatic)', 'limit_lower');
    if (lower > upper) fail(`lower limit ${lower} is above the upper limit ${upper}`, 'give limits: [lower, upper] with lower <= upper', 'limit_lower');
  }
  checkImpactOptions(o, fail);
  const nonNegative: [keyof JointOptions, string, string][] = [
    ['limitStiffness', 'limit_c', 'a stiffness in N m/rad (N/m), 0 or more'],
    ['limitDamping', 'limit_d', 'a damping in N m s/rad (N s/m), 0 or more'],
    ['friction', 'friction', 'a friction level in N m (N), 0 or more'],
  ];
  for (const [key, variable, hint] of nonNegative) {
    const v = o[key] as number | undefined;
    if (v !== undefined && !(v >= 0 && Number.isFinite(v))) fail(`${key} ${v} is not a finite number >= 0`, `give ${hint}`, variable);
  }
  if (o.frictionVelocity !== undefined && !(o.frictionVelocity > 0 && Number.isFinite(o.frictionVelocity))) {
    fail(`frictionVelocity ${o.frictionVelocity} is not a finite number > 0`, 'give the friction regularisation speed in rad/s (m/s), above 0', 'friction_v');
  }
  if ((o.limitStiffness !== undefined || o.limitDamping !== undefined) && o.limits === undefined) {
    fail('limitStiffness or limitDamping without limits', 'give limits: [lower, upper] too', 'limit_c');
  }
}
