// Ideal, inertialess gear with ratio i (relaxing paper, section 3, class Gear):
//   wl = i * wr
//   al = i * relax(ar)                           (eq. 3 row 3; relaxed as in eq. 12)
//   i * tl = tr                                  (eq. 3 row 4)
import { mul, relax } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { flange } from './flange.ts';

/** the parameters of a gear */
export interface GearOptions {
  /** gear ratio wl / wr (default 1) */
  i?: number;
}

export class Gear extends Component {
  /** the left flange (phi, tau) */
  readonly l: Connector;
  /** the right flange (phi, tau) */
  readonly r: Connector;

  constructor(name: string, options: GearOptions = {}) {
    super(name);
    const i = this.parameter('i', options.i ?? 1);
    const wl = this.variable('wl');
    const al = this.variable('al');
    const tl = this.variable('tl');
    const wr = this.variable('wr');
    const ar = this.variable('ar');
    const tr = this.variable('tr');
    this.l = flange(this, 'l', wl, al, tl);
    this.r = flange(this, 'r', wr, ar, mul(-1, tr));
    this.equation(wl, mul(i, wr));
    this.equation(al, mul(i, relax(ar)));
    this.equation(mul(i, tl), tr);
  }
}
