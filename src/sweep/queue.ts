// The producer of a queued sweep (kron sweep --queue): writes the sweep record,
// enqueues every run not yet done as a BullMQ job (job id from the sweep hash
// and the run index, so enqueueing twice is a no-op), then collects the
// outcomes the workers write, in run order. A run whose job failed for good
// (its workers died more often than BullMQ's stalled-job limit allows) is an
// error row; the same command again retries exactly those runs.
import { Queue } from 'bullmq';
import type { CompiledModel } from '../codegen/compiled.ts';
import type { RunOutcome, RunSettings, RunTask } from './run.ts';
import { isOutcome } from './tasks.ts';
import { type JobData, QUEUE_NAME, type SweepRecord, connectRedis, decodeOutcome, doneKey, jobId, recordKey, redisOptions, resultsKey, sweepHash } from './redis.ts';

const POLL_MS = 100;
/**
 * Completed jobs are kept a day: a run that completes between a producer's
 * look at the results and its enqueueing would otherwise be enqueued again
 * (its id free once the job is removed); after a day its result alone says
 * it is done.
 */
const KEEP_DONE_S = 24 * 3600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// (Redis URL, model compiled here, runs or their early outcomes, settings) => outcomes in run order
export async function* runQueued(url: string, compiled: CompiledModel, tasks: readonly (RunTask | RunOutcome)[], settings: RunSettings, onDone?: () => void): AsyncGenerator<RunOutcome> {
  const redis = await connectRedis(url);
  const queue: Queue = new Queue(QUEUE_NAME, { connection: redisOptions(url) });
  queue.on('error', () => {}); // its connection's failures reach the calls below as rejections
  try {
    const model = compiled.portable();
    const runs = tasks.filter((t): t is RunTask => !isOutcome(t));
    const hash = sweepHash(model, settings, runs);
    const record: SweepRecord = { model, settings };
    await redis.set(recordKey(hash), JSON.stringify(record));
    const outcomes = new Map<number, RunOutcome>();
    for (const t of tasks) if (isOutcome(t)) outcomes.set(t.index, t);
    for (const [index, text] of Object.entries(await redis.hgetall(resultsKey(hash)))) outcomes.set(Number(index), decodeOutcome(text));
    for (let i = 0; i < outcomes.size; i++) onDone?.();
    const todo = runs.filter((t) => !outcomes.has(t.index));
    await retryFailed(queue, hash, new Set(todo.map((t) => t.index)));
    // a job with an id that exists is not added again: a second producer adds only what is missing;
    // attempts: a job whose processing threw (the sweep record not readable yet) is tried again
    await queue.addBulk(todo.map((task) => ({ name: 'run', data: { sweep: hash, task }, opts: { jobId: jobId(hash, task.index), attempts: 3, removeOnComplete: { age: KEEP_DONE_S }, removeOnFail: false } })));
    let cursor = 0, next = 0;
    while (next < tasks.length) {
      while (outcomes.has(next)) yield outcomes.get(next++)!;
      if (next >= tasks.length) break;
      await sleep(POLL_MS);
      // the indices finished since the last look, then their outcomes
      const finished = await redis.lrange(doneKey(hash), cursor, -1);
      cursor += finished.length;
      const fresh = [...new Set(finished.map(Number))].filter((i) => !outcomes.has(i));
      if (fresh.length) {
        const texts = await redis.hmget(resultsKey(hash), ...fresh.map(String));
        fresh.forEach((i, k) => texts[k] !== null && (outcomes.set(i, decodeOutcome(texts[k]!)), onDone?.()));
      }
      for (const o of await failedOutcomes(queue, hash, outcomes)) (outcomes.set(o.index, o), onDone?.());
    }
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** this sweep's jobs that failed for good, as error outcomes (runs already done excluded) */
async function failedOutcomes(queue: Queue, hash: string, outcomes: ReadonlyMap<number, RunOutcome>): Promise<RunOutcome[]> {
  if ((await queue.getFailedCount()) === 0) return [];
  const failed = await queue.getJobs(['failed']);
  return failed
    .filter((job) => job.id?.startsWith(`${hash}-`) && !outcomes.has((job.data as JobData).task.index))
    .map((job) => ({ index: (job.data as JobData).task.index, status: 'error' as const, error: `QueueError: the job failed after ${job.attemptsMade} attempts: ${job.failedReason}`, metrics: {} }));
}

/** failed jobs of runs still to do are removed, so that adding them again retries them */
async function retryFailed(queue: Queue, hash: string, todo: ReadonlySet<number>): Promise<void> {
  if ((await queue.getFailedCount()) === 0) return;
  for (const job of await queue.getJobs(['failed'])) {
    if (job.id?.startsWith(`${hash}-`) && todo.has((job.data as JobData).task.index)) await job.remove();
  }
}
