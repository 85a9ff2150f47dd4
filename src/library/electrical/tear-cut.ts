// TearCut of the tearing paper: a zero-voltage main path A-B carrying the
// tearing current i, and a residue cut Res whose current (the Kirchhoff
// current sum of the node it is connected to) is the residue:
//   cut A (V / i)  B (V / -i)
//   main path P <A - B>
//   cut Res (Vres / ires)
//   ires = residue(i)
import { residue, sub } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { pin } from './pin.ts';

export class TearCut extends Component {
  /** one side of the cut */
  readonly A: Connector;
  /** the other side of the cut */
  readonly B: Connector;
  /** the residue's side: the torn variable's equation */
  readonly Res: Connector;

  constructor(name: string) {
    super(name);
    const v = this.variable('v');
    const i = this.variable('i');
    const vres = this.variable('vres');
    const ires = this.variable('ires');
    this.A = pin(this, 'A', v, i);
    this.B = pin(this, 'B', v, sub(0, i));
    this.Res = pin(this, 'Res', vres, ires);
    this.equation(ires, residue(i));
  }
}
