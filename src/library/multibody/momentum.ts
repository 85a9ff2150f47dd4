// The signals people check a free body with, on every mechanism: its momentum
// (momentum.linear, momentum.angular) and its centre of mass (com.r, com.v,
// com.m), all world-resolved, angular momentum about the world origin.
//   r_c = r_a + R r_cm,   v_c = v_a + w x (R r_cm)     (each body's centre of mass)
//   p   = sum m v_c                                    momentum.linear  (kg m/s)
//   L   = sum r_c x m v_c + I_w w,  I_w = R I R^T      momentum.angular (kg m^2/s)
//   M   = sum m,  com.r = sum m r_c / M,  com.v = p / M
// Read from each Body's frame_a signals and its parameters m, r_cm, I (so
// --set values count). Like energy.ts, no state derivative reads them: they
// are computed in the outputs pass only (structure/needed.ts).
import { type Expr, type Vec3, add, cross, div, mat3, max, mulMV, vadd, vec3, vscale } from '../../expr/index.ts';
import { Component } from '../../model/index.ts';
import { ModelError } from '../../errors.ts';
import type { Body } from './body.ts';
import { worldInertia } from './world-inertia.ts';

/** the names of the components (their signals momentum.linear[i], momentum.angular[i]; com.r[i], com.v[i], com.m) */
export const MOMENTUM = 'momentum';
export const COM = 'com';

/**
 * The divisor of com.r and com.v is max(M, SMALLEST_MASS): a mechanism whose
 * bodies are all massless (M = 0, every m r_c and m v_c 0) has its centre of
 * mass at the world origin rather than 0/0. 1e-300, not Number.MIN_VALUE: its
 * reciprocal is finite too, so 0 stays 0 however the division is evaluated.
 */
const SMALLEST_MASS = 1e-300;

/** what momentum and the centre of mass read of one body */
interface BodyMotion {
  m: Expr;
  /** centre of mass, world */
  rc: Vec3;
  /** m v_c */
  p: Vec3;
  /** I_w w: the spin about the centre of mass */
  spin: Vec3;
}

export class Momentum extends Component {
  readonly linear: Vec3;
  readonly angular: Vec3;

  constructor(name: string, bodies: readonly Body[]) {
    super(name);
    this.linear = this.vector('linear');
    this.angular = this.vector('angular');
    const motions = bodies.map(motionOf);
    this.vectorEquation(this.linear, sum(motions.map((b) => b.p)));
    this.vectorEquation(this.angular, sum(motions.map((b) => vadd(cross(b.rc, b.p), b.spin))));
  }
}

export class CentreOfMass extends Component {
  readonly r: Vec3;
  readonly v: Vec3;
  /** total mass (kg) */
  readonly m: Expr;

  /** momentum: the mechanism's, whose linear momentum com.v reuses (one sum over the bodies less), if it has one */
  constructor(name: string, bodies: readonly Body[], momentum?: Momentum) {
    super(name);
    this.r = this.vector('r');
    this.v = this.vector('v');
    this.m = this.variable('m');
    const motions = bodies.map(motionOf);
    const M = add(...motions.map((b) => b.m));
    this.equation(this.m, M);
    const divisor = max(M, SMALLEST_MASS);
    const mean = (terms: Vec3[]): Vec3 => {
      const [x, y, z] = sum(terms);
      return vec3(div(x, divisor), div(y, divisor), div(z, divisor));
    };
    this.vectorEquation(this.r, mean(motions.map((b) => vscale(b.m, b.rc))));
    this.vectorEquation(this.v, mean(momentum ? [momentum.linear] : motions.map((b) => b.p)));
  }
}

/** component-wise sum of 3-vectors (the zero vector for none) */
function sum(terms: readonly Vec3[]): Vec3 {
  const component = (i: number) => add(...terms.map((t) => t[i]));
  return vec3(component(0), component(1), component(2));
}

/**
 * A body's mass, centre of mass, m v_c and I_w w from its frame_a and its
 * parameters, built as body.ts builds them: the same expressions, which the
 * generated code computes once where they fall in one function with the
 * energy's or the body's equations.
 */
function motionOf(b: Body): BodyMotion {
  const param = parameterOf(b);
  const m = param('m');
  const cm = vec3(param('r_cm[1]'), param('r_cm[2]'), param('r_cm[3]'));
  const I = (i: number, j: number) => param(`I[${Math.min(i, j)}][${Math.max(i, j)}]`);
  const fa = b.frame_a;
  const rcm = mulMV(fa.R, cm);
  const vc = vadd(fa.v, cross(fa.w, rcm));
  const { Iw } = worldInertia(
    fa.R,
    mat3([
      [I(1, 1), I(1, 2), I(1, 3)],
      [I(1, 2), I(2, 2), I(2, 3)],
      [I(1, 3), I(2, 3), I(3, 3)],
    ]),
    b.inertia,
  );
  return { m, rc: vadd(fa.r, rcm), p: vscale(m, vc), spin: mulMV(Iw, fa.w) };
}

/** the body's parameter by its local name (body.ts declares m, r_cm[i], I[i][j] with i <= j) */
function parameterOf(b: Body): (local: string) => Expr {
  return (local) => {
    const v = b.variables.find((x) => x.localName === local && x.kind === 'parameter');
    if (!v) {
      throw new ModelError(`body ${b.path} has no parameter ${local} for the momentum and centre-of-mass signals`, {
        component: b.path,
        hint: 'momentum.ts reads the parameters body.ts declares (m, r_cm[i], I[i][j]); keep the two in step',
      });
    }
    return v.e;
  };
}
