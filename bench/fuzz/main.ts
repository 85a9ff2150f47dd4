// The fuzzer: seeded random mechanisms through the public API, compiled torn
// and relaxed, compared with the oracles (bench/fuzz/check.ts says how).
// Usage in USAGE below; case k uses seed S + k, so `--seed S --cases 1`
// reproduces one case.
// Prints the count of each class, every failure with its seed and one line
// of detail, and the time taken; exits 1 if any case failed. The cases run
// in J worker threads (default 2) in batches of BATCH (worker.ts says why).
//
// One case never loses the run (batch.ts, worker.ts): an exception of the
// fuzzer's own code is that case's `crash`, a worker that dies or overruns
// --timeout costs the case it was running only. Failures are also printed
// as they happen (stderr), and SIGINT or SIGTERM prints the summary of the
// cases finished so far.
import { performance } from 'node:perf_hooks';
import { runBatch } from './batch.ts';
import type { CaseResult } from './check.ts';
import { FAMILIES, type Family } from './generate.ts';
import { summarize } from './summary.ts';

const BATCH = 25;

const USAGE = `npm run fuzz -- [options]
  --cases N          number of cases (default 100)
  --seed S           first seed (default 1): case k uses seed S + k
  --jobs J           worker threads (default 2)
  --family F         ${FAMILIES.join(' | ')} (default mixed): mixed: trees and loops of every cut type;
                     prismatic: loops closed at a prismatic joint (spatial and planar cuts);
                     singular: four-bars at and near a change point, Cardan joints near gimbal lock,
                     judged by a run against one at a tenth of its step (singular.ts);
                     floating: free roots with quaternion ball joints and every other type below,
                     trees and loops (ball cuts too), against the floating-base oracle (floating.ts);
                     contact: random trees with collision geometry dropped on a plane, judged by
                     their run (contact.ts): no NaN, no tunnelling, no energy rise, torn = relaxed
  --small            the small mechanisms of the test slices (test/fuzz)
  --target js|wasm   the code compiled (default js)
  --timeout S        seconds one case may take before its worker is stopped (default 600)
  --verbose, -v      list every mechanism and its class
  --help             this text`;

interface Args {
  cases: number;
  seed: number;
  jobs: number;
  verbose: boolean;
  small: boolean;
  family: Family;
  timeout: number;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args | undefined {
  const args: Args = { cases: 100, seed: 1, jobs: 2, verbose: false, small: false, family: 'mixed', timeout: 600 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') return undefined;
    if (a === '--verbose' || a === '-v') args.verbose = true;
    else if (a === '--target' && ['js', 'wasm'].includes(argv[i + 1]))
      process.env.KRON_FUZZ_TARGET = argv[++i]; // the workers read it (check.ts)
    else if (a === '--small') args.small = true;
    else if (a === '--family') {
      const f = argv[++i];
      if (!(FAMILIES as readonly string[]).includes(f)) throw new UsageError(`--family needs one of ${FAMILIES.join(', ')}, got ${f}`);
      args.family = f as Family;
    } else if (a === '--cases' || a === '--seed' || a === '--jobs' || a === '--timeout') {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0 || (a === '--timeout' && v === 0))
        throw new UsageError(`${a} needs a ${a === '--timeout' ? 'positive' : 'non-negative'} integer, got ${argv[i]}`);
      args[a.slice(2) as 'cases' | 'seed' | 'jobs' | 'timeout'] = v;
    } else throw new UsageError(`unknown argument ${a}`);
  }
  return args;
}

async function main(): Promise<number> {
  let args: Args | undefined;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (!args) {
    console.log(USAGE);
    return 0;
  }
  const t0 = performance.now();
  const seeds = Array.from({ length: args.cases }, (_, k) => args.seed + k);
  const batches: number[][] = [];
  for (let i = 0; i < seeds.length; i += BATCH) batches.push(seeds.slice(i, i + BATCH));
  const results: CaseResult[][] = new Array(batches.length);
  // an interrupted run (Ctrl-C, a CI job's timeout) still reports the cases it finished
  const done: CaseResult[] = [];
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.log(`${summarize(done, performance.now() - t0)}\n(interrupted by ${signal} after ${done.length} of ${seeds.length} cases)`);
      process.exit(130);
    });
  }
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const k = next++;
      results[k] = await runBatch(batches[k], {
        task: { verbose: args.verbose, small: args.small, family: args.family },
        timeout: args.timeout,
        onResult: (r, listing) => {
          done.push(r);
          if (listing)
            console.log(
              `${listing}\n  => ${r.cls ?? `FAIL ${r.failure!.kind}: ${r.failure!.detail}`}${r.grey ? ' (grey)' : ''}${r.note ? ` [${r.note}]` : ''}${r.branch ? ` {${r.branch}}` : ''}`,
            );
          if (r.failure) console.error(`FAIL seed ${r.seed} [${r.shape}] ${r.failure.kind}: ${r.failure.detail}`);
        },
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, args.jobs) }, lane));
  console.log(summarize(results.flat(), performance.now() - t0));
  return results.flat().some((r) => r.failure) ? 1 : 0;
}

process.exitCode = await main();
