// The circuit excerpt of the relaxing paper, fig. 2 (section 6), completed to
// a circuit: R1 from node 1 to node 4, the capacitor C from node 2 to node 4
// (u = v2 - v4, a state), R3 from node 3 to node 4, as in the figure; added:
// the source V1 from ground to node 1, the source V3 from ground to node 3,
// and R2 from node 2 to ground, so that nodes 2 and 4 float.
//
//   gnd - V1 - n1 -R1-+         +-R3- n3 - V3 - gnd
//                     n4 -C- n2
//                             |
//                             R2
//                             |
//                            gnd
import { Model, electrical } from 'kron';
const { Capacitor, ConstantVoltage, Ground, Resistor } = electrical;

export const parameters = { V1: 1, V3: 2, R1: 1, R2: 2, R3: 3, C: 1, u0: 0 };

export default function build(p: Partial<typeof parameters> = {}): Model {
  const q = { ...parameters, ...p };
  const m = new Model('mnaexcerpt');
  const gnd = m.add(new Ground('gnd'));
  const V1 = m.add(new ConstantVoltage('V1', { V: q.V1 }));
  const V3 = m.add(new ConstantVoltage('V3', { V: q.V3 }));
  const R1 = m.add(new Resistor('R1', { R: q.R1 }));
  const C = m.add(new Capacitor('C', { C: q.C, u: q.u0 }));
  const R3 = m.add(new Resistor('R3', { R: q.R3 }));
  const R2 = m.add(new Resistor('R2', { R: q.R2 }));
  m.connect(V1.n, gnd.p);
  m.connect(V3.n, gnd.p);
  m.connect(V1.p, R1.p); // node 1
  m.connect(V3.p, R3.p); // node 3
  m.connect(R1.n, C.n); // node 4
  m.connect(R3.n, C.n);
  m.connect(C.p, R2.p); // node 2
  m.connect(R2.n, gnd.p);
  return m;
}
