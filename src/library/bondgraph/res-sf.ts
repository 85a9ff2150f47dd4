// Residual flow sink (bond graph paper, section 3, eq. 12): the limit of an
// inductor I der(f) = e for I -> 0; f is a tearing variable and the effort
// at the port the residue that must vanish:
//   residue(f) = e
import { residue } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { port } from './port.ts';

export class ResSf extends Component {
  /** its port (effort e, flow f) */
  readonly p: Connector;

  constructor(name: string) {
    super(name);
    const e = this.variable('e');
    const f = this.variable('f');
    this.p = port(this, 'p', e, f);
    this.equation(residue(f), e);
  }
}
