// A fixed tendon (MuJoCo's <tendon><fixed>): a length that is a linear
// combination of one-degree-of-freedom joints' coordinates, with a spring,
// a damper and limits along it, its force shared out to the joints by the
// same coefficients (the tendon's Jacobian is constant, so the generalized
// forces are J^T F):
//   L  = sum c_i q_i           Ld = sum c_i qd_i
//   F  = -stiffness (L - L0) - damping Ld + limit force (limits.ts on L, Ld)
//   tau_i += c_i F             V = 1/2 stiffness (L - L0)^2 + the limit springs
// Signals <name>.L, <name>.Ld, <name>.F. The limit law and its defaults are
// the joints' (limits.ts), sized for the tendon's reference inertia
// 1 / sum (c_i^2 / I_i) from the joints' reference inertias (the inertia the
// tendon's length sees when the joints do not couple), set when the model is
// elaborated.
import { type Expr, ZERO, add, mul, neg, pow, sub } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { Component } from '../../model/index.ts';
import { OneDofJoint, type StoredEnergy } from './joint.ts';
import { type LimitFriction, checkLimitOptions, limitFriction } from './limits.ts';

/** a fixed tendon: a linear combination of joint coordinates, with a spring, damper and limits */
export interface FixedTendonOptions {
  /** the joints and their coefficients */
  joints: readonly {
    /** a joint whose coordinate is in L */
    joint: OneDofJoint;
    /** its coefficient in L = Σ coef q */
    coef: number;
  }[];
  /** the spring's stiffness on L */
  stiffness?: number;
  /** the spring's rest length L0 (default 0) */
  restLength?: number;
  /** damping on the rate Ld */
  damping?: number;
  /** limits [lower, upper] on L (limits.ts' spring-damper law) */
  limits?: readonly [number, number];
}

export class FixedTendon extends Component {
  /** the tendon's length: sum of coef q over its joints */
  readonly L: Expr;
  /** its rate: sum of coef qd */
  readonly Ld: Expr;
  /** its force, applied to each joint as coef F */
  readonly F: Expr;
  private readonly options: FixedTendonOptions;
  private spring: Expr = ZERO;
  private limit: LimitFriction | undefined;

  constructor(name: string, options: FixedTendonOptions) {
    super(name);
    if (!options.joints.length)
      throw new ModelError(`tendon ${name} has no joints`, { component: name, hint: 'give the joints it couples with their coefficients' });
    checkLimitOptions(name, { limits: options.limits });
    this.options = options;
    this.L = this.variable('L');
    this.Ld = this.variable('Ld');
    this.F = this.variable('F');
    this.equation(this.L, add(...options.joints.map(({ joint, coef }) => mul(coef, joint.q))));
    this.equation(this.Ld, add(...options.joints.map(({ joint, coef }) => mul(coef, joint.qd))));
    for (const { joint, coef } of options.joints) {
      joint.applyForce(mul(coef, this.F));
      if (options.limits) joint.inLimitedTendon = true;
    }
  }

  /** the force law, after the joints' reference inertias are set (they size the limit's defaults) */
  override elaborate(): void {
    if (this.limit) return;
    const o = this.options,
      terms: Expr[] = [];
    if (o.stiffness) {
      const k = this.parameter('c', o.stiffness),
        stretch = sub(this.L, this.parameter('L0', o.restLength ?? 0));
      terms.push(neg(mul(k, stretch)));
      this.spring = mul(0.5, k, pow(stretch, 2));
    }
    if (o.damping) terms.push(neg(mul(this.parameter('d', o.damping), this.Ld)));
    const compliance = o.joints.reduce((s, { joint, coef }) => s + (coef * coef) / (joint.referenceInertia ?? 1), 0);
    this.limit = limitFriction(this, { limits: o.limits }, this.L, this.Ld, compliance > 0 ? 1 / compliance : undefined);
    this.equation(this.F, add(...terms, this.limit.force));
  }

  /** the spring's and limits' potential energy (energy.ts), after elaboration */
  get storedEnergy(): StoredEnergy {
    return { kinetic: ZERO, potential: add(this.spring, this.limit?.potential ?? ZERO) };
  }
}
