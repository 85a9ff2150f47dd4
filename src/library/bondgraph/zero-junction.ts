// 0-junction with n ports p1..pn: one common effort, flows (into the
// junction) summing to zero. Port orientation needs no sign: a connector's
// flow is always counted into the junction.
//   p_k.e = e,   sum_k p_k.f = 0
import { add } from '../../expr/index.ts';
import { Component, type Connector } from '../../model/index.ts';
import { port } from './port.ts';

export class ZeroJunction extends Component {
  /** its ports, in the order they were made */
  readonly ports: Connector[];

  constructor(name: string, n: number) {
    super(name);
    const e = this.variable('e');
    const f = Array.from({ length: n }, (_, k) => this.variable(`f${k + 1}`));
    this.ports = f.map((fk, k) => port(this, `p${k + 1}`, e, fk));
    this.equation(add(...f), 0);
  }
}
