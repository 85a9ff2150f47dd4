// One failing case never loses a fuzz run (issue 28: the generator threw on
// seed 7000000 + 1012 and the run of 1500 cases was lost). runBatch
// (bench/fuzz/batch.ts) against a stand-in worker that exits, hangs or
// throws on chosen seeds: every seed gets exactly one result, in order, the
// lost ones as crash or timeout with their seed and the reason; and
// safeCase (bench/fuzz/worker.ts) turns an exception of the generator into
// that case's crash.
import { describe, expect, it } from 'vitest';
import { runBatch } from '../../bench/fuzz/batch.ts';
import { safeCase } from '../../bench/fuzz/worker.ts';

const STAND_IN = new URL('./fixtures/stand-in-worker.mjs', import.meta.url);
const TASK = { verbose: false, small: true, family: 'mixed' as const };

describe('a fuzz batch survives its cases', () => {
  it('a worker that exits, hangs or throws costs that case only; the rest of the batch runs in a new worker', async () => {
    const seen: number[] = [];
    // 3 s: a stand-in's quick case must not overrun it on a loaded machine (1 s did, with the suite running beside it)
    const results = await runBatch([1, 2, 3, 4, 5, 6, 7, 8], { task: TASK, timeout: 3, worker: STAND_IN, onResult: (r) => seen.push(r.seed) });
    expect(results.map((r) => r.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(results.map((r) => r.cls ?? r.failure!.kind)).toEqual(['agree', 'agree', 'crash', 'agree', 'timeout', 'agree', 'crash', 'agree']);
    expect(results[2].failure!.detail).toBe('the worker died while running this case: exit code 7');
    expect(results[4].failure!.detail).toMatch(
      /^no answer after 3 s: the worker was stopped \(reproduce: npm run fuzz -- --seed 5 --cases 1 --small --family mixed --verbose\)$/,
    );
    expect(results[6].failure!.detail).toBe('the worker died while running this case: Error: stand-in failure on seed 7');
  });

  it('a worker that cannot start fails its batch once, with the reason, instead of being restarted forever', async () => {
    const results = await runBatch([900, 901], { task: TASK, timeout: 1, worker: STAND_IN });
    expect(results.map((r) => [r.seed, r.failure?.kind, r.failure?.detail])).toEqual([
      [900, 'crash', 'the worker failed outside any case: Error: cannot start'],
      [901, 'crash', 'the worker failed outside any case: Error: cannot start'],
    ]);
  });

  it("an exception of the generator is that case's crash, with the message", () => {
    const { result } = safeCase(41, { ...TASK }, () => {
      throw new Error('axisAngle: rebuilt rotation off by 1e-5');
    });
    expect(result).toEqual({
      seed: 41,
      shape: '(the generator failed)',
      failure: { kind: 'crash', detail: 'generator: Error: axisAngle: rebuilt rotation off by 1e-5' },
    });
  });
});
