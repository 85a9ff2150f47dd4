// Ideal constant voltage source U0 of the tearing paper's ladder: Vp - Vn = V.
import { OnePort } from './one-port.ts';

export class ConstantVoltage extends OnePort {
  constructor(
    name: string,
    options: {
      /** the voltage it holds (V) */
      V: number;
    },
  ) {
    super(name);
    const V = this.parameter('V', options.V);
    this.equation(this.u, V);
  }
}
