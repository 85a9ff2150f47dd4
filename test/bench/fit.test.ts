// The benchmark's conclusions (src/bench/fit.ts, src/bench/report.ts) on synthetic
// timings with known answers: power laws, a known crossing, ratios.
import { describe, expect, it } from 'vitest';
import { crossover, logLogFit, within } from '../../src/bench/fit.ts';
import { markdownTable, summarize } from '../../src/bench/report.ts';
import type { BenchRow } from '../../src/bench/sweep.ts';

const sizes = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const law = (k: number, p: number) => sizes.map((n) => ({ n, y: k * n ** p }));

describe('logLogFit', () => {
  it('recovers y = 3 n^1.5 exactly', () => {
    const f = logLogFit(law(3, 1.5));
    expect(f.slope).toBeCloseTo(1.5, 12);
    expect(f.intercept).toBeCloseTo(Math.log(3), 12);
  });
  it('is the least-squares line: symmetric noise around n^2 leaves the slope at 2', () => {
    const pts = law(1, 2).map((p, i) => ({ n: p.n, y: p.y * (i % 2 ? 1.1 : 1 / 1.1) }));
    // alternating factors: residuals +-log 1.1, whose covariance with log n is small but not zero
    const f = logLogFit(pts);
    expect(Math.abs(f.slope - 2)).toBeLessThan(0.02);
  });
  it('needs two distinct n', () => {
    expect(() =>
      logLogFit([
        { n: 4, y: 1 },
        { n: 4, y: 2 },
      ]),
    ).toThrow(RangeError);
  });
  it('within keeps the range inclusive', () => {
    expect(within(law(1, 1), 16, 256).map((p) => p.n)).toEqual([16, 32, 64, 128, 256]);
  });
});

describe('crossover', () => {
  it('torn n^3 against relaxed 10 n cross at n = sqrt(10): relaxed faster from 4 on', () => {
    const c = crossover(law(1, 3), law(10, 1));
    expect(c?.from).toBe(4);
    // log(relaxed / torn) = log 10 - 2 log n is linear in log n: the interpolation is exact
    expect(c?.at).toBeCloseTo(Math.sqrt(10), 10);
  });
  it('relaxed faster everywhere: from the smallest n, no crossing', () => {
    expect(crossover(law(2, 2), law(1, 1))).toEqual({ from: 1 });
  });
  it('relaxed never faster at the largest n: none', () => {
    expect(crossover(law(1, 1), law(2, 1))).toBeUndefined();
  });
  it('"for good": a lucky small n before a loss does not count', () => {
    const torn = [
      { n: 1, y: 1 },
      { n: 2, y: 2 },
      { n: 4, y: 4 },
      { n: 8, y: 8 },
    ];
    const relaxed = [
      { n: 1, y: 2 },
      { n: 2, y: 1 },
      { n: 4, y: 8 },
      { n: 8, y: 4 },
    ];
    expect(crossover(torn, relaxed)?.from).toBe(8);
  });
  it('uses only the n measured in both modes', () => {
    const torn = law(1, 3).filter((p) => p.n <= 8);
    expect(crossover(torn, law(10, 1))?.from).toBe(4);
  });
});

