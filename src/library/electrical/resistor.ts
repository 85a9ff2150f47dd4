// Linear resistor (relaxing paper, section 6):
//   R * i = relax(Vp) - relax(Vn)
// relax() on the potentials is the paper's MNA hint (solve for the current in
// relaxed mode); in torn mode it reads R * i = Vp - Vn.
import { mul, relax, sub } from '../../expr/index.ts';
import { OnePort } from './one-port.ts';

export class Resistor extends OnePort {
  constructor(
    name: string,
    options: {
      /** resistance (Ω) */
      R: number;
    },
  ) {
    super(name);
    const R = this.parameter('R', options.R);
    this.equation(mul(R, this.i), sub(relax(this.vp), relax(this.vn)));
  }
}
