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

/** pools of recent sweeps kept open (two producers may share a queue) */
const KEPT_POOLS = 2;

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
  // a pool per sweep, made at its first job; pools of other sweeps are closed once idle, beyond the few most recent
  const pools = new Map<string, { pool: Promise<SweepPool>; running: number }>();
  const poolFor = (hash: string) => {
    let entry = pools.get(hash);
    if (!entry) {
      const pool = (async () => {
        const text = await redis.get(recordKey(hash));
        if (text === null) throw new Error(`no sweep record ${recordKey(hash)} in Redis`);
        const record = JSON.parse(text) as SweepRecord;
        return new SweepPool(record.model, record.settings, options.workers);
      })();
      pool.catch(() => pools.delete(hash)); // a record that is missing now may be there at the job's retry
      entry = { pool, running: 0 };
    }
    pools.delete(hash);
    pools.set(hash, entry); // the Map's order is the order of use
    return entry;
  };
  const closeIdle = () => {
    for (const [hash, entry] of [...pools].slice(0, -KEPT_POOLS)) {
      if (entry.running === 0) pools.delete(hash), void entry.pool.then((p) => p.close(), () => {});
    }
  };
  const worker = new Worker<JobData>(
    QUEUE_NAME,
    async (job) => {
      const { sweep, task } = job.data;
      options.log?.(`run ${task.index} of sweep ${sweep}: started`);
      const entry = poolFor(sweep);
      entry.running++;
      let outcome;
      try {
        outcome = await (await entry.pool).run(task);
      } finally {
        entry.running--;
        closeIdle();
      }
      await redis.multi().hset(resultsKey(sweep), String(task.index), encodeOutcome(outcome)).rpush(doneKey(sweep), String(task.index)).exec();
      options.log?.(`run ${task.index} of sweep ${sweep}: ${outcome.status}`);
      return { index: task.index, status: outcome.status };
    },
    // twice as many jobs in hand as threads: the next run waits in the pool's queue while a result goes
    // to Redis and a job is fetched, so no thread idles on a round trip; BullMQ's defaults where not
    // given (an undefined setting would override them)
    { connection, concurrency: 2 * options.workers, maxStalledCount: 2, ...(options.lockDuration && { lockDuration: options.lockDuration }), ...(options.stalledInterval && { stalledInterval: options.stalledInterval }) },
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
      for (const entry of pools.values()) await entry.pool.then((p) => p.close(), () => {});
      redis.disconnect();
    },
  };
}
