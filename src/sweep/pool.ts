// Every core of one machine: a worker_threads pool (piscina: a maintained
// pool with a task queue, and a thread that dies is replaced). Each thread
// gets the compiled model's portable form once, as workerData, and runs
// tasks of one run each.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { PortableModel } from '../codegen/compiled.ts';
import { UsageError } from '../errors.ts';
import type { PoolData } from './pool-task.ts';
import type { RunOutcome, RunSettings, RunTask } from './run.ts';

// this file is TypeScript when Kron runs from its sources: threads need the loader first (pool-entry.mjs)
const entry = import.meta.url.endsWith('.ts') ? new URL('./pool-entry.mjs', import.meta.url) : new URL('./pool-task.js', import.meta.url);

export const defaultWorkers = (): number => availableParallelism();

export function checkWorkers(workers: number, flag = '--workers'): number {
  if (!Number.isInteger(workers) || workers < 1)
    throw new UsageError(`${flag} must be a whole number >= 1, got ${workers}`, { hint: `e.g. ${flag} ${defaultWorkers()} (the number of cores here)` });
  return workers;
}

export class SweepPool {
  private readonly piscina: Piscina<RunTask, RunOutcome>;
  private closing = false;

  constructor(
    model: PortableModel,
    settings: RunSettings,
    readonly workers: number,
  ) {
    const workerData: PoolData = { model, settings };
    // required here, not imported at the top: `import 'kron'` in every model module should not load the pool
    const { Piscina: Pool } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
    this.piscina = new Pool({ filename: entry.href, workerData, minThreads: checkWorkers(workers), maxThreads: workers, idleTimeout: 60_000 });
    // a run that finishes while the pool is destroyed (a consumer that stopped early: sweep()'s iterator left
    // with break) posts a result piscina no longer knows, which it emits as an error: nobody waits for it then.
    // Before close(), piscina's errors stay what they were without a listener: thrown.
    this.piscina.on('error', (e: unknown) => {
      if (!this.closing)
        process.nextTick(() => {
          throw e;
        });
    });
  }

  run(task: RunTask): Promise<RunOutcome> {
    return this.piscina.run(task);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.piscina.destroy();
  }
}
