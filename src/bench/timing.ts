// src/bench/timing: time per call of a function under test (a compiled model's
// derivatives, MuJoCo's mj_forward), the same way in every benchmark.
//   warm-up  >= 20000 calls (or >= 30 s of calls for slow ones) and 300 ms, then until
//            three successive 50 ms rounds agree within 5 %, at most 20 s by default:
//            V8 tiers generated functions up only after thousands of calls
//   µs/call  CPU time of the process (process.cpuUsage(), user + system: what this
//            process was given, not what other jobs on a shared machine took) over
//            batches of ~15 ms, each at a fresh pseudo-random state (so the JIT cannot
//            fold the state into constants); the subjects of one table are timed in
//            interleaved rounds, a batch of each in turn, so a change of load hits
//            every row alike; median and minimum over the rounds
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CompiledModel } from '../codegen/compiled.ts';

/** rounds of one batch per subject (interleaved) */
export const BATCHES = 15;
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
  /** median µs per call (CPU time) over the rounds */
  us: number;
  /** fastest round's µs per call */
  min: number;
  warmupCalls: number;
  warmupMs: number;
  /** the warm-up ended at its time limit, not with enough calls and stable rounds */
  capped: boolean;
}

/** CPU time this process has used, µs */
export function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

const cpuMs = () => cpuMicros() / 1000;

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

/** a subject warmed up, with the calls per batch its warm-up's speed gives */
export interface Warmed {
  subject: Subject;
  perBatch: number;
  warmupCalls: number;
  warmupMs: number;
  capped: boolean;
}

// (subject, warm-up) => the subject warmed up (after a full collection of what earlier rows left)
export function warm(s: Subject, w: WarmUp = {}): Warmed {
  collectGarbage();
  sink += s.fresh();
  const r = warmUp(s, w.minCalls ?? WARMUP_CALLS, w.maxMs ?? WARMUP_MAX_MS);
  return { subject: s, perBatch: Math.max(1, Math.round(BATCH_MS / r.msPerCall)), warmupCalls: r.calls, warmupMs: r.ms, capped: r.capped };
}

// (warmed subjects, rounds) => their timings: each round times one batch of every subject in turn
export function timeRounds(subjects: readonly Warmed[], rounds = BATCHES): Timing[] {
  const times = subjects.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    subjects.forEach(({ subject, perBatch }, i) => {
      sink += subject.fresh();
      const start = cpuMicros();
      for (let k = 0; k < perBatch; k++) subject.call();
      times[i].push((cpuMicros() - start) / perBatch);
    });
  }
  return subjects.map((w, i) => {
    const t = times[i].sort((a, b) => a - b);
    return { us: t[Math.floor(t.length / 2)], min: t[0], warmupCalls: w.warmupCalls, warmupMs: w.warmupMs, capped: w.capped };
  });
}

// (subject, warm-up) => median µs per call, with how the warm-up went
export function timeCalls(s: Subject, w: WarmUp = {}): Timing {
  return timeRounds([warm(s, w)])[0];
}

/** calls until V8 has tiered the code up (rounds of ROUND_MS of CPU time until three agree); CPU ms per call of the last round */
function warmUp(s: Subject, minCalls: number, maxMs: number): { msPerCall: number; calls: number; ms: number; capped: boolean } {
  let calls = 0;
  const t0 = cpuMs();
  const rounds: number[] = [];
  const settled = () => {
    const r = rounds.slice(-3);
    return r.length === 3 && Math.max(...r) <= 1.05 * Math.min(...r);
  };
  const enough = (now: number) => (calls >= minCalls || now - t0 >= WARMUP_ENOUGH_MS) && now - t0 >= WARMUP_MS && settled();
  let now = t0;
  while (!enough(now) && now - t0 < maxMs) {
    let k = 0;
    const start = cpuMs();
    do {
      for (let j = 0; j < 20; j++) s.call();
      k += 20;
      now = cpuMs();
    } while (now - start < ROUND_MS);
    calls += k;
    rounds.push((now - start) / k);
  }
  return { msPerCall: rounds[rounds.length - 1], calls, ms: now - t0, capped: !enough(now) };
}

// (compiled model, seed) => median µs per derivatives() call, every state uniform in [-1, 1)
export const microsPerEval = (c: CompiledModel, seed: number): number => timeCalls(evalSubject(c, seed)).us;

// (compiled model, seed) => derivatives() on a state of its own, every state uniform in [-1, 1) at each fresh()
export function evalSubject(c: CompiledModel, seed: number): Subject {
  const rand = rng(seed);
  const state = c.createState();
  const x = c.x0();
  const dx = new Float64Array(x.length);
  return {
    call: () => state.derivatives(0, x, dx),
    fresh: () => {
      for (let i = 0; i < x.length; i++) x[i] = rand() * 2 - 1;
      return dx[0];
    },
  };
}
