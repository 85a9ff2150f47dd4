// The resistor ladder of the tearing paper ("Electrical circuits"):
//   Common - U0 - R1 - (R2 // (R3 - (R4 // (R5 - R6)))) - Common
// Nodes: n1 (U0 +), u2 (after R1), u4 (after R3), u6 (after R5).
// variant 0 (a): no hints; the compiler's fallback heuristic tears the loop
//         1 (b): MeshCuts MC1..MC3 in series with R1, R3, R5 (mesh currents: 3 tearing variables)
//         2 (c): NodeCuts NC2, NC4, NC6 at u2, u4, u6 (node voltages: 3 tearing variables)
//         3 (d): one TearCut TC, main path in series with R1, residue cut at u6 (1 tearing variable)
import { Model, type Connector, electrical } from 'kron';
const { ConstantVoltage, Ground, MeshCut, NodeCut, Resistor, TearCut } = electrical;

export const parameters = { variant: 0, U0: 10, R1: 1, R2: 2, R3: 3, R4: 4, R5: 5, R6: 6 };

export const VARIANTS = ['(a) no hints', '(b) three MeshCuts', '(c) NodeCuts at u2, u4, u6', '(d) one TearCut'] as const;

export default function build(p: Partial<typeof parameters> = {}): Model {
  const q = { ...parameters, ...p };
  if (![0, 1, 2, 3].includes(q.variant)) throw new RangeError(`variant must be 0..3, got ${q.variant}`);
  const m = new Model('resistorladder');
  const common = m.add(new Ground('common'));
  const U0 = m.add(new ConstantVoltage('U0', { V: q.U0 }));
  const R = [q.R1, q.R2, q.R3, q.R4, q.R5, q.R6].map((r, k) => m.add(new Resistor(`R${k + 1}`, { R: r })));
  // (b): R - MC in series; returns the far end of the pair
  const meshCut = (end: Connector, k: number): Connector => {
    if (q.variant !== 1) return end;
    const mc = m.add(new MeshCut(`MC${k}`));
    m.connect(end, mc.p);
    return mc.n;
  };
  const tc = q.variant === 3 ? m.add(new TearCut('TC')) : undefined;
  m.connect(common.p, U0.n);
  m.connect(U0.p, R[0].p);
  let u2 = meshCut(R[0].n, 1);
  if (tc) {
    m.connect(u2, tc.A);
    u2 = tc.B;
  }
  m.connect(u2, R[1].p);
  m.connect(R[1].n, common.p);
  m.connect(u2, R[2].p);
  const u4 = meshCut(R[2].n, 2);
  m.connect(u4, R[3].p);
  m.connect(R[3].n, common.p);
  m.connect(u4, R[4].p);
  const u6 = meshCut(R[4].n, 3);
  m.connect(u6, R[5].p);
  m.connect(R[5].n, common.p);
  if (q.variant === 2) [u2, u4, u6].forEach((node, k) => m.connect(node, m.add(new NodeCut(`NC${2 * k + 2}`)).A));
  if (tc) m.connect(u6, tc.Res);
  return m;
}
