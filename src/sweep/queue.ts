// The producer of a queued sweep (kron sweep --queue): writes the signed
// sweep record, enqueues every run not yet done as a BullMQ job (job id from
// the sweep hash and the run index, so enqueueing twice is a no-op), then
// collects the outcomes the workers write, in run order, each checked
// against the key (messages.ts). It is never silent and never waits forever:
//   - a run whose job failed for good is an error row; the same command again retries it;
//   - a result whose signature does not match is refused: an error row, a
//     line on stderr, and the same command again runs it anew (automatic
//     reruns would let whoever forges results keep the sweep going forever);
//   - Redis unreachable: a line per reconnection attempt, then a QueueError
//     after --queue-timeout;
//   - Redis back without the sweep (restarted without persistence, flushed,
//     evicted): the record is written again and the runs not collected are
//     enqueued again;
//   - no result for --queue-timeout: a line with the queue's counts, and runs
//     whose jobs are gone from Redis are enqueued again.
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CompiledModel } from '../codegen/compiled.ts';
import { QueueError, UsageError } from '../errors.ts';
import { VERSION } from '../node/package.ts';
import type { RunOutcome, RunSettings, RunTask } from './run.ts';
import { isOutcome } from './tasks.ts';
import { RECORD_FORMAT, type SweepRecord, jobMessage, readJob, readResult, recordMessage } from './messages.ts';
import {
  type QueueSetup,
  type QueueTarget,
  QUEUE_NAME,
  Reconnection,
  connectRedis,
  doneKey,
  jobId,
  recordKey,
  resolveQueue,
  resultPlace,
  resultsKey,
  sweepHash,
} from './redis.ts';
import { RefusedMessage } from './signing.ts';
import { sha256 } from './worker-files.ts';

const POLL_MS = 100;
/** failed jobs are listed when their count changes, and at least this often (polls) */
const FAILED_EVERY = 50;
/** runs whose jobs are looked up after a quiet period: the first ones, which the ordered output waits for */
const LOOKED_UP = 1000;
/** the producer's reconnection attempts come at most this far apart */
const MAX_RETRY_MS = 2000;
/**
 * Completed jobs are kept a day: a run that completes between a producer's
 * look at the results and its enqueueing would otherwise be enqueued again
 * (its id free once the job is removed); after a day its result alone says
 * it is done.
 */
const KEEP_DONE_S = 24 * 3600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// (Redis URL or config, model compiled here, runs or their early outcomes, settings) => outcomes in run order
export async function* runQueued(
  target: QueueTarget,
  compiled: CompiledModel,
  tasks: readonly (RunTask | RunOutcome)[],
  settings: RunSettings,
  onDone?: () => void,
): AsyncGenerator<RunOutcome> {
  const setup = resolveQueue(target);
  const record = sweepRecord(compiled, settings);
  const reconnection = new Reconnection(setup, true, MAX_RETRY_MS);
  const redis = await connectRedis(setup, reconnection);
  // one connection, shared: BullMQ's commands wait for the same reconnections and give up with it
  const queue: Queue = new Queue(QUEUE_NAME, { connection: redis });
  queue.on('error', () => {}); // its failures reach the calls below as rejections
  try {
    const producer = new Producer(setup, redis, queue, record, tasks, onDone);
    await producer.start();
    yield* producer.collect();
  } catch (e) {
    if (reconnection.gaveUp) {
      throw new QueueError(`${reconnection.gaveUp}: the sweep stops`, {
        hint: 'start Redis again (with --appendonly yes it keeps the queue) and run the same command: the runs already done are kept; or allow longer with --queue-timeout',
      });
    }
    throw e;
  } finally {
    await Promise.race([queue.close(), sleep(1000)]);
    redis.disconnect();
  }
}

// (compiled model, run settings) => the record: no path of this machine, the metric by name and content
export function sweepRecord(compiled: CompiledModel, settings: RunSettings): SweepRecord {
  const { metric, detail, ...rest } = settings;
  const shared = {
    ...rest,
    ...(metric !== undefined && { metric: { name: basename(metric), sha256: sha256(readMetric(metric)) } }),
    ...(detail !== undefined && { detail: basename(resolve(detail)) }),
  };
  return { format: RECORD_FORMAT, kron: VERSION, model: compiled.portable(), settings: shared };
}

function readMetric(file: string): Buffer {
  if (!existsSync(file))
    throw new UsageError(`--metric ${file} not found`, { hint: 'give the path of a module whose default export is (result) => number | { name: number }' });
  return readFileSync(file);
}

class Producer {
  private readonly outcomes = new Map<number, RunOutcome>();
  private readonly runs: ReadonlyMap<number, RunTask>;
  private readonly count: number;
  private readonly hash: string;
  private failedSeen = -1;

