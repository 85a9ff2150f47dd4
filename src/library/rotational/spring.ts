// Linear torsion spring between two flanges, massless (a force element that
// separates drive-train parts into algebraic loops of their own, relaxing
// paper section 3, last paragraph):
//   der(phi) = wr - wl                           (twist, a state)
//   t = -c * phi                                 (torque passed on to the right)
//   cut l (wl, al / t)   cut r (wr, ar / -t)
import { mul, sub } from '../../expr/index.ts';
import { Component, type Connector, der } from '../../model/index.ts';
import { flange } from './flange.ts';

/** the parameters of a rotational spring */
export interface SpringOptions {
  /** stiffness (N m / rad) */
  c: number;
  /** start value of the twist phi = angle_r - angle_l (rad) */
  phi?: number;
}

export class Spring extends Component {
  /** the left flange (phi, tau) */
  readonly l: Connector;
  /** the right flange (phi, tau) */
  readonly r: Connector;

  constructor(name: string, options: SpringOptions) {
    super(name);
    const c = this.parameter('c', options.c);
    const phi = this.variable('phi', { start: options.phi ?? 0 });
    const wl = this.variable('wl');
    const al = this.variable('al');
    const wr = this.variable('wr');
    const ar = this.variable('ar');
    const t = this.variable('t');
    this.l = flange(this, 'l', wl, al, t);
    this.r = flange(this, 'r', wr, ar, mul(-1, t));
    this.equation(der(phi), sub(wr, wl));
    this.equation(t, mul(-1, c, phi));
  }
}
