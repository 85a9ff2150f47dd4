// The simulator against closed forms, and its failure reports.
import { describe, expect, it } from 'vitest';
import { add, div, mul, sub } from '../../src/expr/index.ts';
import { Model, der } from '../../src/model/index.ts';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { SimulationError, UsageError } from '../../src/errors.ts';

function oscillator(k: number, mass: number) {
  const m = new Model('oscillator');
  const x = m.variable('x', { start: 1 }),
    v = m.variable('v', { start: 0 });
  const f = m.variable('f');
  m.equation(der(x), v);
  m.equation(mul(mass, der(v)), f);
  m.equation(f, mul(-k, x));
  return m;
}

describe('fixed-step RK4 (ode-rk4)', () => {
  it('follows x = cos(w t) with fourth-order error', () => {
    const errorAt = (h: number) => {
      const r = simulate(compile(oscillator(4, 1)), { stop: 3, step: h, signals: ['x', 'v', 'f'] });
      return Math.abs(r.final('x') - Math.cos(2 * 3));
    };
    const e1 = errorAt(0.01),
      e2 = errorAt(0.005);
    expect(e1).toBeLessThan(1e-7);
    expect(e1 / e2).toBeGreaterThan(14); // 2^4 = 16
    expect(e1 / e2).toBeLessThan(18);
  });
  it('samples every interval and records algebraic signals consistent with the states', () => {
    const r = simulate(compile(oscillator(4, 1)), { stop: 1, step: 0.001, interval: 0.1, signals: ['x', 'f'] });
    expect(r.length).toBe(11);
    expect(r.time[10]).toBeCloseTo(1, 12);
    for (let i = 0; i < r.length; i++) expect(r.get('f')[i]).toBeCloseTo(-4 * r.get('x')[i], 12);
    expect(r.toCSV().split('\n')[0]).toBe('time,x,f');
  });
  it('writes the CSV in whole lines of at most `rows` samples, every value read back exactly', () => {
    const r = simulate(compile(oscillator(4, 1)), { stop: 1, step: 0.001, interval: 0.1, signals: ['x', 'f'] });
    const chunks = [...r.csvChunks(4)];
    expect(chunks.length).toBe(3); // 11 samples: 4 + 4 + 3, the header with the first
    for (const c of chunks) expect(c.endsWith('\n')).toBe(true);
    const lines = chunks.join('').trimEnd().split('\n');
    expect(lines.length).toBe(12);
    lines.slice(1).forEach((line, k) => expect(line.split(',').map(Number)).toEqual([r.time[k], r.get('x')[k], r.get('f')[k]]));
  });
  it('ends exactly at stop when stop is not a multiple of step', () => {
    const r = simulate(compile(oscillator(1, 1)), { stop: 0.0105, step: 0.001 });
    expect(r.time[r.length - 1]).toBe(0.0105);
    expect(r.final('x')).toBeCloseTo(Math.cos(0.0105), 12);
  });
  it('rejects a step <= 0 and a negative stop time', () => {
    const c = compile(oscillator(1, 1));
    expect(() => simulate(c, { stop: 1, step: 0 })).toThrow(UsageError);
    expect(() => simulate(c, { stop: -1, step: 0.1 })).toThrow(UsageError);
  });
  it('stops at a non-finite value, naming the time and the first non-finite variable', () => {
    const m = new Model('blowup');
    const x = m.variable('x', { start: 0 }),
      g = m.variable('g');
    m.equation(g, div(1, sub(1, x))); // infinite at x = 1, reached at t = 1
    m.equation(der(x), add(1, mul(1e-300, g)));
    let err: SimulationError | undefined;
    try {
      simulate(compile(m), { stop: 2, step: 0.25 });
    } catch (e) {
      err = e as SimulationError;
    }
    expect(err).toBeInstanceOf(SimulationError);
    expect(err!.message).toMatch(/non-finite value appeared in the step from time 0.75, at time 1: first non-finite variable g \(g = 1\/\(1 - x\)\)/);
    expect(err!.details.variables).toEqual(['g']);
  });
});
