// The fuzzer: seeded random mechanisms through the public API, compiled torn
// and relaxed, compared with the oracles (bench/fuzz/check.ts says how).
// Usage in USAGE below; case k uses seed S + k, so `--seed S --cases 1`
// reproduces one case.
// Prints the count of each class, every failure with its seed and one line
// of detail, and the time taken; exits 1 if any case failed. The cases run
// in J worker threads (default 2) in batches of BATCH (worker.ts says why).
//
// One case never loses the run: an exception in the fuzzer's own code
// (generator, oracle) is that case's `crash`; a worker that dies (out of
// memory, a native fault) or gives no answer within --timeout seconds
// (terminated) costs the case it was running, which is reported as `crash`
// or `timeout` with its seed, and a new worker runs the rest of the batch.
// Failures are also printed as they happen (stderr), so an interrupted run
// keeps what it found.
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { CaseResult } from './check.ts';
import { FAMILIES, type Family } from './generate.ts';
import { summarize } from './summary.ts';
import type { WorkerMessage, WorkerTask } from './worker.ts';

const BATCH = 25;

const USAGE = `npm run fuzz -- [options]
  --cases N          number of cases (default 100)
  --seed S           first seed (default 1): case k uses seed S + k
  --jobs J           worker threads (default 2)
  --family F         ${FAMILIES.join(' | ')} (default mixed): mixed: trees and loops of every cut type;
                     prismatic: loops closed at a prismatic joint (spatial and planar cuts)
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
    else if (a === '--target' && ['js', 'wasm'].includes(argv[i + 1])) process.env.KRON_FUZZ_TARGET = argv[++i]; // the workers read it (check.ts)
    else if (a === '--small') args.small = true;
    else if (a === '--family') {
      const f = argv[++i];
      if (!(FAMILIES as readonly string[]).includes(f)) throw new UsageError(`--family needs one of ${FAMILIES.join(', ')}, got ${f}`);
      args.family = f as Family;
    } else if (a === '--cases' || a === '--seed' || a === '--jobs' || a === '--timeout') {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0 || (a === '--timeout' && v === 0)) throw new UsageError(`${a} needs a ${a === '--timeout' ? 'positive' : 'non-negative'} integer, got ${argv[i]}`);
      args[a.slice(2) as 'cases' | 'seed' | 'jobs' | 'timeout'] = v;
    } else throw new UsageError(`unknown argument ${a}`);
  }
  return args;
}

/** a case the worker could not finish: the class of the header, with its seed */
function lost(seed: number, kind: 'crash' | 'timeout', detail: string): CaseResult {
  return { seed, shape: '(not known: the worker did not answer)', failure: { kind, detail } };
}

function announce(r: CaseResult): void {
  if (r.failure) console.error(`FAIL seed ${r.seed} [${r.shape}] ${r.failure.kind}: ${r.failure.detail}`);
}

/**
 * One worker over the seeds; resolves with a result for every seed, in seed
 * order. A worker that dies or overruns the timeout on a case costs that
 * case only: the rest go to a new worker.
 */
function runBatch(seeds: number[], args: Args): Promise<CaseResult[]> {
  return new Promise((resolve) => {
    const out: CaseResult[] = [];
    const task: WorkerTask = { seeds, verbose: args.verbose, small: args.small, family: args.family };
    const w = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: task });
    let running: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const finish = (last?: CaseResult) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (last) {
        announce(last);
        out.push(last);
      }
      const rest = seeds.slice(out.length);
      if (rest.length === 0) resolve(out);
      else void runBatch(rest, args).then((more) => resolve([...out, ...more]));
    };
    w.on('message', (m: WorkerMessage) => {
      if (finished) return;
      if ('started' in m) {
        running = m.started;
        clearTimeout(timer);
        timer = setTimeout(() => {
          finish(lost(m.started, 'timeout', `no answer after ${args.timeout} s: the worker was stopped (reproduce: npm run fuzz -- --seed ${m.started} --cases 1${args.small ? ' --small' : ''} --family ${args.family} --verbose)`));
          void w.terminate();
        }, args.timeout * 1000);
        return;
      }
      if (m.listing) console.log(`${m.listing}\n  => ${m.result.cls ?? `FAIL ${m.result.failure!.kind}: ${m.result.failure!.detail}`}${m.result.grey ? ' (grey)' : ''}${m.result.note ? ` [${m.result.note}]` : ''}`);
      announce(m.result);
      out.push(m.result);
      running = undefined;
    });
    const died = (why: string) => {
      if (running !== undefined) return finish(lost(running, 'crash', `the worker died while running this case: ${why}`));
      // not within a case (it could not start): a new worker would fail the same way
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      resolve([...out, ...seeds.slice(out.length).map((seed) => lost(seed, 'crash', `the worker failed outside any case: ${why}`))]);
    };
    w.on('error', (e) => died(e instanceof Error ? `${e.name}: ${e.message}` : String(e)));
    w.on('exit', (code) => (out.length === seeds.length ? finish() : died(`exit code ${code}`)));
  });
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
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const k = next++;
      results[k] = await runBatch(batches[k], args);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, args.jobs) }, lane));
  console.log(summarize(results.flat(), performance.now() - t0));
  return results.flat().some((r) => r.failure) ? 1 : 0;
}

process.exitCode = await main();
