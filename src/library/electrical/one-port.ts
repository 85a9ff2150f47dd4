// Superclass of the two-pin elements (relaxing paper, section 6, OnePort):
//   cut p (Vp / i)   cut n (Vn / -i)
// The voltage drop u = Vp - Vn is an expression, not a variable: it is
// inserted into the element equations as in the paper's reduced tableau.
import { type Expr, sub } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { pin } from './pin.ts';

/** a two-pin element: current i enters at p and leaves at n */
export class OnePort extends Component {
  /** the positive pin (vp, i) */
  readonly p: Connector;
  /** the negative pin (vn, -i) */
  readonly n: Connector;
  /** the positive pin's potential */
  readonly vp: Expr;
  /** the negative pin's potential */
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
