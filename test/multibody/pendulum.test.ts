// The simple pendulum against its closed form, in both modes; the chain's
// torn and relaxed forms against each other.
import { describe, expect, it } from 'vitest';
import pendulum from '../../mechanisms/pendulum.ts';
import chain from '../../mechanisms/chain.ts';
import { compile } from '../../src/compile.ts';
import { ModelError } from '../../src/errors.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';

describe('multibody library', () => {
  it('a pendulum obeys (m L^2 + Izz) qdd = -m g L cos q in both modes', () => {
    for (const mode of ['torn', 'relaxed'] as const) {
      const p = { m: 2, L: 0.7, Izz: 0.03, q0: 0, qd0: 0 };
      const c = compile(pendulum(p), { mode });
      for (const q of [-1.2, 0, 0.4, 2.5]) {
        c.derivatives(0, Float64Array.of(q, 1.5), new Float64Array(2));
        const want = (-p.m * 9.80665 * p.L * Math.cos(q)) / (p.m * p.L * p.L + p.Izz);
        expect(c.signal('der(j1.qd)')).toBeCloseTo(want, 12);
      }
    }
  });
  it('a spatial chain: torn tears to n, relaxed to one block per joint, and they agree', () => {
    const n = 5;
    const torn = compile(chain({ n }), { mode: 'torn' });
    const relaxed = compile(chain({ n }), { mode: 'relaxed' });
    expect(torn.report.blocks).toHaveLength(1);
    expect(torn.report.blocks[0].tearing).toBe(n);
    expect(relaxed.report.blocks.every((b) => b.tearing === 1)).toBe(true);
    expect(relaxed.report.blocks.length).toBeGreaterThanOrEqual(n - 1);
    let seed = 9;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    for (let k = 0; k < 10; k++) {
      const x = Float64Array.from(torn.stateNames, rnd);
      const a = new Float64Array(x.length),
        b = new Float64Array(x.length);
      torn.derivatives(0, x, a);
      relaxed.derivatives(0, x, b);
      a.forEach((v, i) => expect(Math.abs(v - b[i])).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(v))));
    }
  });
  it('joints stacked without a body between them relax into small blocks and agree with torn', () => {
    const build = () => {
      const m = new Mechanism('stack');
      const j1 = m.revolute('j1', { axis: [0, 0, 1], q: 0.3 });
      const j2 = m.revolute('j2', { axis: [0, 1, 0], q: -0.2 });
      const j3 = m.prismatic('j3', { axis: [1, 0, 0], q: 0.1 });
      const bar = m.bar('bar', { r: [0.2, 0, 0] });
      const b = m.body('b', { m: 2, rcm: [0.3, 0.1, 0], I: [0.01, 0.02, 0.025, 0.001] });
      m.connect(m.world.frame_b, j1.frame_a);
      m.connect(j1.frame_b, j2.frame_a);
      m.connect(j2.frame_b, bar.frame_a);
      m.connect(bar.frame_b, j3.frame_a);
      m.connect(j3.frame_b, b.frame_a);
      return m;
    };
    const torn = compile(build(), { mode: 'torn' });
    const relaxed = compile(build(), { mode: 'relaxed' });
    expect(relaxed.report.diagnostics).toEqual([]);
    // j1 and j2 with nothing between them act as one 2-dof joint: one block torn to 2, j3 its own
    expect(relaxed.report.blocks.map((b) => b.tearing).sort()).toEqual([1, 2]);
    for (const x of [
      [0.3, 1, -0.2, 0.5, 0.1, -1],
      [2, -0.3, 1, 0.2, -0.4, 0.7],
    ]) {
      const a = new Float64Array(6),
        b = new Float64Array(6);
      torn.derivatives(0, Float64Array.from(x), a);
      relaxed.derivatives(0, Float64Array.from(x), b);
      a.forEach((v, i) => expect(Math.abs(v - b[i])).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(v))));
    }
  });
  it('rejects a negative mass, a non-physical inertia and a zero-length axis, naming the component', () => {
    const m = new Mechanism('bad');
    expect(() => m.body('b', { m: -1 })).toThrow(ModelError);
    expect(() => m.body('c', { m: 1, I: [1, 1, 3] })).toThrow(/triangle inequality/);
    expect(() => m.body('d', { m: 1, I: [1, 1, 1, 2] })).toThrow(/positive semi-definite/);
    expect(() => m.revolute('j', { axis: [0, 0, 0] })).toThrow(/axis \[0, 0, 0\] of j has zero length/);
  });
});
