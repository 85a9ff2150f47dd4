// Computed-torque control of one joint coordinate, by the compiler: instead of
// a torque law, the model states the acceleration the joint shall have,
//   qdd = qdd_ref + kp (q_ref - q) + kd (qd_ref - qd)
// and the joint's drive input becomes the unknown that achieves it. Sorting
// then solves the multibody equations for the torques — the inverse dynamics
// tau = M(q) qdd + h(q, qd) of the whole arm falls out of the same equations,
// no M or h formed by hand (DESIGN.md, "Problems, not just forward dynamics").
// With every joint so controlled the error obeys e'' + kd e' + kp e = 0
// exactly (a perfect model; a real arm's model would differ from the plant).
// q_ref is an expression of `time` (qd_ref, qdd_ref its symbolic derivatives)
// or of other signals (then give refSpeed and refAcceleration, default 0).
import { type Ex, type Expr, add, diff, ex, mul, sub } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { Component, TIME, time, variableOf, variablesIn } from '../../model/index.ts';
import type { Actuated } from './pd.ts';

/** the gains and reference of a computed-torque controller */
export interface ComputedTorqueOptions {
  /** stiffness of the error dynamics (1/s^2), >= 0 */
  kp: number;
  /** damping of the error dynamics (1/s), >= 0 */
  kd: number;
  /** the reference q_ref: a number, an expression, or a function of time (default 0) */
  ref?: Ex | ((t: Expr) => Ex);
  /** qd_ref (default: d q_ref / dt when q_ref depends on time alone, else 0) */
  refSpeed?: Ex;
  /** qdd_ref (default: d qd_ref / dt when qd_ref depends on time alone, else 0) */
  refAcceleration?: Ex;
}

export class ComputedTorque extends Component {
  /** the reference and tracking error q_ref - q, as signals <name>.ref, <name>.e */
  readonly ref: Expr;
  /** the tracking error: reference minus q */
  readonly e: Expr;

  constructor(
    name: string,
    joint: Actuated & {
      /** the joint's acceleration, which the control law states */
      readonly qdd: Expr;
    },
    options: ComputedTorqueOptions,
  ) {
    super(name);
    const input = variableOf(joint.tau);
    if (input?.kind !== 'input') {
      throw new ModelError(`ComputedTorque ${name} acts on ${input?.name ?? 'an expression'}, which is not a drive input`, {
        component: name,
        variables: input ? [input.name] : [],
        hint: 'give it a joint (a Revolute or Prismatic: its tau is the drive input)',
      });
    }
    for (const k of ['kp', 'kd'] as const) {
      if (options[k] < 0) throw new ModelError(`ComputedTorque ${name}: gain ${k} = ${options[k]} is negative`, { component: name, hint: 'gains are >= 0' });
    }
    const kp = this.parameter('kp', options.kp),
      kd = this.parameter('kd', options.kd);
    const reference = ex(typeof options.ref === 'function' ? options.ref(time) : (options.ref ?? 0));
    const speed = ex(options.refSpeed ?? (ofTimeAlone(reference) ? diff(reference, TIME) : 0));
    const acceleration = options.refAcceleration ?? (ofTimeAlone(speed) ? diff(speed, TIME) : 0);
    this.ref = this.variable('ref');
    this.e = this.variable('e');
    this.equation(this.ref, reference);
    this.equation(this.e, sub(this.ref, joint.q));
    // the acceleration demanded of the joint: its equation defines the drive input (structure/defined-inputs.ts)
    this.equation(joint.qdd, add(acceleration, mul(kp, this.e), mul(kd, sub(speed, joint.qd))));
  }
}

/** the expression holds no variable other than time and parameters: its symbolic d/dt is its rate */
function ofTimeAlone(e: Expr): boolean {
  return [...variablesIn(e).values()].every((v) => v.kind === 'time' || v.kind === 'parameter');
}
