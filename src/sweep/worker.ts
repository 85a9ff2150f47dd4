// A worker of queued sweeps (kron worker --queue): a BullMQ worker whose jobs
// are runs. The first job of a sweep reads the sweep record (portable model
// and settings) and starts a thread pool for it, so the event loop stays
// free to renew the jobs' locks while runs compute; each outcome is written
// to the sweep's results before the job completes. A worker that dies holds
// its jobs' locks no longer: after lockDuration another worker's stalled-job
// check puts them back in the queue, and they run again.
import { Worker } from 'bullmq';
import { SweepPool } from './pool.ts';
import { type JobData, QUEUE_NAME, type SweepRecord, connectRedis, doneKey, encodeOutcome, recordKey, redisOptions, resultsKey } from './redis.ts';

export interface WorkerOptions {
  /** runs at a time, each on a thread of its own (default: the number of cores) */
  readonly workers: number;
  /** ms a job stays locked to this worker without a renewal (BullMQ default 30000) */
  readonly lockDuration?: number;
  /** ms between checks for jobs whose worker died (BullMQ default 30000) */
  readonly stalledInterval?: number;
  /** one line per run started and finished */
  readonly log?: (line: string) => void;
  /** connection and job failures, once each */
  readonly warn?: (line: string) => void;
}

export interface SweepWorker {
  /** finishes the runs in hand, then stops */
  close(): Promise<void>;
}

export async function startWorker(url: string, options: WorkerOptions): Promise<SweepWorker> {
  const connection = redisOptions(url);
  const redis = await connectRedis(url);
  // one sweep's pool at a time: a job of another sweep replaces it
  let current: { hash: string; pool: Promise<SweepPool> } | undefined;
  const poolFor = async (hash: string): Promise<SweepPool> => {
    if (current?.hash === hash) return current.pool;
    const old = current;
    const pool = (async () => {
      const text = await redis.get(recordKey(hash));
      if (text === null) throw new Error(`no sweep record ${recordKey(hash)} in Redis`);
      const record = JSON.parse(text) as SweepRecord;
      return new SweepPool(record.model, record.settings, options.workers);
    })();
    current = { hash, pool };
    if (old) void old.pool.then((p) => p.close(), () => {});
    return pool;
  };
  const worker = new Worker<JobData>(
    QUEUE_NAME,
    async (job) => {
      const { sweep, task } = job.data;
      options.log?.(`run ${task.index} of sweep ${sweep}: started`);
      const outcome = await (await poolFor(sweep)).run(task);
      await redis.multi().hset(resultsKey(sweep), String(task.index), encodeOutcome(outcome)).rpush(doneKey(sweep), String(task.index)).exec();
      options.log?.(`run ${task.index} of sweep ${sweep}: ${outcome.status}`);
      return { index: task.index, status: outcome.status };
    },
    // BullMQ's defaults where not given: an undefined setting would override them
    { connection, concurrency: options.workers, maxStalledCount: 2, ...(options.lockDuration && { lockDuration: options.lockDuration }), ...(options.stalledInterval && { stalledInterval: options.stalledInterval }) },
  );
  // a lost connection is retried by ioredis; say so once per kind of failure, not at every attempt
  const said = new Set<string>();
  worker.on('error', (e) => {
    if (!said.has(e.message)) said.add(e.message), options.warn?.(`worker error: ${e.message}`);
  });
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      if (current) await (await current.pool).close();
      redis.disconnect();
    },
  };
}
