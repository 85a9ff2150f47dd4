// An actuator with an affine gain and bias on its transmission's length and
// velocity (MuJoCo's <general> with dyntype none; the motor, position servo,
// velocity servo and damper are special cases):
//   u     = clamp(ctrl, ctrlRange)                       (when given)
//   force = clamp((g0 + g1 L + g2 V) u + b0 + b1 L + b2 V, forceRange)
// ctrl is an input (start value options.ctrl); L and V are expressions of the
// transmission (a joint's gear q and gear qd, a tendon's length), given by
// whoever connects it. The force is the signal <name>.force; the connector
// applies moment * force to each joint it drives (OneDofJoint.applyForce).
import { type Expr, ZERO, add, max, min, mul } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { Component } from '../../model/index.ts';

export interface ActuatorOptions {
  /** the transmission's length L and velocity V */
  length: Expr;
  velocity: Expr;
  /** coefficients of (1, L, V) in the gain and in the bias */
  gain: readonly [number, number, number];
  bias?: readonly [number, number, number];
  /** [lower, upper] the control is clamped to, and the force */
  ctrlRange?: readonly [number, number];
  forceRange?: readonly [number, number];
  /** the start value of the input ctrl */
  ctrl?: number;
  /**
   * the component that holds the input ctrl (default the actuator itself):
   * MJCF names an actuator after its joint, whose component then holds it as
   * <joint>.ctrl (mjcf-actuators.ts)
   */
  ctrlOwner?: Component;
}

export class Actuator extends Component {
  readonly ctrl: Expr;
  readonly force: Expr;

  constructor(name: string, options: ActuatorOptions) {
    super(name);
    for (const key of ['ctrlRange', 'forceRange'] as const) {
      const r = options[key];
      if (r && !(r[0] <= r[1] && r.every(Number.isFinite))) {
        throw new ModelError(`actuator ${name}: ${key} [${r.join(', ')}] is not [lower, upper] with lower <= upper`, { component: name, hint: `give ${key}: [lower, upper]` });
      }
    }
    this.ctrl = (options.ctrlOwner ?? this).input('ctrl', options.ctrl ?? 0);
    const { length: L, velocity: V } = options;
    const affine = (prefix: string, c: readonly number[]): Expr =>
      add(...c.map((v, i) => (v === 0 ? ZERO : mul(this.parameter(`${prefix}[${i + 1}]`, v), [1, L, V][i]))));
    const u = this.clamp(this.ctrl, 'ctrl', options.ctrlRange);
    const raw = add(mul(affine('gain', options.gain), u), affine('bias', options.bias ?? [0, 0, 0]));
    this.force = this.variable('force');
    this.equation(this.force, this.clamp(raw, 'force', options.forceRange));
  }

  private clamp(x: Expr, what: string, range: readonly [number, number] | undefined): Expr {
    if (!range) return x;
    return max(this.parameter(`${what}_lower`, range[0]), min(this.parameter(`${what}_upper`, range[1]), x));
  }
}
