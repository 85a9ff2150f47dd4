// The fuzzer: seeded random mechanisms through the public API, compiled torn
// and relaxed, compared with the oracles (bench/fuzz/check.ts says how).
//   npm run fuzz -- [--cases N] [--seed S] [--jobs J] [--verbose] [--small] [--target js|wasm]
// --small: the small mechanisms of the test slices (test/fuzz), so that
// `--seed S --cases 1 --small --verbose` shows a slice's failing case.
// Case k uses seed S + k, so `--seed S --cases 1` reproduces one case.
// Prints the count of each class, every failure with its seed and one line
// of detail, and the time taken; exits 1 if any case failed. The cases run
// in J worker threads (default 2) in batches of BATCH (worker.ts says why).
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { CaseResult } from './check.ts';
import { summarize } from './summary.ts';

const BATCH = 25;

interface Args {
  cases: number;
  seed: number;
  jobs: number;
  verbose: boolean;
  small: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { cases: 100, seed: 1, jobs: 2, verbose: false, small: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--verbose' || a === '-v') args.verbose = true;
    else if (a === '--target' && ['js', 'wasm'].includes(argv[i + 1])) process.env.KRON_FUZZ_TARGET = argv[++i]; // the workers read it (check.ts)
    else if (a === '--small') args.small = true;
    else if (a === '--cases' || a === '--seed' || a === '--jobs') {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${a} needs a non-negative integer, got ${argv[i]}`);
      args[a.slice(2) as 'cases' | 'seed' | 'jobs'] = v;
    } else throw new Error(`unknown argument ${a} (use --cases N, --seed S, --jobs J, --verbose, --small, --target js|wasm)`);
  }
  return args;
}

/** one worker over a batch of seeds; resolves with their results in seed order */
function runBatch(seeds: number[], verbose: boolean, small: boolean): Promise<CaseResult[]> {
  return new Promise((resolve, reject) => {
    const out: CaseResult[] = [];
    const w = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { seeds, verbose, small } });
    w.on('message', (m: { result: CaseResult; listing?: string }) => {
      if (m.listing) console.log(`${m.listing}\n  => ${m.result.cls ?? `FAIL ${m.result.failure!.kind}: ${m.result.failure!.detail}`}${m.result.grey ? ' (grey)' : ''}${m.result.note ? ` [${m.result.note}]` : ''}`);
      out.push(m.result);
    });
    w.on('error', reject);
    w.on('exit', (code) => (out.length === seeds.length ? resolve(out) : reject(new Error(`worker for seeds ${seeds[0]}..${seeds[seeds.length - 1]} exited (${code}) after ${out.length} cases`))));
  });
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const seeds = Array.from({ length: args.cases }, (_, k) => args.seed + k);
  const batches: number[][] = [];
  for (let i = 0; i < seeds.length; i += BATCH) batches.push(seeds.slice(i, i + BATCH));
  const results: CaseResult[][] = new Array(batches.length);
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const k = next++;
      results[k] = await runBatch(batches[k], args.verbose, args.small);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, args.jobs) }, lane));
  console.log(summarize(results.flat(), performance.now() - t0));
  return results.flat().some((r) => r.failure) ? 1 : 0;
}

process.exitCode = await main();
