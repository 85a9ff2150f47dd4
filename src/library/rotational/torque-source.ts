// A driving torque tau applied to one flange: the connected component
// receives tau as its incoming cut torque (tau_in of the relaxing paper,
// eq. 3). tau is a parameter, or an input set at run time when `input` is true.
import { mul } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { flange } from './flange.ts';

/** the parameters of a torque source */
export interface TorqueSourceOptions {
  /** the torque (N m); the start value when it is an input */
  tau?: number;
  /** make tau an input (simulate({ inputs: { 'src.tau': ... } })) instead of a parameter */
  input?: boolean;
}

export class TorqueSource extends Component {
  /** the flange it drives (phi, tau) */
  readonly flange: Connector;

  constructor(name: string, options: TorqueSourceOptions = {}) {
    super(name);
    const tau = options.input ? this.input('tau', options.tau ?? 0) : this.parameter('tau', options.tau ?? 0);
    const w = this.variable('w');
    const a = this.variable('a');
    // through quantity into the source is -tau: tau flows on into the neighbour
    this.flange = flange(this, 'flange', w, a, mul(-1, tau));
  }
}
