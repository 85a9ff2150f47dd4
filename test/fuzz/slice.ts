// A seeded slice of the fuzzer (bench/fuzz) for npm test: small random
// mechanisms (trees of 1-3 links, short single and double loops, every joint
// and cut type), each compiled torn and relaxed and compared with the
// oracles. Every case must end in one class (agree, compile-error,
// run-error). A failure prints its seed; reproduce it with
// `npm run fuzz -- --seed S --cases 1 --small --verbose` (the same small
// mechanism, listed), or runCase(S, generate(S, { small: true })).
//
// Issue 13: every class but agree, compile-error and run-error is a bug of
// the engine (or of the oracle, adjudicated at 50 digits with
// bench/fuzz/adjudicate.py); a loop that no set of tree coordinates can close is a
// compile-error by the builder's rank test (topology.ts).
// The slice is split over two files so that vitest runs the halves in parallel.
import { describe, expect, it } from 'vitest';
import { runCase } from '../../bench/fuzz/check.ts';
import { generate } from '../../bench/fuzz/generate.ts';

/** seeds first .. first + count - 1, in chunks so that one failure does not hide the others */
export function fuzzSlice(first: number, count: number, chunk = 20): void {
  describe(`fuzz slice, seeds ${first}..${first + count - 1}: torn vs relaxed vs oracle`, () => {
    for (let from = first; from < first + count; from += chunk) {
      it(`seeds ${from}..${from + chunk - 1}: every case agrees or fails with the same typed error in both modes`, () => {
        const failures: string[] = [];
        for (let seed = from; seed < from + chunk; seed++) {
          const r = runCase(seed, generate(seed, { small: true }));
          if (r.failure) failures.push(`seed ${seed} [${r.shape}] ${r.failure.kind}: ${r.failure.detail}`);
        }
        expect(failures).toEqual([]);
      });
    }
  });
}
