// An RC ladder (relaxing paper, section 6): a constant voltage source V, then
// n stages of a series resistor R and a shunt capacitor C to ground,
//
//   gnd - V - n0 -R1- n1 -R2- n2 - ... -Rn- nn
//                     |       |            |
//                     C1      C2           Cn
//                     |       |            |
//                    gnd     gnd          gnd
//
// Each capacitor voltage u_k = v(n_k) is a state. The library's relax() marks
// (Resistor R i = relax(vp) - relax(vn), Capacitor C relax(der(u)) = i) are the
// paper's MNA hint; with every node voltage a state here, no node potential is
// unknown and the ladder sorts into explicit assignments, in both modes:
//   i_Rk = (u_(k-1) - u_k) / R,  C der(u_k) = i_Rk - i_R(k+1)   (u_0 = V, i_R(n+1) = 0)
import { Model, UsageError, electrical } from 'kron';
const { Capacitor, ConstantVoltage, Ground, Resistor } = electrical;

export const parameters = { n: 10, V: 1, R: 1, C: 1 };

export default function build(p: Partial<typeof parameters> = {}): Model {
  const { n, V, R, C } = { ...parameters, ...p };
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`n must be an integer >= 1, got ${n}`, { hint: '--set n=10' });
  const m = new Model('rcladder');
  const gnd = m.add(new Ground('gnd'));
  const source = m.add(new ConstantVoltage('V', { V }));
  m.connect(source.n, gnd.p);
  let node = source.p;
  for (let k = 1; k <= n; k++) {
    const r = m.add(new Resistor(`R${k}`, { R }));
    const c = m.add(new Capacitor(`C${k}`, { C }));
    m.connect(node, r.p);
    m.connect(r.n, c.p);
    m.connect(c.n, gnd.p);
    node = r.n;
  }
  return m;
}
