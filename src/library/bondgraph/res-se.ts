// Residual effort sink (bond graph paper, section 3, fig. 3), the dual of
// ResSf: e is a tearing variable and the flow into the sink the residue:
//   residue(e) = f
import { residue } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { port } from './port.ts';

export class ResSe extends Component {
  /** its port (effort e, flow f) */
  readonly p: Connector;

  constructor(name: string) {
    super(name);
    const e = this.variable('e');
    const f = this.variable('f');
    this.p = port(this, 'p', e, f);
    this.equation(residue(e), f);
  }
}
