// Rigid shaft with inertia J whose speed is not a state (relaxing paper,
// section 3, class Shaft):
//   J * relax(a) = tl - tr                       (torque balance, eq. 3 row 1)
// relax(a): in relaxed mode the equation is solved for a torque (section 5);
// in torn mode relax(a) is just a.
import { mul, relax, sub } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { flange } from './flange.ts';

/** the parameters of a shaft */
export interface ShaftOptions {
  /** moment of inertia (kg m^2) */
  J: number;
  /** start value of the angular velocity (rad/s) */
  w?: number;
}

export class Shaft extends Component {
  /** the left flange (phi, tau) */
  readonly l: Connector;
  /** the right flange (phi, tau) */
  readonly r: Connector;

  constructor(name: string, options: ShaftOptions) {
    super(name);
    const J = this.parameter('J', options.J);
    const w = this.variable('w', { start: options.w });
    const a = this.variable('a');
    const tl = this.variable('tl');
    const tr = this.variable('tr');
    this.l = flange(this, 'l', w, a, tl);
    this.r = flange(this, 'r', w, a, mul(-1, tr));
    this.equation(mul(J, relax(a)), sub(tl, tr));
  }
}
