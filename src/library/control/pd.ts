// PD control of one joint coordinate (a revolute's angle, a prismatic's
// displacement): the joint's drive input becomes
//   tau = kp (q_ref - q) + kd (qd_ref - qd)
// written as an equation for the input, which the compiler then treats as an
// unknown (structure/defined-inputs.ts) — the controller is part of the model
// and is compiled with it, torn or relaxed.
// q_ref is an expression: of `time` for a trajectory (then qd_ref defaults to
// its symbolic time derivative), or of other signals of the model (then
// qd_ref defaults to 0: D acts on the joint speed alone; give it if known).
import { type Ex, type Expr, add, diff, ex, mul, sub } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { Component, TIME, time, variableOf, variablesIn } from '../../model/index.ts';

/** what a PD acts on: a coordinate, its speed and its drive input (a OneDofJoint is one) */
export interface Actuated {
  /** the coordinate */
  readonly q: Expr;
  /** its speed */
  readonly qd: Expr;
  /** its drive input */
  readonly tau: Expr;
}

/** the gains and reference of a PD controller */
export interface PDOptions {
  /** proportional gain (N m / rad, or N / m), >= 0 */
  kp: number;
  /** derivative gain (N m s / rad, or N s / m), >= 0 */
  kd: number;
  /** the reference q_ref: a number, an expression of `time` or of other signals, or a function of time (default 0) */
  ref?: Ex | ((t: Expr) => Ex);
  /** the reference speed qd_ref (default: d q_ref / dt when q_ref depends on time alone, else 0) */
  refSpeed?: Ex;
  /** a feed-forward torque added to the PD law (e.g. gravity compensation), an expression (default 0) */
  feedForward?: Ex;
}

/** a PD law on one joint: its drive becomes tau = kp (q_ref - q) + kd (qd_ref - qd) + feed-forward */
export class PD extends Component {
  /** the reference, tracking error q_ref - q and the commanded drive, as signals <name>.ref, <name>.e, <name>.tau */
  readonly ref: Expr;
  /** the tracking error: reference minus q */
  readonly e: Expr;
  /** the torque it commands */
  readonly tau: Expr;

  constructor(name: string, joint: Actuated, options: PDOptions) {
    super(name);
    const input = variableOf(joint.tau);
    if (input?.kind !== 'input') {
      throw new ModelError(`PD ${name} acts on ${input?.name ?? 'an expression'}, which is not a drive input`, {
        component: name,
        variables: input ? [input.name] : [],
        hint: 'give it a joint (a Revolute or Prismatic: its tau is the drive input), or { q, qd, tau } with tau an input',
      });
    }
    this.checkParameters((k) => (k === 'kp' ? options.kp : options.kd));
    const kp = this.parameter('kp', options.kp),
      kd = this.parameter('kd', options.kd);
    const reference = ex(typeof options.ref === 'function' ? options.ref(time) : (options.ref ?? 0));
    const speed = options.refSpeed ?? (ofTimeAlone(reference) ? diff(reference, TIME) : 0);
    this.ref = this.variable('ref');
    this.e = this.variable('e');
    this.tau = this.variable('tau');
    this.equation(this.ref, reference);
    this.equation(this.e, sub(this.ref, joint.q));
    this.equation(this.tau, add(mul(kp, this.e), mul(kd, sub(speed, joint.qd)), options.feedForward ?? 0));
    // the equation that turns the joint's input into an unknown
    this.equation(joint.tau, this.tau);
  }

  override checkParameters(value: (localName: string) => number): void {
    for (const k of ['kp', 'kd']) {
      if (value(k) < 0) {
        throw new ModelError(`PD ${this.path}: gain ${k} = ${value(k)} is negative`, {
          component: this.path,
          variables: [`${this.path}.${k}`],
          hint: 'PD gains are >= 0 (a negative gain pushes the joint away from its reference)',
        });
      }
    }
  }
}

/** the expression holds no variable other than time and parameters: its symbolic d/dt is its rate */
function ofTimeAlone(e: Expr): boolean {
  return [...variablesIn(e).values()].every((v) => v.kind === 'time' || v.kind === 'parameter');
}
