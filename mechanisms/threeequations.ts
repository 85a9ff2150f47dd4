// The three-equation example of the relaxing paper, section 2, with concrete
// equations that have a unique solution:
//   h1(z1, z3) = z1^2 + z3 - 3        = 0   (linear in z3: solved explicitly)
//   h2(z2)     = z2^3 + z2 - c        = 0   (monotonic: one real root; c = 10 gives z2 = 2)
//   h3(z1, z2) = exp(z1) + z1 - z2    = 0   (monotonic in z1)
// Incidence S1 = [1 0 1; 0 1 0; 1 1 0]; the BLT form S2 solves z2 from h2,
// then z1 from h3, then z3 from h1: three blocks of size 1.
import { Component, Model, add, exp, mul, sub } from 'kron';

export const parameters = { c: 10 };

class ThreeEquations extends Component {
  constructor(name: string, c: number) {
    super(name);
    const cp = this.parameter('c', c);
    const z1 = this.variable('z1', { start: 0.5 });
    const z2 = this.variable('z2', { start: 1 });
    const z3 = this.variable('z3', { start: 0 });
    this.equation(add(mul(z1, z1), z3, -3), 0); // h1
    this.equation(sub(add(mul(z2, z2, z2), z2), cp), 0); // h2
    this.equation(sub(add(exp(z1), z1), z2), 0); // h3
  }
}

export default function build(p: Partial<typeof parameters> = {}): Model {
  const { c } = { ...parameters, ...p };
  const m = new Model('threeequations');
  m.add(new ThreeEquations('h', c));
  return m;
}
