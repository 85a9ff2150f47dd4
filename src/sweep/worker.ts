// A worker of queued sweeps (kron worker --queue): a BullMQ worker whose jobs
// are runs. Every job and sweep record is checked against the signing key
// before anything of it is used (messages.ts): a forged one is refused, said
// once on stderr, and never run. The first job of a sweep reads its record
// and starts a thread pool for it (keyed by the sweep's hash, which covers
// the model's code and the metric's content), so the event loop stays free
// to renew the jobs' locks while runs compute; each outcome is signed and
// written to the sweep's results before the job completes. A worker that
// dies holds its jobs' locks no longer: after lockDuration another worker's
// stalled-job check puts them back in the queue, and they run again.
import { type Job, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { SweepPool } from './pool.ts';
import type { RunOutcome } from './run.ts';
import { readJob, readRecord, resultMessage } from './messages.ts';
import {
  type QueueSetup,
  type QueueTarget,
  QUEUE_NAME,
  Reconnection,
  backoff,
  connectRedis,
  doneKey,
  recordKey,
  resolveQueue,
  resultPlace,
  resultsKey,
} from './redis.ts';
import { RefusedMessage } from './signing.ts';
import { VERSION } from '../node/package.ts';
import { type WorkerFolders, WorkerSetupError, localSettings } from './worker-files.ts';

/** pools of recent sweeps kept open (two producers may share a queue) */
const KEPT_POOLS = 2;
/** a worker keeps reconnecting, at most this far apart */
const MAX_RETRY_MS = 5000;
/** how long a stop waits for BullMQ to put the abandoned jobs back */
const CLOSE_WAIT_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export interface WorkerOptions extends WorkerFolders {
  /** runs at a time, each on a thread of its own (default: the number of cores) */
  readonly workers: number;
  /** ms a job stays locked to this worker without a renewal (BullMQ default 30000) */
  readonly lockDuration?: number;
  /** ms between checks for jobs whose worker died (BullMQ default 30000) */
  readonly stalledInterval?: number;
  /** one line per run started and finished */
  readonly log?: (line: string) => void;
}

export interface SweepWorker {
  /** the key's id, printed so that an operator can tell it is the producer's */
  readonly keyId: string;
  /** the URL without its password */
  readonly shown: string;
  /** runs in hand, and whether Redis answers now */
  state(): { running: number; connected: boolean };
  /**
   * Stops taking jobs and lets the runs in hand finish, until `abandon`
   * resolves (or at once when Redis is unreachable): then the runs still in
   * hand are stopped and their jobs put back in the queue for another worker.
   */
  close(abandon?: Promise<unknown>): Promise<{ finished: number; abandoned: number[] }>;
}

export async function startWorker(target: QueueTarget, options: WorkerOptions): Promise<SweepWorker> {
  const setup = resolveQueue(target);
  const reconnection = new Reconnection(setup, false, MAX_RETRY_MS);
  const redis = await connectRedis(setup, reconnection);
  const said = saidOnce(setup.log);
  const pools = new SweepPools(setup, redis, options, said);
  // the runs in hand, and how to let go of them
  const inHand = new Map<string, { index: number; abandon: () => void }>();
  let finished = 0;
  const worker = new Worker(
    QUEUE_NAME,
    async (job: Job, token?: string) => {
      let sweep: string, task;
      try {
        ({ sweep, task } = readJob(setup.key, job.id ?? '', job.data));
      } catch (e) {
        if (!(e instanceof RefusedMessage)) throw e;
        said(`refused job ${job.id}: ${e.message}; it is not run`);
        throw new UnrecoverableError(`refused by a worker: ${e.message}`);
      }
      options.log?.(`run ${task.index} of sweep ${sweep}: started`);
      let letGo!: () => void;
      const abandoned = new Promise<'abandoned'>((resolve) => (letGo = () => resolve('abandoned')));
      inHand.set(job.id!, { index: task.index, abandon: letGo });
      let outcome: RunOutcome | 'abandoned';
      try {
        outcome = await Promise.race([pools.run(sweep, task), abandoned]);
      } catch (e) {
        // a run's own failure is its outcome; this is the pool failing (the metric module does not load...): said once
        if (!(e instanceof UnrecoverableError) && !(e instanceof WorkerSetupError))
          said(`sweep ${sweep}: a run failed on this worker: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      } finally {
        inHand.delete(job.id!);
      }
      if (outcome === 'abandoned') {
        // back to the queue at once, without counting as an attempt (when Redis answers; else its lock expires)
        if (redis.status === 'ready') await job.moveToWait(token);
        throw new WaitingError();
      }
      await redis
        .multi()
        .hset(resultsKey(sweep), String(task.index), resultMessage(setup.key, resultPlace(sweep, task.index), outcome))
        .rpush(doneKey(sweep), String(task.index))
        .exec();
      finished++;
      options.log?.(`run ${task.index} of sweep ${sweep}: ${outcome.status}`);
      return { index: task.index, status: outcome.status };
    },
    // twice as many jobs in hand as threads: the next run waits in the pool's queue while a result goes
    // to Redis and a job is fetched, so no thread idles on a round trip; BullMQ's defaults where not
    // given (an undefined setting would override them)
    {
      connection: { ...setup.connection, retryStrategy: (attempt: number) => backoff(attempt, MAX_RETRY_MS) },
      concurrency: 2 * options.workers,
      maxStalledCount: 2,
      ...(options.lockDuration && { lockDuration: options.lockDuration }),
      ...(options.stalledInterval && { stalledInterval: options.stalledInterval }),
    },
  );
  // its connections' losses are said by the Reconnection of ours, one line per attempt; other failures once each
  worker.on('error', (e) => {
    if (/ECONNREFUSED|ECONNRESET|Connection is closed|ETIMEDOUT|EHOSTUNREACH/.test(e.message)) return;
    // BullMQ's words for a job that vanished under a run (Redis restarted empty) or was handed to another worker
    const gone = /^Missing key for job (\S+)\./.exec(e.message),
      lock = /^could not renew lock for job (\S+)/.exec(e.message);
    if (gone)
      said(
        `job ${gone[1]} is gone from Redis (restarted without persistence, or removed): its result is written, and the producer enqueues again what it lacks`,
      );
    else if (lock) said(`job ${lock[1]}: its lock could not be renewed (Redis restarted empty, or the job went to another worker after --lock-duration)`);
    else said(`worker error: ${e.message}`);
  });
  await worker.waitUntilReady();
  return {
    keyId: setup.key.id,
    shown: setup.shown,
    state: () => ({ running: inHand.size, connected: redis.status === 'ready' }),
    async close(abandon = new Promise(() => {})) {
      // without Redis, BullMQ's close would wait for it: the runs in hand are let go at once
      const connected = redis.status === 'ready';
      const closing = connected ? worker.close() : undefined;
      const outcome = closing ? await Promise.race([closing.then(() => 'closed' as const), abandon.then(() => 'abandon' as const)]) : 'abandon';
      const abandoned = [...inHand.values()].map((r) => r.index);
      if (outcome === 'abandon') {
        for (const r of inHand.values()) r.abandon();
        await pools.close(); // the threads stop, in the middle of their runs
        // a Redis lost in the meantime must not hold the stop: the jobs' locks expire then
        await Promise.race([closing ?? worker.close(true), sleep(CLOSE_WAIT_MS)]);
      }
      await pools.close();
      redis.disconnect();
      return { finished, abandoned };
    },
  };
}

/** the thread pools of the sweeps this worker runs, made at a sweep's first job from its checked record */
class SweepPools {
  private readonly pools = new Map<string, { pool: Promise<SweepPool>; running: number }>();

  constructor(
    private readonly setup: QueueSetup,
    private readonly redis: Redis,
    private readonly options: WorkerOptions,
    private readonly said: (line: string) => void,
  ) {}

  async run(hash: string, task: Parameters<SweepPool['run']>[0]): Promise<RunOutcome> {
    const entry = this.entry(hash);
    entry.running++;
    try {
      return await (await entry.pool).run(task);
    } finally {
      entry.running--;
      this.closeIdle();
    }
  }

  async close(): Promise<void> {
    const entries = [...this.pools.values()];
    this.pools.clear();
    for (const entry of entries)
      await entry.pool.then(
        (p) => p.close(),
        () => {},
      );
  }

  private entry(hash: string) {
    let entry = this.pools.get(hash);
    if (!entry) {
      const pool = this.open(hash);
      pool.catch(() => this.pools.delete(hash)); // a record that is missing now may be there at the job's retry
      entry = { pool, running: 0 };
    }
    this.pools.delete(hash);
    this.pools.set(hash, entry); // the Map's order is the order of use
    return entry;
  }

  /** the sweep's record, checked, and a pool for it; a forged record is refused for good, a worker without the sweep's metric lets another worker try */
  private async open(hash: string): Promise<SweepPool> {
    const key = recordKey(hash);
    const text = await this.redis.get(key);
    if (text === null) throw new Error(`no sweep record ${key} in Redis`);
    try {
      const record = readRecord(this.setup.key, key, text);
      if (record.kron !== VERSION)
        throw new RefusedMessage(`the record at ${key} comes from Kron ${record.kron} and this worker is Kron ${VERSION}: run the same version on both`);
      return new SweepPool(record.model, localSettings(record.settings, this.options), this.options.workers);
    } catch (e) {
      if (e instanceof RefusedMessage) {
        this.said(`refused the sweep record ${key}: ${e.message}; none of it runs`);
        throw new UnrecoverableError(`refused by a worker: ${e.message}`);
      }
      if (e instanceof WorkerSetupError) this.said(`sweep ${hash}: ${e.message}`);
      throw e;
    }
  }

  private closeIdle(): void {
    for (const [hash, entry] of [...this.pools].slice(0, -KEPT_POOLS)) {
      if (entry.running === 0)
        (this.pools.delete(hash),
          void entry.pool.then(
            (p) => p.close(),
            () => {},
          ));
    }
  }
}

/** a line said once: the same refusal for every job of a forged sweep is one line */
function saidOnce(log: (line: string) => void): (line: string) => void {
  const said = new Set<string>();
  return (line) => {
    if (said.has(line)) return;
    said.add(line);
    log(line);
  };
}
