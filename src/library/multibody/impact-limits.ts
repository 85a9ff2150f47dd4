// Hard joint limits (JointOptions limitKind 'impact'): each limit is a pair
// of events on the coordinate q and a contact mode (Component.mode, 0 free,
// 1 held):
//
//   impact (free, q reaches the limit moving outward: q - upper rising,
//     lower - q rising):  qd := -e pre(qd)  when |pre(qd)| >= v_rest,
//                         else qd := 0 and contact := 1
//   leave (held, q moves back inside by more than LEAVE_MARGIN):  contact := 0
//
// While held, the limit's spring-damper (limits.ts, acting beyond the limit
// only) carries the joint: it rests beyond the limit by its static
// deflection tau / c_l, and a joint released at the limit with qd = 0 stays
// beyond it (a spring-damper's step response does not undershoot its start).
// While free the spring-damper is off, so nothing acts between a rebound and
// the next crossing but the model's own forces. The rest speed ends the
// infinitely many ever smaller bounces of a joint that gravity holds
// against its limit (a Zeno point, which the event guard would stop, sim/events.ts):
// with v_rest = 1e-3 and restitution 0.5 a rebound of 1 rad/s ends after
// ten bounces.
//
// What this does not do: a held joint is not locked (it rests in the
// spring-damper, as with limitKind 'spring'), and the impact changes only
// this joint's speed, as an impulse on this coordinate alone would (the
// other coordinates' speeds are kept, not changed by the coupling through
// the mass matrix).
import { type Expr, ONE, abs, add, mul, step, sub } from '../../expr/index.ts';
import type { Component } from '../../model/index.ts';
import type { JointOptions } from './joint.ts';

/** the default coefficient of restitution */
export const DEFAULT_RESTITUTION = 0.5;
/** the default speed (rad/s or m/s) below which an impact stops the joint at its limit */
export const DEFAULT_REST_VELOCITY = 1e-3;
/** how far (rad or m) a held joint moves back inside before it is free again: above the location's rounding */
export const LEAVE_MARGIN = 1e-9;

// (joint, options, q, qd, lower, upper) => the contact modes [upper, lower], the events declared on the joint
export function impactLimits(c: Component, o: JointOptions, q: Expr, qd: Expr, lower: Expr, upper: Expr): [Expr, Expr] {
  const e = c.parameter('restitution', o.restitution ?? DEFAULT_RESTITUTION);
  const vr = c.parameter('rest_velocity', o.restVelocity ?? DEFAULT_REST_VELOCITY);
  const modes: Expr[] = [];
  for (const [side, beyond] of [
    ['upper', sub(q, upper)],
    ['lower', sub(lower, q)],
  ] as const) {
    const held = c.mode(`limit_contact_${side}`, 0);
    const free = sub(ONE, held);
    // 1 for a rebound, 0 for an impact slower than the rest speed
    const rebound = step(sub(abs(qd), vr));
    c.when(`limit_${side}`, sub(mul(free, beyond), held), {
      direction: 'rising',
      reinit: [[qd, mul(-1, e, qd, rebound)]],
      set: [[held, sub(ONE, rebound)]],
    });
    c.when(`limit_${side}_leave`, add(mul(held, add(beyond, LEAVE_MARGIN)), free), { direction: 'falling', set: [[held, 0]] });
    modes.push(held);
  }
  return [modes[0], modes[1]];
}

/** restitution and rest speed as numbers the impact limits can use, else fail(what, hint, variable) */
export function checkImpactOptions(o: JointOptions, fail: (what: string, hint: string, variable: string) => never): void {
  if (o.limitKind !== undefined && o.limitKind !== 'spring' && o.limitKind !== 'impact')
    fail(`limitKind "${o.limitKind}" is not known`, "use limitKind: 'spring' (the default) or 'impact'", 'limit_lower');
  const impact = o.limitKind === 'impact';
  if ((o.restitution !== undefined || o.restVelocity !== undefined) && !impact)
    fail("restitution or restVelocity without limitKind: 'impact'", "give limitKind: 'impact' (and limits: [lower, upper])", 'restitution');
  if (impact && o.limits === undefined) fail("limitKind 'impact' without limits", 'give limits: [lower, upper] too', 'limit_lower');
  if (o.restitution !== undefined && !(o.restitution >= 0 && o.restitution <= 1))
    fail(`restitution ${o.restitution} is not in [0, 1]`, 'give the coefficient of restitution e: 0 (no rebound) to 1 (elastic)', 'restitution');
  if (o.restVelocity !== undefined && !(o.restVelocity >= 0 && Number.isFinite(o.restVelocity)))
    fail(`restVelocity ${o.restVelocity} is not a finite number >= 0`, 'give a speed in rad/s (m/s), 0 or more', 'rest_velocity');
}
