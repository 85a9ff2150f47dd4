// 1-junction with n ports p1..pn and power orientation signs s_k (+1: the
// bond points into the junction, -1: out of it), the one4P classes of the
// bond graph paper, section 5. One common flow f; port k carries the flow
// s_k f into the junction and its own effort e_k; the efforts balance:
//   sum_k s_k e_k = 0                            (eqs. 4.f-4.h)
import { add, mul } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { port } from './port.ts';

export class OneJunction extends Component {
  /** its ports, in the order they were made */
  readonly ports: Connector[];

  constructor(name: string, signs: readonly (1 | -1)[]) {
    super(name);
    const f = this.variable('f');
    const e = signs.map((_, k) => this.variable(`e${k + 1}`));
    this.ports = signs.map((s, k) => port(this, `p${k + 1}`, e[k], mul(s, f)));
    this.equation(add(...signs.map((s, k) => mul(s, e[k]))), 0);
  }
}
