// An actuator with an affine gain and bias on its transmission's length and
// velocity (MuJoCo's <general> with dyntype none; the motor, position servo,
// velocity servo and damper are special cases):
//   u     = clamp(ctrl, ctrlRange)                       (when given)
//   force = clamp((g0 + g1 L + g2 V) u + b0 + b1 L + b2 V, forceRange)
// ctrl is an input (start value options.ctrl); L and V are expressions of the
// transmission (a joint's gear q and gear qd, a tendon's length), given by
// whoever connects it. The force is the signal <name>.force; the connector
// applies moment * force to each joint it drives (OneDofJoint.applyForce).
// With activation dynamics (MuJoCo's dyntype, engine_forward.c
// mj_fwdActuation) the force follows a state act in place of u:
//   integrator  der(act) = u
//   filter      der(act) = (u - act) / tau     (filterexact: the same ODE)
//   range       der(act) projected to 0 where it would leave [lower, upper],
//               and the force made of act clamped to it: MuJoCo clamps act
//               after each step (mj_nextActivation), the continuous
//               equivalent of which is the projection (act stops within the
//               solver step that crosses the bound)
// act is a state of the component that holds ctrl (<owner>.act).
import { type Expr, ZERO, add, div, max, min, mul, step, sub } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { Component, der } from '../../model/index.ts';

/** a general actuator (MuJoCo's): transmission, gain, bias, ranges and activation */
export interface ActuatorOptions {
  /** the transmission's length L and velocity V */
  length: Expr;
  /** the transmission's velocity V */
  velocity: Expr;
  /** coefficients of (1, L, V) in the gain and in the bias */
  gain: readonly [number, number, number];
  /** the bias's coefficients of (1, L, V) */
  bias?: readonly [number, number, number];
  /** [lower, upper] the control is clamped to, and the force */
  ctrlRange?: readonly [number, number];
  /** [lower, upper] the force is clamped to */
  forceRange?: readonly [number, number];
  /** the start value of the input ctrl */
  ctrl?: number;
  /**
   * the component that holds the input ctrl (default the actuator itself):
   * MJCF names an actuator after its joint, whose component then holds it as
   * <joint>.ctrl (mjcf-actuators.ts)
   */
  ctrlOwner?: Component;
  /** activation dynamics: the force follows the state act (start value act) */
  activation?: ActivationOptions;
}

export interface ActivationOptions {
  type: 'integrator' | 'filter';
  /** the filter's time constant (s) */
  tau?: number;
  /** [lower, upper] act stays in */
  range?: readonly [number, number];
  act?: number;
}

export class Actuator extends Component {
  /** the control input <name>.ctrl */
  readonly ctrl: Expr;
  /** the actuator force: gain * ctrl (or act) + bias, clamped */
  readonly force: Expr;

  constructor(name: string, options: ActuatorOptions) {
    super(name);
    for (const key of ['ctrlRange', 'forceRange'] as const) {
      const r = options[key];
      if (r && !(r[0] <= r[1] && r.every(Number.isFinite))) {
        throw new ModelError(`actuator ${name}: ${key} [${r.join(', ')}] is not [lower, upper] with lower <= upper`, {
          component: name,
          hint: `give ${key}: [lower, upper]`,
        });
      }
    }
    this.ctrl = (options.ctrlOwner ?? this).input('ctrl', options.ctrl ?? 0);
    const { length: L, velocity: V } = options;
    const affine = (prefix: string, c: readonly number[]): Expr =>
      add(...c.map((v, i) => (v === 0 ? ZERO : mul(this.parameter(`${prefix}[${i + 1}]`, v), [1, L, V][i]))));
    const u = this.clamp(this.ctrl, 'ctrl', options.ctrlRange);
    const input = options.activation ? this.activation(options.ctrlOwner ?? this, u, options.activation) : u;
    const raw = add(mul(affine('gain', options.gain), input), affine('bias', options.bias ?? [0, 0, 0]));
    this.force = this.variable('force');
    this.equation(this.force, this.clamp(raw, 'force', options.forceRange));
  }

  /** the state act and its dynamics; returns what the force is made of (act, clamped to its range) */
  private activation(owner: Component, u: Expr, a: ActivationOptions): Expr {
    if (a.type === 'filter' && !((a.tau ?? 0) >= 0 && Number.isFinite(a.tau ?? 0))) {
      throw new ModelError(`actuator ${this.localName}: the filter's time constant ${a.tau} is not a number >= 0`, {
        component: this.localName,
        hint: "give tau in s (MuJoCo's dynprm[0])",
      });
    }
    const act = owner.variable('act', { start: a.act ?? 0 });
    // MuJoCo's tau = max(mjMINVAL, dynprm[0])
    const rate = a.type === 'integrator' ? u : div(sub(u, act), this.parameter('tau', Math.max(1e-15, a.tau ?? 0)));
    if (!a.range) {
      this.equation(der(act), rate);
      return act;
    }
    const [lo, hi] = [this.parameter('act_lower', a.range[0]), this.parameter('act_upper', a.range[1])];
    this.equation(der(act), sub(rate, add(mul(step(sub(act, hi)), max(rate, 0)), mul(step(sub(lo, act)), min(rate, 0)))));
    return max(lo, min(hi, act));
  }

  private clamp(x: Expr, what: string, range: readonly [number, number] | undefined): Expr {
    if (!range) return x;
    return max(this.parameter(`${what}_lower`, range[0]), min(this.parameter(`${what}_upper`, range[1]), x));
  }
}
