// A 2-D resistor-capacitor grid (relaxing paper, section 6; issue 19): n x n
// nodes, each joined to its right and lower neighbour by a resistor R, each
// tied to ground by a resistor Rc in series with a capacitor C, and a
// constant voltage source V at the corner node (0, 0):
//
//   V - n00 -R- n01 -R- n02 ...      every node k:  k -Rc- m_k -C- gnd
//        |       |       |
//        R       R       R
//        |       |       |
//       n10 -R- n11 -R- n12 ...
//
// The capacitor voltages u_k are the states; the n^2 node potentials are
// unknowns of one algebraic loop. The library's relax() marks (Resistor
// R i = relax(vp) - relax(vn)) give the modified nodal analysis: every
// resistor current is solved from the potentials, and the node equations
// (Kirchhoff's current law) are left as the remainder, the sparse nodal
// system  (sum of conductances) v_k - sum_j v_j / R = u_k / Rc  per node.
// Direct relaxing (--mode relaxed) eliminates that system symbolically;
// --relax-iterate solves it by Gauss-Seidel sweeps (relaxing paper §4, the
// iteration scheme after eq. 11), which is what a large n needs.
import { Model, UsageError, electrical } from 'kron';
const { Capacitor, ConstantVoltage, Ground, Resistor } = electrical;

// n = 5 by default: the direct forms (torn, relaxed) march row by row through the grid and lose
// digits like (2 + sqrt 3)^n (1e-12 at n = 5, 1e-6 at n = 10); --relax-iterate does not
export const parameters = { n: 5, V: 1, R: 1, Rc: 1, C: 1 };

export default function build(p: Partial<typeof parameters> = {}): Model {
  const { n, V, R, Rc, C } = { ...parameters, ...p };
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`n must be an integer >= 1, got ${n}`, { hint: '--set n=10' });
  const m = new Model('rcgrid');
  const gnd = m.add(new Ground('gnd'));
  const source = m.add(new ConstantVoltage('V', { V }));
  m.connect(source.n, gnd.p);
  // each node is named by the p pin of its leak resistor Rc_r_c
  const node = (r: number, c: number) => `${r}_${c}`;
  const leak = new Map<string, InstanceType<typeof Resistor>>();
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const rc = m.add(new Resistor(`Rc_${node(r, c)}`, { R: Rc }));
      const cap = m.add(new Capacitor(`C_${node(r, c)}`, { C }));
      m.connect(rc.n, cap.p);
      m.connect(cap.n, gnd.p);
      leak.set(node(r, c), rc);
    }
  }
  m.connect(source.p, leak.get(node(0, 0))!.p);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const here = leak.get(node(r, c))!.p;
      if (c + 1 < n) {
        const h = m.add(new Resistor(`Rh_${node(r, c)}`, { R }));
        m.connect(here, h.p);
        m.connect(h.n, leak.get(node(r, c + 1))!.p);
      }
      if (r + 1 < n) {
        const v = m.add(new Resistor(`Rv_${node(r, c)}`, { R }));
        m.connect(here, v.p);
        m.connect(v.n, leak.get(node(r + 1, c))!.p);
      }
    }
  }
  return m;
}
