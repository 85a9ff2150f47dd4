// NodeCut of the tearing paper: an infinitely small capacitor from a node to
// ground; the node voltage is a tearing variable, the current into the cut
// (i.e. the node's Kirchhoff current sum) the residue:
//   main cut A (V / i)
//   i = residue(V)          { cf. capacitor i = C * der(V) }
import { residue } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { pin } from './pin.ts';

export class NodeCut extends Component {
  /** the node it cuts */
  readonly A: Connector;

  constructor(name: string) {
    super(name);
    const v = this.variable('v');
    const i = this.variable('i');
    this.A = pin(this, 'A', v, i);
    this.equation(i, residue(v));
  }
}
