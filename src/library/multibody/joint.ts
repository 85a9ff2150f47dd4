// What every one-degree-of-freedom joint has: frames a and b, the joint
// coordinate q with speed qd and acceleration qdd as states (der(q) = qd,
// der(qd) = qdd), an input drive tau, and an optional linear spring-damper
// on the coordinate: tau_total = tau - c (q - q0) - d qd.
import { type Expr, type Vec3Like, add, mul, sub } from '../../expr/index.ts';
import { Component, der } from '../../model/index.ts';
import { Frame } from './frame.ts';
import type { Geometry } from './geometry.ts';

export interface JointOptions {
  /** axis in frame_a coordinates (normalised; default z) */
  axis?: Vec3Like;
  /** start values of the coordinate and its speed */
  q?: number;
  qd?: number;
  /** drive torque (revolute) or force (prismatic): the start value of the input <joint>.tau */
  tau?: number;
  /** spring stiffness, rest position and damping on the coordinate */
  c?: number;
  q0?: number;
  d?: number;
  geometry?: Geometry;
}

export abstract class Joint extends Component {
  readonly frame_a: Frame;
  readonly frame_b: Frame;
  readonly q: Expr;
  readonly qd: Expr;
  readonly qdd: Expr;
  readonly tau: Expr;
  readonly geometry: Geometry | undefined;
  /** generalized force acting on the coordinate: drive plus spring-damper */
  protected readonly drive: Expr;

  constructor(name: string, options: JointOptions) {
    super(name);
    this.frame_a = this.add(new Frame('frame_a'));
    this.frame_b = this.add(new Frame('frame_b'));
    this.geometry = options.geometry;
    this.q = this.variable('q', { start: options.q ?? 0 });
    this.qd = this.variable('qd', { start: options.qd ?? 0 });
    this.qdd = this.variable('qdd');
    this.tau = this.input('tau', options.tau ?? 0);
    this.equation(der(this.q), this.qd);
    this.equation(der(this.qd), this.qdd);
    const terms: Expr[] = [this.tau];
    if (options.c) terms.push(mul(-1, this.parameter('c', options.c), sub(this.q, this.parameter('q0', options.q0 ?? 0))));
    if (options.d) terms.push(mul(-1, this.parameter('d', options.d), this.qd));
    this.drive = add(...terms);
  }
}