  constructor(
    private readonly setup: QueueSetup,
    private readonly redis: Redis,
    private readonly queue: Queue,
    private readonly record: SweepRecord,
    tasks: readonly (RunTask | RunOutcome)[],
    private readonly onDone?: () => void,
  ) {
    const runs = tasks.filter((t): t is RunTask => !isOutcome(t));
    this.runs = new Map(runs.map((t) => [t.index, t]));
    this.hash = sweepHash(record, runs);
    this.count = tasks.length;
    for (const t of tasks) if (isOutcome(t)) this.add(t);
  }

  /** the record, the results already in Redis (a second producer collects them), the jobs of the other runs */
  async start(): Promise<void> {
    await this.writeRecord();
    const refused = new Set<number>();
    for (const [field, text] of Object.entries(await this.redis.hgetall(resultsKey(this.hash)))) {
      const index = Number(field);
      if (!this.runs.has(index) || this.outcomes.has(index)) continue;
      const outcome = await this.read(index, text);
      if (outcome) this.add(outcome);
      else refused.add(index); // run anew: its job, completed with a forged result, is replaced
    }
    const todo = this.pending();
    this.setup.log(
      `kron sweep: sweep ${this.hash} on ${this.setup.shown} (key id ${this.setup.key.id}): ${this.count} runs, ${this.count - todo.length} done, ${todo.length} enqueued`,
    );
    await this.warnWithoutPersistence();
    await this.enqueue(todo, refused);
  }

  /** the outcomes in run order, as they arrive */
  async *collect(): AsyncGenerator<RunOutcome> {
    let next = 0,
      cursor = 0,
      polls = 0,
      quietSince = Date.now();
    while (next < this.count) {
      while (this.outcomes.has(next)) yield this.outcomes.get(next++)!;
      if (next >= this.count) break;
      await sleep(POLL_MS);
      const before = this.outcomes.size;
      const [exists, length, finished] = await this.look(cursor);
      if (!exists) {
        await this.recover();
        cursor = 0; // the list of finished runs went with the record
        continue;
      }
      // a list shorter than what was read of it was lost and begun anew (Redis back from an older snapshot): read it again
      if (length < cursor) cursor = 0;
      else cursor += finished.length;
      await this.collectResults(finished);
      await this.collectFailed(++polls % FAILED_EVERY === 0);
      if (this.outcomes.size > before) quietSince = Date.now();
      else if (Date.now() - quietSince >= this.setup.timeoutMs) (await this.quiet(Date.now() - quietSince), (quietSince = Date.now()));
    }
  }

  private add(o: RunOutcome): void {
    this.outcomes.set(o.index, o);
    this.onDone?.();
  }

  private pending(): number[] {
    return [...this.runs.keys()].filter((i) => !this.outcomes.has(i));
  }

  private async writeRecord(): Promise<void> {
    await this.redis.set(recordKey(this.hash), recordMessage(this.setup.key, recordKey(this.hash), this.record));
  }

  /** whether the record is still there, the length of the list of finished runs, and those since the cursor */
  private async look(cursor: number): Promise<[boolean, number, string[]]> {
    const replies = (await this.redis.pipeline().exists(recordKey(this.hash)).llen(doneKey(this.hash)).lrange(doneKey(this.hash), cursor, -1).exec())!;
    for (const [error] of replies) if (error) throw error;
    return [replies[0][1] === 1, replies[1][1] as number, replies[2][1] as string[]];
  }

  private async collectResults(finished: readonly (string | number)[]): Promise<void> {
    const fresh = [...new Set(finished.map(Number))].filter((i) => this.runs.has(i) && !this.outcomes.has(i));
    if (!fresh.length) return;
    const texts = await this.redis.hmget(resultsKey(this.hash), ...fresh.map(String));
    for (const [k, index] of fresh.entries()) {
      const text = texts[k];
      if (text === null) continue; // listed but not (or no longer) stored: its job is still there, or the quiet check finds it gone
      const outcome = await this.read(index, text);
      this.add(
        outcome ?? {
          index,
          status: 'error',
          error: `QueueError: the result in Redis was refused (see the producer's stderr); the same command again runs it anew`,
          metrics: {},
        },
      );
    }
  }

  /** a stored result, or undefined when refused: then it is said, deleted, and its job removed so that the run can be enqueued again */
  private async read(index: number, text: string): Promise<RunOutcome | undefined> {
    try {
      return readResult(this.setup.key, resultPlace(this.hash, index), index, text);
    } catch (e) {
      if (!(e instanceof RefusedMessage)) throw e;
      this.setup.log(`refused the result of run ${index}: ${e.message}; its row is an error, and the same command again runs it anew`);
      await this.redis.hdel(resultsKey(this.hash), String(index));
      await this.removeFinished([index]);
      return undefined;
    }
  }

