// Rotational library: force elements against closed forms and conservation
// laws; the gear mounted the other way round (relaxing paper, section 10:
// tearing does not share relaxing's dependence on the orientation).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { Model } from '../../src/model/index.ts';
import { Damper, Gear, Shaft, ShaftS, Spring, TorqueSource } from '../../src/library/rotational/index.ts';
import build from '../../mechanisms/drivetrain.ts';

const J1 = 1,
  J2 = 2;

function twoInertias(element: Spring | Damper): Model {
  const m = new Model('two');
  const a = m.add(new ShaftS('a', { J: J1, w: 1 }));
  const b = m.add(new ShaftS('b', { J: J2, w: 0 }));
  m.add(element);
  m.connect(a.r, element.l);
  m.connect(element.r, b.l);
  return m;
}

describe('Spring between two inertias', () => {
  const c = 10;
  const omega = Math.sqrt(c * (1 / J1 + 1 / J2));
  const model = compile(twoInertias(new Spring('k', { c })));
  const r = simulate(model, { stop: 2, step: 1e-3, interval: 1e-2, signals: ['a.w', 'b.w', 'k.phi'] });

  it('oscillates with omega^2 = c (1/J1 + 1/J2) about the common speed', () => {
    const wcm = J1 / (J1 + J2); // (J1 * 1 + J2 * 0) / (J1 + J2)
    r.time.forEach((t, k) => {
      const rel = -Math.cos(omega * t); // w_b - w_a
      expect(r.get('k.phi')[k]).toBeCloseTo(-Math.sin(omega * t) / omega, 8);
      expect(r.get('a.w')[k]).toBeCloseTo(wcm - (J2 / (J1 + J2)) * rel, 8);
      expect(r.get('b.w')[k]).toBeCloseTo(wcm + (J1 / (J1 + J2)) * rel, 8);
    });
  });

  it('conserves kinetic plus spring energy', () => {
    const energy = (k: number) => 0.5 * J1 * r.get('a.w')[k] ** 2 + 0.5 * J2 * r.get('b.w')[k] ** 2 + 0.5 * c * r.get('k.phi')[k] ** 2;
    for (let k = 0; k < r.time.length; k++) expect(Math.abs(energy(k) - energy(0))).toBeLessThan(1e-9);
  });
});

describe('Damper between two inertias', () => {
  it('decays the relative speed as exp(-d (1/J1 + 1/J2) t) and keeps the momentum', () => {
    const d = 0.8;
    const r = simulate(compile(twoInertias(new Damper('d', { d }))), { stop: 2, step: 1e-3, interval: 1e-2, signals: ['a.w', 'b.w'] });
    r.time.forEach((t, k) => {
      const [wa, wb] = [r.get('a.w')[k], r.get('b.w')[k]];
      expect(wb - wa).toBeCloseTo(-Math.exp(-d * (1 / J1 + 1 / J2) * t), 9);
      expect(J1 * wa + J2 * wb).toBeCloseTo(J1, 12);
    });
  });
});

describe('Gear', () => {
  it('mounted the other way round still tears to one variable: (J1 + i^2 J2) der(s1.w) = tau', () => {
    const i = 3,
      tau = 1.5;
    const m = new Model('flipped');
    const drive = m.add(new TorqueSource('drive', { tau }));
    const s1 = m.add(new Shaft('s1', { J: J1 }));
    const g = m.add(new Gear('g', { i }));
    const s2 = m.add(new ShaftS('s2', { J: J2 }));
    m.connect(drive.flange, s1.l);
    m.connect(s1.r, g.r); // motor on the gear's right (slow) side
    m.connect(g.l, s2.l); // load on the fast side: w2 = i w1
    const c = compile(m);
    expect(c.report.blocks.map(({ size, tearing }) => ({ size, tearing }))).toEqual([{ size: 4, tearing: 1 }]);
    const dx = new Float64Array(1);
    c.derivatives(0, c.x0(), dx);
    expect(dx[0]).toBeCloseTo((i * tau) / (J1 + i * i * J2), 14);
  });
});

describe('TorqueSource', () => {
  it('as an input: tau(t) = t gives s2.w = i t^2 / (2 (J2 + i^2 J1))', () => {
    const m = new Model('driven');
    const drive = m.add(new TorqueSource('drive', { input: true }));
    const s1 = m.add(new Shaft('s1', { J: J1 }));
    const g = m.add(new Gear('g', { i: 3 }));
    const s2 = m.add(new ShaftS('s2', { J: J2 }));
    m.connect(drive.flange, s1.l);
    m.connect(s1.r, g.l);
    m.connect(g.r, s2.l);
    const r = simulate(compile(m), { stop: 1, step: 1e-2, signals: ['s2.w'], inputs: { 'drive.tau': (t) => t } });
    r.time.forEach((t, k) => expect(r.get('s2.w')[k]).toBeCloseTo((3 * t * t) / (2 * (J2 + 9 * J1)), 12));
  });

  it('is the drivetrain mechanism as a parameter', () => {
    const c = compile(build({ tau: 2 }));
    expect(c.signal('drive.tau')).toBe(2);
  });
});
