// Superclass of the two-pin elements (relaxing paper, section 6, OnePort):
//   cut p (Vp / i)   cut n (Vn / -i)
// The voltage drop u = Vp - Vn is an expression, not a variable: it is
// inserted into the element equations as in the paper's reduced tableau.
import { type Expr, sub } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { pin } from './pin.ts';

export class OnePort extends Component {
  readonly p: Connector;
  readonly n: Connector;
  readonly vp: Expr;
  readonly vn: Expr;
  /** current from p to n through the element */
  readonly i: Expr;

  constructor(name: string) {
    super(name);
    this.vp = this.variable('vp');
    this.vn = this.variable('vn');
    this.i = this.variable('i');
    this.p = pin(this, 'p', this.vp, this.i);
    this.n = pin(this, 'n', this.vn, sub(0, this.i));
  }

  /** voltage drop vp - vn */
  get u(): Expr {
    return sub(this.vp, this.vn);
  }
}
