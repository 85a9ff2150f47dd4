// bench/drivetrain: the long drive train (mechanisms/longdrivetrain.ts) compiled
// torn and relaxed, as a Markdown table. Run: npx tsx bench/drivetrain.ts
//
// Glossary
//   n           shafts; rigid = 0: n/2 parts (Shaft - Gear - ShaftS) between spring|damper
//               couplings, rigid = 1: one rigid chain of n shafts and n - 1 gears
//   compile     wall time of compile() (flatten, aliases, sorting, tearing/relaxing, codegen)
//   ops         report.ops: mul / add / div / fn per evaluation of the derivatives, parameters
//               folded (the default, as `kron compile` does)
//   µs/eval     one derivatives() call: after a warm-up (>= 20000 calls and 300 ms, at most 3 s:
//               V8 needs ~10^4 calls to optimise the generated functions), the median over
//               batches of many calls, each batch at a fresh pseudo-random state
//   order       'train': components declared along the train (the module's default);
//               'shafts first': all shafts, then all couplings (shaftsFirst = 1), the same model

import { compile, type Mode } from '../src/compile.ts';
import type { CompiledModel } from '../src/codegen/compiled.ts';
import build from '../mechanisms/longdrivetrain.ts';

const SIZES = [50, 100, 200, 400];
const BATCHES = 9;
const BATCH_MS = 15;
const WARMUP_CALLS = 20000;
const WARMUP_MS = 300;
const WARMUP_MAX_MS = 3000;

// (seed) => deterministic uniform generator on [0, 1) (mulberry32)
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let sink = 0;

// (compiled model) => median µs per derivatives() call
function microsPerEval(c: CompiledModel, seed: number): number {
  const rand = rng(seed);
  const x = c.x0();
  const dx = new Float64Array(x.length);
  const fresh = () => x.forEach((_, i) => (x[i] = rand() * 2 - 1));
  // warm-up until V8 has tiered the generated functions up (that takes ~10^4 calls), then
  // calls per batch so that a batch takes about BATCH_MS
  let calls = 0;
  const t0 = performance.now();
  let last = 0;
  while (!((calls >= WARMUP_CALLS && last - t0 >= WARMUP_MS) || last - t0 >= WARMUP_MAX_MS)) {
    for (let k = 0; k < 200; k++) c.derivatives(0, x, dx);
    calls += 200;
    last = performance.now();
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

interface Row {
  n: number;
  rigid: number;
  mode: Mode;
  order: string;
  compileMs: number;
  ops: string;
  total: number;
  us: number;
}

function measure(n: number, rigid: number, mode: Mode, shaftsFirst = 0): Row {
  const t0 = performance.now();
  const c = compile(build({ n, rigid, shaftsFirst }), { mode });
  const compileMs = performance.now() - t0;
  const { mul, add, div, fn } = c.report.ops;
  return {
    n, rigid, mode, order: shaftsFirst ? 'shafts first' : 'train', compileMs,
    ops: `${mul} / ${add} / ${div} / ${fn}`, total: mul + add + div + fn, us: microsPerEval(c, n * 4 + rigid * 2 + (mode === 'torn' ? 0 : 1)),
  };
}

const line = (r: Row) =>
  `| ${r.rigid} | ${r.n} | ${r.mode} | ${r.order} | ${r.compileMs.toFixed(0)} | ${r.ops} | ${r.total} | ${r.us.toFixed(2)} |`;

const started = performance.now();
const rows: Row[] = [];
for (const rigid of [0, 1]) for (const n of SIZES) for (const mode of ['torn', 'relaxed'] as const) rows.push(measure(n, rigid, mode));
// the declaration-order dependence of relaxed mode (test/papers/relaxing-drivetrain.test.ts)
for (const rigid of [0, 1]) for (const n of SIZES) rows.push(measure(n, rigid, 'relaxed', 1));

console.log([
  '# Long drive train: torn vs relaxed',
  '',
  `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; parameters folded (the default); µs/eval: median of ${BATCHES} batches of ~${BATCH_MS} ms.`,
  '',
  '| rigid | n | mode | order | compile ms | ops mul / add / div / fn | ops total | µs/eval |',
  '|---:|---:|---|---|---:|---|---:|---:|',
  ...rows.map(line),
  '',
  `total bench time ${((performance.now() - started) / 1000).toFixed(1)} s${sink === 42 ? '' : ''}`,
].join('\n'));
