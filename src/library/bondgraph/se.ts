// Effort source: e = E (the source E of fig. 1, eqs. 4.f and 6).
import { Component, type Connector } from '../../model/index.ts';
import { port } from './port.ts';

export class Se extends Component {
  /** its port (effort e, flow f) */
  readonly p: Connector;

  constructor(
    name: string,
    options: {
      /** the effort it imposes */
      E: number;
    },
  ) {
    super(name);
    const E = this.parameter('E', options.E);
    const e = this.variable('e');
    const f = this.variable('f');
    this.p = port(this, 'p', e, f);
    this.equation(e, E);
  }
}
