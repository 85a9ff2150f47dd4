// Linear resistive port: e = R * f (bond graph paper, eqs. 4.a-4.e).
import { mul } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { port } from './port.ts';

export class R extends Component {
  /** its port (effort e, flow f) */
  readonly p: Connector;

  constructor(
    name: string,
    options: {
      /** resistance: effort per flow */
      R: number;
    },
  ) {
    super(name);
    const r = this.parameter('R', options.R);
    const e = this.variable('e');
    const f = this.variable('f');
    this.p = port(this, 'p', e, f);
    this.equation(e, mul(r, f));
  }
}
