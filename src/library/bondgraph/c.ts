// Linear capacitive port with integral causality; its effort is a state
// (bond graph paper, eq. 4.i):
//   der(e) = f / C
import { div } from '../../expr/index.ts';
import { Component, type Connector, der } from '../../model/index.ts';
import { port } from './port.ts';

export class C extends Component {
  /** its port (effort e, flow f) */
  readonly p: Connector;

  constructor(
    name: string,
    options: {
      /** capacitance: der(e) = f / C */
      C: number;
      /** the effort at the start (default 0) */
      e?: number;
    },
  ) {
    super(name);
    const c = this.parameter('C', options.C);
    const e = this.variable('e', { start: options.e ?? 0 });
    const f = this.variable('f');
    this.p = port(this, 'p', e, f);
    this.equation(der(e), div(f, c));
  }
}
