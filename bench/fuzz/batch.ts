// One batch of fuzz cases in a worker thread: (seeds, options) => a result
// for every seed, in seed order, whatever happens to the worker.
//
// One case never loses the run: the worker posts the seed it starts, then
// its result (worker.ts; an exception of the fuzzer's own generator or
// oracle is already that case's `crash` there). A worker that dies while
// running a case (out of memory, a native fault, process.exit) costs that
// case, reported as `crash` with its seed; one that gives no answer within
// `timeout` seconds is stopped and the case is a `timeout`. Either way a new
// worker runs the rest of the batch. A worker that fails outside any case
// (it could not start) would fail again: the batch's remaining cases are
// `crash` with that reason.
import { Worker } from 'node:worker_threads';
import type { CaseResult } from './check.ts';
import type { WorkerMessage, WorkerTask } from './worker.ts';

export interface BatchOptions {
  /** what each case is (the worker's task without its seeds) */
  task: Omit<WorkerTask, 'seeds'>;
  /** seconds one case may take */
  timeout: number;
  /** called with each result as it arrives (and the mechanism's listing with task.verbose) */
  onResult?: (r: CaseResult, listing?: string) => void;
  /** the worker script (default worker.mjs; tests give a stand-in) */
  worker?: URL;
}

/** a case the worker did not finish, with its seed */
function lost(seed: number, kind: 'crash' | 'timeout', detail: string): CaseResult {
  return { seed, shape: '(not known: the worker did not answer)', failure: { kind, detail } };
}

export function runBatch(seeds: readonly number[], o: BatchOptions): Promise<CaseResult[]> {
  return new Promise((resolve) => {
    const out: CaseResult[] = [];
    const w = new Worker(o.worker ?? new URL('./worker.mjs', import.meta.url), { workerData: { ...o.task, seeds } satisfies WorkerTask });
    let running: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const record = (r: CaseResult, listing?: string) => {
      out.push(r);
      o.onResult?.(r, listing);
    };
    // the case that was running is lost; a fresh worker takes the rest
    const finish = (last?: CaseResult) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (last) record(last);
      const rest = seeds.slice(out.length);
      if (rest.length === 0) resolve(out);
      else void runBatch(rest, o).then((more) => resolve([...out, ...more]));
    };
    const died = (why: string) => {
      if (running !== undefined) return finish(lost(running, 'crash', `the worker died while running this case: ${why}`));
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      for (const seed of seeds.slice(out.length)) record(lost(seed, 'crash', `the worker failed outside any case: ${why}`));
      resolve(out);
    };
    w.on('message', (m: WorkerMessage) => {
      if (finished) return;
      if ('started' in m) {
        running = m.started;
        clearTimeout(timer);
        timer = setTimeout(() => {
          finish(
            lost(
              m.started,
              'timeout',
              `no answer after ${o.timeout} s: the worker was stopped (reproduce: npm run fuzz -- --seed ${m.started} --cases 1${o.task.small ? ' --small' : ''} --family ${o.task.family} --verbose)`,
            ),
          );
          void w.terminate();
        }, o.timeout * 1000);
        return;
      }
      running = undefined;
      record(m.result, m.listing);
    });
    w.on('error', (e) => died(e instanceof Error ? `${e.name}: ${e.message}` : String(e)));
    w.on('exit', (code) => (out.length === seeds.length ? finish() : died(`exit code ${code}`)));
  });
}
