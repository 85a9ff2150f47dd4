// Rigid shaft whose angular velocity is a state, in the tearing variant of the
// relaxing paper, section 10 (class ShaftS):
//   der(w) = a                                   (eq. 4)
//   J * a = tl - tr + residue(a)                 (torque balance as residue equation,
//                                                 a as tearing variable)
// In a drive train of rigidly coupled shafts and gears this tears the linear
// loop of eq. 3 down to the single unknown a, i.e. to eq. 5.
import { add, mul, residue, sub } from '../../expr/index.ts';
import { Component, type Connector, der } from '../../model/index.ts';
import { flange } from './flange.ts';

/** the parameters of a shaft (its state-space form) */
export interface ShaftSOptions {
  /** moment of inertia (kg m^2) */
  J: number;
  /** start value of the angular velocity (rad/s) */
  w?: number;
}

export class ShaftS extends Component {
  /** the left flange (phi, tau) */
  readonly l: Connector;
  /** the right flange (phi, tau) */
  readonly r: Connector;

  constructor(name: string, options: ShaftSOptions) {
    super(name);
    const J = this.parameter('J', options.J);
    const w = this.variable('w', { start: options.w ?? 0 });
    const a = this.variable('a');
    const tl = this.variable('tl');
    const tr = this.variable('tr');
    this.l = flange(this, 'l', w, a, tl);
    this.r = flange(this, 'r', w, a, mul(-1, tr));
    this.equation(der(w), a);
    this.equation(mul(J, a), add(sub(tl, tr), residue(a)));
  }
}
