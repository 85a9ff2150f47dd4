// Linear rotational damper between two flanges, massless:
//   t = -d * (wr - wl)                           (torque passed on to the right)
//   cut l (wl, al / t)   cut r (wr, ar / -t)
import { mul, sub } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { flange } from './flange.ts';

/** the parameters of a rotational damper */
export interface DamperOptions {
  /** damping (N m s / rad) */
  d: number;
}

export class Damper extends Component {
  /** the left flange (phi, tau) */
  readonly l: Connector;
  /** the right flange (phi, tau) */
  readonly r: Connector;

  constructor(name: string, options: DamperOptions) {
    super(name);
    const d = this.parameter('d', options.d);
    const wl = this.variable('wl');
    const al = this.variable('al');
    const wr = this.variable('wr');
    const ar = this.variable('ar');
    const t = this.variable('t');
    this.l = flange(this, 'l', wl, al, t);
    this.r = flange(this, 'r', wr, ar, mul(-1, t));
    this.equation(t, mul(-1, d, sub(wr, wl)));
  }
}
