// Electrical library: an RC circuit against its closed form; each cut object
// of the tearing paper tears the smallest loop it can, a voltage divider.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { Model } from '../../src/model/index.ts';
import { Capacitor, ConstantVoltage, Ground, MeshCut, NodeCut, Resistor, TearCut } from '../../src/library/electrical/index.ts';

describe('RC circuit', () => {
  it('charges as u(t) = V (1 - exp(-t / RC))', () => {
    const V = 5,
      R = 2,
      C = 0.25;
    const m = new Model('rc');
    const gnd = m.add(new Ground('gnd'));
    const src = m.add(new ConstantVoltage('src', { V }));
    const r = m.add(new Resistor('r', { R }));
    const cap = m.add(new Capacitor('cap', { C }));
    m.connect(gnd.p, src.n);
    m.connect(src.p, r.p);
    m.connect(r.n, cap.p);
    m.connect(cap.n, gnd.p);
    const c = compile(m);
    expect(c.stateNames).toEqual(['cap.u']);
    const res = simulate(c, { stop: 2, step: 1e-3, interval: 0.1, signals: ['cap.u', 'r.i'] });
    res.time.forEach((t, k) => {
      expect(res.get('cap.u')[k]).toBeCloseTo(V * (1 - Math.exp(-t / (R * C))), 10);
      expect(res.get('r.i')[k]).toBeCloseTo((V / R) * Math.exp(-t / (R * C)), 10);
    });
  });
});

// U - Ra - [cut] - mid - Rb - ground: the 2-equation loop (i, v_mid) of a voltage divider
function divider(cut: 'none' | 'mesh' | 'node' | 'tear'): Model {
  const m = new Model(`divider_${cut}`);
  const gnd = m.add(new Ground('gnd'));
  const src = m.add(new ConstantVoltage('src', { V: 8 }));
  const ra = m.add(new Resistor('ra', { R: 1 }));
  const rb = m.add(new Resistor('rb', { R: 3 }));
  m.connect(gnd.p, src.n);
  m.connect(src.p, ra.p);
  let mid = ra.n;
  if (cut === 'mesh' || cut === 'tear') {
    const k = cut === 'mesh' ? m.add(new MeshCut('k')) : m.add(new TearCut('k'));
    m.connect(ra.n, 'A' in k ? k.A : k.p);
    mid = 'B' in k ? k.B : k.n;
    if ('Res' in k) m.connect(mid, k.Res);
  }
  if (cut === 'node') m.connect(mid, m.add(new NodeCut('k')).A);
  m.connect(mid, rb.p);
  m.connect(rb.n, gnd.p);
  return m;
}

describe('cut objects on a voltage divider', () => {
  it.each(['none', 'mesh', 'node', 'tear'] as const)('%s: one loop torn to one variable, i = 2, v_mid = 6', (cut) => {
    const c = compile(divider(cut), { mode: 'torn' });
    expect(c.report.blocks.map((b) => ({ tearing: b.tearing, from: b.tearingFrom }))).toEqual([{ tearing: 1, from: cut === 'none' ? 'heuristic' : 'hints' }]);
    c.derivatives(0, c.x0(), new Float64Array(0));
    expect(c.signal('ra.i')).toBeCloseTo(2, 14);
    expect(c.signal('rb.vp')).toBeCloseTo(6, 14);
  });
});
