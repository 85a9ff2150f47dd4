// Samples streamed block by block (simulateBlocks): the very samples
// simulate() keeps, against the closed form of an oscillator, in blocks that
// reuse one set of arrays (constant memory for any length); simulate() refuses
// a result too large to hold with the number of samples, before it runs.
import { describe, expect, it } from 'vitest';
import { mul } from '../../src/expr/index.ts';
import { Model, der } from '../../src/model/index.ts';
import { compile } from '../../src/compile.ts';
import { MAX_RESULT_BYTES, sampleCount, simulate, simulateBlocks } from '../../src/sim/simulate.ts';
import { UsageError } from '../../src/errors.ts';

// x'' = -4 x from x = 1: x = cos 2t, and f = -4 x an algebraic signal
function oscillator() {
  const m = new Model('oscillator');
  const x = m.variable('x', { start: 1 }),
    v = m.variable('v', { start: 0 }),
    f = m.variable('f');
  m.equation(der(x), v);
  m.equation(der(v), f);
  m.equation(f, mul(-4, x));
  return m;
}

const collect = (compiled: ReturnType<typeof compile>, options: Parameters<typeof simulateBlocks>[1], size: number) => {
  const time: number[] = [],
    x: number[] = [],
    f: number[] = [];
  const arrays = new Set<Float64Array>();
  const blocks = simulateBlocks(compiled, options, size);
  let next = blocks.next();
  for (; !next.done; next = blocks.next()) {
    const b = next.value;
    expect(b.length).toBeLessThanOrEqual(size);
    arrays.add(b.time);
    for (let k = 0; k < b.length; k++) (time.push(b.time[k]), x.push(b.columns[0][k]), f.push(b.columns[1][k]));
  }
  return { time, x, f, arrays, stats: next.value };
};

describe('simulateBlocks', () => {
  const compiled = compile(oscillator());
  for (const integrator of ['rk4', 'adaptive'] as const) {
    it(`${integrator}: the samples simulate() keeps, bit for bit, in blocks of at most 64 that share one set of arrays`, () => {
      const options = { stop: 3, step: 1e-3, interval: 0.01, integrator, signals: ['x', 'f'] };
      const whole = simulate(compiled, options);
      const streamed = collect(compiled, options, 64);
      expect(streamed.time).toEqual([...whole.time]);
      expect(streamed.x).toEqual([...whole.get('x')]);
      expect(streamed.f).toEqual([...whole.get('f')]);
      expect(streamed.time).toHaveLength(sampleCount(options));
      expect(streamed.arrays.size).toBe(1); // every block in the same arrays: memory does not grow with the run
      // the closed form: x = cos 2t, f = -4 x
      expect(Math.abs(streamed.x.at(-1)! - Math.cos(6))).toBeLessThan(1e-6);
      streamed.x.forEach((x, k) => expect(streamed.f[k]).toBe(-4 * x));
    });
  }

  it('a run whose length is not a multiple of the block: the last block is shorter', () => {
    const options = { stop: 1, step: 0.01, signals: ['x', 'f'] };
    const sizes: number[] = [];
    for (const b of simulateBlocks(compiled, options, 40)) sizes.push(b.length);
    expect(sizes).toEqual([40, 40, 21]); // 101 samples
  });
});

describe('a result too large to hold', () => {
  const compiled = compile(oscillator());
  const refused = (options: { stop: number; step: number; interval?: number }) => {
    try {
      simulate(compiled, { ...options, signals: ['x', 'f'] });
    } catch (e) {
      return e;
    }
    return undefined;
  };

  it('--stop 1e12 at 1 ms: a UsageError with the number of samples and a hint, not a RangeError', () => {
    const e = refused({ stop: 1e12, step: 1e-3 });
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toBe(
      'a run of 1000000000000001 samples of 2 signals and the time would hold 2.24e+7 GiB in memory, more than the 1 GiB a result may',
    );
    expect((e as UsageError).details.hint).toMatch(/--interval.*--out.*simulateBlocks/);
  });

  it('refused before the first evaluation: a controller is never called; a run within the limit is not refused', () => {
    let calls = 0;
    const count = () => void calls++;
    expect(() => simulate(compiled, { stop: 2e5, step: 1e-3, signals: ['x'], controller: count })).toThrow(
      /^a run of 200000001 samples of 1 signals and the time would hold 2\.98 GiB/,
    );
    expect(calls).toBe(0);
    expect(sampleCount({ stop: 2e5, step: 1e-3 }) * 2 * 8).toBeGreaterThan(MAX_RESULT_BYTES);
    // as long a run, kept every 10 s: 20001 samples
    expect(simulate(compiled, { stop: 2e5, step: 1, interval: 10, signals: ['x'] }).length).toBe(20001);
  });
});