  /** runs whose jobs failed for good are error rows; failed jobs not signed with the key are not this sweep's */
  private async collectFailed(anyway: boolean): Promise<void> {
    const count = await this.queue.getFailedCount();
    if (count === 0 || (count === this.failedSeen && !anyway)) return;
    this.failedSeen = count;
    for (const job of await this.queue.getJobs(['failed'])) {
      if (!job.id?.startsWith(`${this.hash}-`)) continue;
      let index: number;
      try {
        index = readJob(this.setup.key, job.id, job.data).task.index;
      } catch (e) {
        if (e instanceof RefusedMessage) continue;
        throw e;
      }
      if (this.runs.has(index) && !this.outcomes.has(index))
        this.add({ index, status: 'error', error: `QueueError: the job failed after ${job.attemptsMade} attempts: ${job.failedReason}`, metrics: {} });
    }
  }

  /** the record is gone: Redis lost its data; everything not collected is enqueued again */
  private async recover(): Promise<void> {
    const pending = this.pending();
    this.setup.log(
      `the sweep record ${recordKey(this.hash)} is gone from Redis (restarted without persistence, flushed, or evicted): writing it again and enqueueing the ${pending.length} runs not yet collected again`,
    );
    await this.writeRecord();
    await this.enqueue(pending, new Set(pending));
  }

  /** no result for a while: say what the queue holds, and enqueue again the first runs whose jobs are gone */
  private async quiet(ms: number): Promise<void> {
    const pending = this.pending();
    const c = await this.queue.getJobCounts('active', 'waiting', 'prioritized', 'delayed', 'failed');
    const first = pending.slice(0, LOOKED_UP);
    // results stored but not listed as finished (the list lost), then jobs lost
    await this.collectResults(first);
    const states = await Promise.all(first.map((i) => this.queue.getJobState(jobId(this.hash, i))));
    // said after every read: the counts and the lost jobs below are one look at the queue (jobs that go after
    // the line is written are found by the next quiet report, not by this one half-way)
    this.setup.log(
      `no result for ${(ms / 1000).toFixed(1)} s: ${pending.length} of ${this.count} runs to go; the queue holds ${c.active} active, ${c.waiting + c.prioritized} waiting, ${c.delayed} delayed jobs: is a kron worker running on ${this.setup.shown} with the same key (key id ${this.setup.key.id})?`,
    );
    const lost = first.filter((i, k) => !this.outcomes.has(i) && (states[k] === 'unknown' || states[k] === 'completed'));
    if (!lost.length) return;
    this.setup.log(`${lost.length} runs had no job in Redis (lost, or completed without a result): enqueued again`);
    await this.enqueue(lost, new Set(lost));
  }

  /** jobs for these runs; failed ones are removed first (so that adding them retries them), and so are finished ones of `replace` */
  private async enqueue(indices: readonly number[], replace: ReadonlySet<number>): Promise<void> {
    await this.removeFailed(new Set(indices));
    await this.removeFinished(indices.filter((i) => replace.has(i)));
    const key = this.setup.key;
    // a job with an id that exists is not added again: a second producer adds only what is missing;
    // attempts: a job whose processing threw (the record not there yet, a worker without the sweep's
    // metric) is tried again a second later, perhaps by another worker
    for (let k = 0; k < indices.length; k += LOOKED_UP) {
      const jobs = indices.slice(k, k + LOOKED_UP).map((i) => {
        const id = jobId(this.hash, i);
        return {
          name: 'run',
          data: jobMessage(key, id, this.hash, this.runs.get(i)!),
          opts: { jobId: id, attempts: 3, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: { age: KEEP_DONE_S }, removeOnFail: false },
        };
      });
      await this.queue.addBulk(jobs);
    }
  }

  private async removeFailed(indices: ReadonlySet<number>): Promise<void> {
    if ((await this.queue.getFailedCount()) === 0) return;
    const prefix = `${this.hash}-`;
    for (const job of await this.queue.getJobs(['failed'])) {
      if (job.id?.startsWith(prefix) && indices.has(Number(job.id.slice(prefix.length)))) await job.remove();
    }
  }

  /** completed or failed jobs of these runs are removed (an active or waiting one stays: it is on its way) */
  private async removeFinished(indices: readonly number[]): Promise<void> {
    for (let k = 0; k < indices.length; k += LOOKED_UP) {
      await Promise.all(
        indices.slice(k, k + LOOKED_UP).map(async (i) => {
          const id = jobId(this.hash, i);
          const state = await this.queue.getJobState(id);
          if (state === 'completed' || state === 'failed') await this.queue.remove(id);
        }),
      );
    }
  }

  /** BullMQ's production guide asks for persistence: say when it is off (INFO may be refused to an ACL user: then nothing is said) */
  private async warnWithoutPersistence(): Promise<void> {
    const info = await this.redis.info('persistence').catch(() => '');
    if (/^aof_enabled:0/m.test(info)) {
      this.setup.log(
        `warning: Redis at ${this.setup.shown} keeps no append-only file (appendonly no): a restart loses the queue; this producer enqueues again what is lost while it runs (docs/guide/sweeps.md: Deploying the queue safely)`,
      );
    }
  }
}
