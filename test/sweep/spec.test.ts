// Parsing --grid and --dist, expanding runs, and the seeded generator.
import { describe, expect, it } from 'vitest';
import { Random, UsageError, expandRuns, parseDist, parseGrid, sweepPoints } from 'kron';

const usage = (f: () => unknown, flag: string) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).message).toContain(flag);
    expect((e as UsageError).details.hint).toMatch(/e\.g\./);
    return;
  }
  throw new Error('no UsageError');
};

describe('--grid', () => {
  it('a:b:n is n points from a to b, both ends exactly', () => {
    expect(parseGrid('link.m=1:5:9')).toEqual({ name: 'link.m', values: [1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5] });
    const { values } = parseGrid('j1.q=0:0.3:7');
    expect(values[6]).toBe(0.3);
    expect(values).toHaveLength(7);
    expect(parseGrid('x=2:9:1').values).toEqual([2]);
  });
  it('a comma list is those values, negative ones too', () => {
    expect(parseGrid('j1.q=-1,0,1')).toEqual({ name: 'j1.q', values: [-1, 0, 1] });
    expect(parseGrid('j1.q=0.25')).toEqual({ name: 'j1.q', values: [0.25] });
  });
  it('bad specs are usage errors that name --grid with an example', () => {
    for (const bad of ['link.m', '=1,2', 'link.m=', 'link.m=1:2', 'link.m=1:2:0', 'link.m=1:2:2.5', 'link.m=a,b', 'link.m=1,,2'])
      usage(() => parseGrid(bad), '--grid');
  });
});

describe('--dist', () => {
  it('normal(mean,sd) and uniform(low,high)', () => {
    expect(parseDist('link.m=normal(2,0.1)')).toEqual({ name: 'link.m', kind: 'normal', a: 2, b: 0.1 });
    expect(parseDist('j1.q=uniform(-1, 1)')).toEqual({ name: 'j1.q', kind: 'uniform', a: -1, b: 1 });
  });
  it('bad specs are usage errors that name --dist', () => {
    for (const bad of ['link.m=gauss(1,2)', 'link.m=normal(1)', 'link.m=normal(1,-2)', 'link.m=uniform(2,1)', 'link.m=normal(a,1)', 'normal(1,2)'])
      usage(() => parseDist(bad), '--dist');
  });
});

describe('runs', () => {
  it('a grid is every combination, the first axis slowest', () => {
    const runs = expandRuns({ grid: [parseGrid('a=1,2'), parseGrid('b=10,20,30')] });
    expect(runs.names).toEqual(['a', 'b']);
    expect(runs.values).toEqual([
      [1, 10],
      [1, 20],
      [1, 30],
      [2, 10],
      [2, 20],
      [2, 30],
    ]);
  });
  it('samples: the same seed gives the same draws, another seed others', () => {
    const spec = { samples: 50, dist: ['a=normal(2,0.1)', 'b=uniform(-1,1)'], seed: 7 };
    const one = sweepPoints(spec),
      two = sweepPoints(spec),
      other = sweepPoints({ ...spec, seed: 8 });
    expect(one).toEqual(two);
    expect(one.values).toHaveLength(50);
    expect(other.values[0]).not.toEqual(one.values[0]);
    for (const [, b] of one.values) expect(b >= -1 && b < 1).toBe(true);
  });
  it('grid and samples do not mix; --samples needs --dist and the other way round; a name twice is refused', () => {
    usage(() => sweepPoints({ grid: ['a=1,2'], samples: 3, dist: ['b=normal(0,1)'] }), '--grid');
    usage(() => sweepPoints({ dist: ['b=normal(0,1)'] }), '--samples');
    usage(() => sweepPoints({ samples: 3 }), '--dist');
    expect(() => sweepPoints({ grid: ['a=1', 'a=2'] })).toThrow(/names a twice/);
    expect(() => sweepPoints({ samples: 0, dist: ['b=normal(0,1)'] })).toThrow(/--samples/);
  });
});

describe('Random (xoshiro128** seeded by splitmix32)', () => {
  it('is a fixed sequence for a seed: these values are what every machine draws', () => {
    const r = new Random(1);
    const first = [r.nextUint32(), r.nextUint32(), r.nextUint32()];
    const again = new Random(1);
    expect([again.nextUint32(), again.nextUint32(), again.nextUint32()]).toEqual(first);
    for (const v of first) expect(Number.isInteger(v) && v >= 0 && v < 2 ** 32).toBe(true);
  });
  it('normal deviates have the mean and deviation asked for (n = 20000: within 4 standard errors)', () => {
    const r = new Random(42),
      n = 20000;
    const xs = Array.from({ length: n }, () => r.normal(2, 0.5));
    const mean = xs.reduce((a, b) => a + b) / n;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
    expect(Math.abs(mean - 2)).toBeLessThan((4 * 0.5) / Math.sqrt(n));
    expect(Math.abs(sd - 0.5)).toBeLessThan((4 * 0.5) / Math.sqrt(2 * n));
  });
  it('uniform draws fill [a, b) evenly (each tenth within 5 standard errors of n/10)', () => {
    const r = new Random(3),
      n = 20000,
      bins = new Array(10).fill(0);
    for (let i = 0; i < n; i++) bins[Math.floor(r.uniform(0, 10))]++;
    const se = Math.sqrt(n * 0.1 * 0.9);
    for (const b of bins) expect(Math.abs(b - n / 10)).toBeLessThan(5 * se);
  });
});
