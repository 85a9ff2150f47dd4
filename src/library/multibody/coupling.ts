// A coupling of two one-coordinate joints (MJCF's joint equality): joint1's
// coordinate y follows joint2's x by a polynomial,
//   g = (y - y0) - P(u) = 0,   u = x - x0,   P(u) = c0 + c1 u + ... + c4 u^4
// (without joint2, y = y0 + c0). Like a cut joint (cut.ts, tearing paper
// eqs. 2b-2d) it is a constraint on position, velocity and acceleration
// level, each a residue equation:
//   residue(0) = g
//   residue(0) = yd - P'(u) xd
//   residue(lambda) = ydd - P''(u) xd^2 - P'(u) xdd
// and its constraint force is the gradient of g: lambda on joint1's
// coordinate, -P'(u) lambda on joint2's (OneDofJoint.applyForce), so
// it does no work. The builder makes joint1 a joint the coupling determines
// (topology.ts): its q, qd are the tearing variables of the position and
// velocity levels, as a loop's rest joints' are.
import { type Expr, ZERO, add, mul, pow, residue, sub } from '../../expr/index.ts';
import { Component } from '../../model/index.ts';
import { ModelError } from '../../errors.ts';
import type { OneDofJoint } from './joint.ts';

/** a coupling's polynomial P and its zero points: joint1's y - y0 = P(joint2's x - x0) */
export interface CouplingOptions {
  /** joint1's coordinate where P(u) = 0 (default 0) */
  y0?: number;
  /** joint2's coordinate where u = 0 (default 0) */
  x0?: number;
  /** c0..c4 of P (default [0, 1]: y - y0 = x - x0) */
  coefficients?: readonly number[];
}

export class Coupling extends Component {
  /** the constraint force: a tearing variable of the acceleration level */
  readonly lambda: Expr;

  constructor(
    name: string,
    /** the joint whose coordinate y follows: y - y0 = P(x - x0) */
    readonly joint1: OneDofJoint,
    /** the joint whose coordinate x it follows; undefined: y = y0 + c0 */
    readonly joint2: OneDofJoint | undefined,
    options: CouplingOptions = {},
  ) {
    super(name);
    const c = options.coefficients ?? [0, 1];
    if (c.length > 5 || !c.every(Number.isFinite)) {
      throw new ModelError(`coupling ${name}: coefficients [${c.join(', ')}] are not at most five finite numbers`, {
        component: name,
        hint: 'give c0..c4 of y - y0 = c0 + c1 u + ... + c4 u^4',
      });
    }
    if (joint1 === joint2)
      throw new ModelError(`coupling ${name} couples joint ${joint1.path} to itself`, { component: name, hint: 'couple two different joints' });
    this.lambda = this.variable('fc');
    // five coefficients, the missing ones 0 (a zero parameter folds away)
    const given = [0, 1, 2, 3, 4].map((i) => c[i] ?? 0);
    const x = joint2?.q ?? ZERO,
      xd = joint2?.qd ?? ZERO,
      xdd = joint2?.qdd ?? ZERO;
    const u = sub(x, this.parameter('x0', options.x0 ?? 0));
    const coef = given.map((v, i) => this.parameter(`c${i}`, v));
    // P, P' and P'' as sums of powers of u
    const P = add(...coef.map((k, i) => (i === 0 ? k : mul(k, pow(u, i)))));
    const dP = add(...coef.slice(1).map((k, i) => mul(i + 1, k, i === 0 ? 1 : pow(u, i))));
    const ddP = add(...coef.slice(2).map((k, i) => mul((i + 2) * (i + 1), k, i === 0 ? 1 : pow(u, i))));
    this.equation(sub(sub(joint1.q, this.parameter('y0', options.y0 ?? 0)), P), residue(ZERO));
    this.equation(sub(joint1.qd, mul(dP, xd)), residue(ZERO));
    this.equation(sub(sub(joint1.qdd, mul(ddP, pow(xd, 2))), mul(dP, xdd)), residue(this.lambda));
    joint1.applyForce(this.lambda);
    joint2?.applyForce(mul(-1, dP, this.lambda));
  }
}
