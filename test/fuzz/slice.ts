// A seeded slice of the fuzzer (bench/fuzz) for npm test: small random
// mechanisms (trees of 1-3 links, short single and double loops, every joint
// and cut type), each compiled torn and relaxed and compared with the
// oracles. Every case must end in one class (agree, compile-error,
// run-error). A failure prints its seed; reproduce it with
// `npm run fuzz -- --seed S --cases 1 --small --verbose` (the same small
// mechanism, listed; add --family F for another family), or
// runCase(S, generate(S, { small: true })).
//
// Issue 13: every class but agree, compile-error and run-error is a bug of
// the engine (or of the oracle, adjudicated at 50 digits with
// bench/fuzz/adjudicate.py); a loop that no set of tree coordinates can close is a
// compile-error by the builder's rank test (topology.ts).
// The slice is split over two files so that vitest runs the halves in parallel.
import { describe, expect, it } from 'vitest';
import { runCase } from '../../bench/fuzz/check.ts';
import { type Family, generate } from '../../bench/fuzz/generate.ts';

/**
 * seeds first .. first + count - 1 of a family, in chunks so that one failure does not hide the others;
 * minAgree: at least so many cases of each chunk agree with the oracle (a family whose cases all end in
 * typed errors would test nothing)
 */
export function fuzzSlice(first: number, count: number, chunk = 20, family: Family = 'mixed', minAgree = 0): void {
  describe(`fuzz slice${family === 'mixed' ? '' : ` (${family} family)`}, seeds ${first}..${first + count - 1}: torn vs relaxed vs oracle`, () => {
    for (let from = first; from < first + count; from += chunk) {
      it(`seeds ${from}..${from + chunk - 1}: every case agrees or fails with the same typed error in both modes${minAgree ? `, at least ${minAgree} agree` : ''}`, () => {
        const failures: string[] = [];
        let agree = 0;
        for (let seed = from; seed < from + chunk; seed++) {
          const r = runCase(seed, generate(seed, { small: true, family }));
          if (r.failure) failures.push(`seed ${seed} [${r.shape}] ${r.failure.kind}: ${r.failure.detail}`);
          if (r.cls === 'agree') agree++;
        }
        expect(failures).toEqual([]);
        expect(agree).toBeGreaterThanOrEqual(minAgree);
      });
    }
  });
}
