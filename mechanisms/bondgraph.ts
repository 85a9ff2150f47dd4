// The bond graph of the bond graph tearing paper, fig. 1-3 (Dymola text in
// fig. 4): Se -> 1 -> 0 -> 1 -> 0 -> 1 -> C with R1, R3, R5 on the
// 1-junctions, R2, R4 on the 0-junctions; one state, the capacitor effort C.e.
// variant 0: plain (fig. 1), no tearing hints
//         1: residual flow sinks Sf1..Sf3 on the three 1-junctions (fig. 2): f1, f3, f5 torn, eq. 9
//         2: residual effort sinks ResSe1, ResSe2 on the two 0-junctions (fig. 3): e2, e4 torn
// Bond orientation (half arrows) from the source towards C and into every R,
// C and sink: +1 into a 1-junction, -1 out of it.
import { Model, bondgraph } from 'kron';
const { C, OneJunction, R, ResSe, ResSf, Se, ZeroJunction } = bondgraph;

export const parameters = { variant: 0, E: 10, R1: 1, R2: 2, R3: 3, R4: 4, R5: 5, C: 0.5, eC0: 1 };

export default function build(p: Partial<typeof parameters> = {}): Model {
  const q = { ...parameters, ...p };
  if (![0, 1, 2].includes(q.variant)) throw new RangeError(`variant must be 0..2, got ${q.variant}`);
  const flowSinks = q.variant === 1,
    effortSinks = q.variant === 2;
  const m = new Model('bondgraph');
  const se = m.add(new Se('Se', { E: q.E }));
  const r = [q.R1, q.R2, q.R3, q.R4, q.R5].map((v, k) => m.add(new R(`R${k + 1}`, { R: v })));
  const c = m.add(new C('C', { C: q.C, e: q.eC0 }));
  // one4P of fig. 4 when flow sinks are attached, else three ports
  const oneSigns: (1 | -1)[] = flowSinks ? [1, -1, -1, -1] : [1, -1, -1];
  const one = [1, 2, 3].map((k) => m.add(new OneJunction(`one${k}`, oneSigns)));
  const zero = [1, 2].map((k) => m.add(new ZeroJunction(`zero${k}`, effortSinks ? 4 : 3)));
  const bond = m.connect.bind(m);
  bond(se.p, one[0].ports[0]);
  bond(one[0].ports[1], zero[0].ports[0]);
  bond(one[0].ports[2], r[0].p);
  bond(zero[0].ports[1], r[1].p);
  bond(zero[0].ports[2], one[1].ports[0]);
  bond(one[1].ports[1], zero[1].ports[0]);
  bond(one[1].ports[2], r[2].p);
  bond(zero[1].ports[1], r[3].p);
  bond(zero[1].ports[2], one[2].ports[0]);
  bond(one[2].ports[1], r[4].p);
  bond(one[2].ports[2], c.p);
  if (flowSinks) one.forEach((j, k) => bond(j.ports[3], m.add(new ResSf(`Sf${k + 1}`)).p));
  if (effortSinks) zero.forEach((j, k) => bond(j.ports[3], m.add(new ResSe(`ResSe${k + 1}`)).p));
  return m;
}
