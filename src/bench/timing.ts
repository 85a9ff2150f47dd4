// src/bench/timing: time per call of a function under test (a compiled model's
// derivatives, MuJoCo's mj_forward), the same way in every benchmark.
//   µs/call  after a warm-up (>= 20000 calls, or >= 30 s of calls for slow ones, and 300 ms,
//            then until three successive 50 ms rounds agree within 5 %, at most 20 s by
//            default: V8 tiers generated functions up only after thousands of calls), the median
//            over batches of ~15 ms (at least one call), each batch at a fresh
//            pseudo-random state (so the JIT cannot fold the state into constants)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CompiledModel } from '../codegen/compiled.ts';

export const BATCHES = 9;
export const BATCH_MS = 15;
const WARMUP_CALLS = 20000;
const WARMUP_MS = 300;
/** a call this slow has run its functions enough for V8 after this long, whatever the count (torn n = 128 at 3 ms: the same µs after 17740 and 20000 calls) */
const WARMUP_ENOUGH_MS = 30000;
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

/** the function under test and how to give it a new state */
export interface Subject {
  /** one evaluation at the current state */
  call(): void;
  /** a fresh pseudo-random state; returns a number of the last result (kept in `sink`) */
  fresh(): number;
}

export interface Timing {
  /** median µs per call */
  us: number;
  warmupCalls: number;
  warmupMs: number;
  /** the warm-up ended at its time limit, not with enough calls and stable rounds */
  capped: boolean;
}

// (subject) => median µs per call
export const microsPerCall = (s: Subject): number => timeCalls(s).us;

export interface WarmUp {
  /** calls before measuring (default 20000) */
  minCalls?: number;
  /** at most this long (ms, default 20000); a warm-up that stops here reports capped */
  maxMs?: number;
}

/**
 * A full garbage collection before each row: the code and data of the rows
 * measured before (the torn chain of 64 is 2.7 MB of JavaScript) are freed,
 * not collected while the next row is timed.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

// (subject, warm-up) => median µs per call, with how the warm-up went
export function timeCalls(s: Subject, w: WarmUp = {}): Timing {
  collectGarbage();
  sink += s.fresh();
  const warm = warmUp(s, w.minCalls ?? WARMUP_CALLS, w.maxMs ?? WARMUP_MAX_MS);
  const perBatch = Math.max(1, Math.round(BATCH_MS / warm.msPerCall));
  const times: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    sink += s.fresh();
    const start = performance.now();
    for (let k = 0; k < perBatch; k++) s.call();
    times.push(((performance.now() - start) * 1000) / perBatch);
  }
  sink += s.fresh();
  times.sort((a, b) => a - b);
  return { us: times[Math.floor(times.length / 2)], warmupCalls: warm.calls, warmupMs: warm.ms, capped: warm.capped };
}

/** calls until V8 has tiered the code up (rounds of ROUND_MS until three agree); ms per call of the last round */
function warmUp(s: Subject, minCalls: number, maxMs: number): { msPerCall: number; calls: number; ms: number; capped: boolean } {
  let calls = 0;
  const t0 = performance.now();
  const rounds: number[] = [];
  const settled = () => {
    const r = rounds.slice(-3);
    return r.length === 3 && Math.max(...r) <= 1.05 * Math.min(...r);
  };
  const enough = (now: number) => (calls >= minCalls || now - t0 >= WARMUP_ENOUGH_MS) && now - t0 >= WARMUP_MS && settled();
  let now = t0;
  while (!enough(now) && now - t0 < maxMs) {
    let k = 0;
    const start = performance.now();
    do {
      for (let j = 0; j < 20; j++) s.call();
      k += 20;
      now = performance.now();
    } while (now - start < ROUND_MS);
    calls += k;
    rounds.push((now - start) / k);
  }
  return { msPerCall: rounds[rounds.length - 1], calls, ms: now - t0, capped: !enough(now) };
}

// (compiled model, seed) => median µs per derivatives() call, every state uniform in [-1, 1)
export const microsPerEval = (c: CompiledModel, seed: number): number => timeEval(c, seed).us;

// (compiled model, seed, warm-up) => timing of derivatives() with how the warm-up went
export function timeEval(c: CompiledModel, seed: number, w: WarmUp = {}): Timing {
  const rand = rng(seed);
  const x = c.x0();
  const dx = new Float64Array(x.length);
  return timeCalls({
    call: () => c.derivatives(0, x, dx),
    fresh: () => {
      for (let i = 0; i < x.length; i++) x[i] = rand() * 2 - 1;
      return dx[0];
    },
  }, w);
}
