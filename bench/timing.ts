// bench/timing: time per evaluation of a compiled model's derivatives, the
// same way in every benchmark.
//   µs/eval  one derivatives() call: after a warm-up (>= 20000 calls and 300 ms, then until
//            three successive 50 ms rounds agree within 5 %, at most 20 s: V8 tiers the
//            generated functions up only after ~10^4 calls, and big models need longer),
//            the median over batches of many calls, each at a fresh pseudo-random state
import type { CompiledModel } from '../src/codegen/compiled.ts';

export const BATCHES = 9;
export const BATCH_MS = 15;
const WARMUP_CALLS = 20000;
const WARMUP_MS = 300;
const WARMUP_MAX_MS = 20000;
const ROUND_MS = 50;

// (seed) => deterministic uniform generator on [0, 1) (mulberry32)
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** keeps the results alive so the JIT cannot drop the calls */
export let sink = 0;

// (compiled model) => median µs per derivatives() call
export function microsPerEval(c: CompiledModel, seed: number): number {
  const rand = rng(seed);
  const x = c.x0();
  const dx = new Float64Array(x.length);
  const fresh = () => x.forEach((_, i) => (x[i] = rand() * 2 - 1));
  // warm-up until V8 has tiered the generated functions up (that takes ~10^4 calls), then
  // calls per batch so that a batch takes about BATCH_MS
  let calls = 0;
  const t0 = performance.now();
  const rounds: number[] = [];
  const settled = () => {
    const r = rounds.slice(-3);
    return r.length === 3 && Math.max(...r) <= 1.05 * Math.min(...r);
  };
  for (let now = t0; !((calls >= WARMUP_CALLS && now - t0 >= WARMUP_MS && settled()) || now - t0 >= WARMUP_MAX_MS); ) {
    let k = 0;
    const start = performance.now();
    do {
      for (let j = 0; j < 20; j++) c.derivatives(0, x, dx);
      k += 20;
      now = performance.now();
    } while (now - start < ROUND_MS);
    calls += k;
    rounds.push((now - start) / k);
  }
  const tCal = performance.now();
  for (let k = 0; k < 1000; k++) c.derivatives(0, x, dx);
  const perCall = (performance.now() - tCal) / 1000;
  const perBatch = Math.max(100, Math.round(BATCH_MS / perCall));
  const times: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    fresh();
    const start = performance.now();
    for (let k = 0; k < perBatch; k++) c.derivatives(0, x, dx);
    times.push(((performance.now() - start) * 1000) / perBatch);
    sink += dx[0];
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

