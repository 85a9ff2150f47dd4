// The reference node ("Common" in the tearing paper): v = 0.
import { Component, type Connector } from '../../model/index.ts';
import { pin } from './pin.ts';

export class Ground extends Component {
  /** its pin, at potential 0 */
  readonly p: Connector;

  constructor(name: string) {
    super(name);
    const v = this.variable('v');
    const i = this.variable('i');
    this.p = pin(this, 'p', v, i);
    this.equation(v, 0);
  }
}
