// Linear capacitor; its voltage u is a state (relaxing paper, section 6):
//   u = Vp - Vn
//   C * relax(der(u)) = i
import { mul, relax } from '../../expr/index.ts';
import { der } from '../../model/index.ts';
import { OnePort } from './one-port.ts';

export class Capacitor extends OnePort {
  constructor(
    name: string,
    options: {
      /** capacitance (F) */
      C: number;
      /** the voltage at the start (V, default 0) */
      u?: number;
    },
  ) {
    super(name);
    const C = this.parameter('C', options.C);
    const u = this.variable('u', { start: options.u ?? 0 });
    this.equation(u, this.u);
    this.equation(mul(C, relax(der(u))), this.i);
  }
}