describe('summary and table', () => {
  const rows: BenchRow[] = [
    ...law(1, 3)
      .filter((p) => p.n <= 64)
      .map((p) => ({ model: 'chain' as const, n: p.n, mode: 'torn' as const, usPerEval: p.y, compileMs: 1, ops: { mul: 1, add: 2, div: 3, fn: 4 } })),
    // relaxed: n + 100 is far from a power law below 16; the fit must use 16..256 only
    ...sizes.map((n) => ({
      model: 'chain' as const,
      n,
      mode: 'relaxed' as const,
      usPerEval: n < 16 ? 100 : 5 * n,
      compileMs: 1,
      ops: { mul: 1, add: 1, div: 0, fn: 0 },
    })),
    ...sizes.map((n) => ({ model: 'chain' as const, n, mode: 'mujoco' as const, usPerEval: 10 * n })),
    { model: 'puma560', n: 6, mode: 'relaxed', usPerEval: 3, compileMs: 1, ops: { mul: 1, add: 1, div: 0, fn: 0 } },
    { model: 'puma560', n: 6, mode: 'mujoco', usPerEval: 4 },
  ];
  it('fits relaxed over 16..256, torn over its three largest n, MuJoCo over 16..256', () => {
    const s = summarize(rows);
    expect(s.slopes.relaxed).toMatchObject({ from: 16, to: 256 });
    expect(s.slopes.relaxed!.slope).toBeCloseTo(1, 12);
    expect(s.slopes.torn).toMatchObject({ from: 16, to: 64 });
    expect(s.slopes.torn!.slope).toBeCloseTo(3, 12);
    expect(s.slopes.mujoco!.slope).toBeCloseTo(1, 12);
  });
  it('ratios relaxed / MuJoCo per model and n', () => {
    const s = summarize(rows);
    expect(s.ratios.find((r) => r.model === 'puma560')?.relaxedOverMujoco).toBeCloseTo(0.75, 12);
    expect(s.ratios.find((r) => r.model === 'chain' && r.n === 256)?.relaxedOverMujoco).toBeCloseTo(0.5, 12);
  });
  it('rows whose warm-up was capped are starred in the table and left out of fits and ratios', () => {
    const slow: BenchRow = {
      model: 'chain',
      n: 512,
      mode: 'relaxed',
      usPerEval: 1e6,
      compileMs: 1,
      ops: { mul: 1, add: 1, div: 0, fn: 0 },
      warmupCapped: true,
    };
    const peer: BenchRow = { model: 'chain', n: 512, mode: 'mujoco', usPerEval: 10 };
    const s = summarize([...rows, slow, peer]);
    expect(s.slopes.relaxed).toMatchObject({ to: 256 });
    expect(s.slopes.relaxed!.slope).toBeCloseTo(1, 12);
    expect(s.ratios.some((r) => r.n === 512)).toBe(false);
    expect(markdownTable([slow, peer]).split('\n')[2]).toContain('| 1000000* |');
  });
  it('table: one line per model and n, a dash where a mode was not measured', () => {
    const lines = markdownTable(rows).split('\n');
    expect(lines).toHaveLength(2 + sizes.length + 1);
    const n256 = lines
      .find((l) => l.startsWith('| chain | 256 |'))!
      .split('|')
      .map((c) => c.trim());
    expect(n256[3]).toBe('–'); // torn compile: not measured at 256
    expect(n256[13]).toBe('0.50'); // relaxed / MuJoCo
  });

  it('rows after a detach: their own columns, the detach ratio per form, relaxed / MuJoCo from the detached rows (the same rounds as MuJoCo)', () => {
    const detached: BenchRow[] = [
      ...rows,
      { model: 'puma560', n: 6, mode: 'relaxed', usPerEval: 3.3, afterDetach: true },
      { model: 'chain', n: 16, mode: 'relaxed', usPerEval: 5 * 16 * 1.2, afterDetach: true },
    ];
    const s = summarize(detached);
    expect(s.detach?.relaxed?.min).toBeCloseTo(1.1, 12);
    expect(s.detach?.relaxed?.max).toBeCloseTo(1.2, 12);
    expect(s.detach?.torn).toBeUndefined();
    expect(s.ratios.find((r) => r.model === 'puma560')?.relaxedOverMujoco).toBeCloseTo(3.3 / 4, 12);
    expect(s.slopes.relaxed).toMatchObject({ from: 16, to: 256 }); // the fit stays on the rows before the detach
    expect(s.slopes.relaxed!.slope).toBeCloseTo(1, 12);
    const puma = markdownTable(detached)
      .split('\n')
      .find((l) => l.startsWith('| puma560 |'))!
      .split('|')
      .map((c) => c.trim());
    expect([puma[8], puma[10], puma[13]]).toEqual(['3.000', '3.300', '0.82']);
  });
});
