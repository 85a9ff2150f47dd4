// What the producer (kron sweep --queue) and the workers (kron worker) of a
// queued sweep share: the Redis connection from a URL, the queue's name,
// the keys of a sweep and how a run's outcome travels through Redis.
//   kron:sweep:<hash>          the sweep record: portable model and run settings
//   kron:sweep:<hash>:results  hash run index -> outcome (JSON)
//   kron:sweep:<hash>:done     list of the run indices as they finished (a retried run may appear twice)
// The hash is of the model's code and defaults, the settings and every run's
// values: the same command gives the same hash, so a second producer finds
// the runs already done and enqueues only the others.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { UsageError } from '../errors.ts';
import type { PortableModel } from '../codegen/compiled.ts';
import type { RunOutcome, RunSettings, RunTask } from './run.ts';

export const QUEUE_NAME = 'kron-sweep';

export const recordKey = (hash: string) => `kron:sweep:${hash}`;
export const resultsKey = (hash: string) => `kron:sweep:${hash}:results`;
export const doneKey = (hash: string) => `kron:sweep:${hash}:done`;
/** BullMQ job ids: custom ids may not be plain integers nor contain ':' */
export const jobId = (hash: string, index: number) => `${hash}-${index}`;

/** the sweep record a worker reads before its first run of a sweep */
export interface SweepRecord {
  readonly model: PortableModel;
  readonly settings: RunSettings;
}

/** a job's data: which sweep, which run */
export interface JobData {
  readonly sweep: string;
  readonly task: RunTask;
}

/** what ioredis and BullMQ connect with */
export interface RedisConnection {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly username?: string;
  readonly password?: string;
  /** BullMQ workers block on Redis: commands wait for a reconnection instead of failing */
  readonly maxRetriesPerRequest: null;
}

// 'redis://[:password@]host[:port][/db]' => connection options
export function redisOptions(url: string, flag = '--queue'): RedisConnection {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`${flag} expects a Redis URL, got "${url}"`, { hint: `e.g. ${flag} redis://127.0.0.1:6379` });
  }
  if (u.protocol !== 'redis:') throw new UsageError(`${flag} expects a redis:// URL, got "${url}"`, { hint: `e.g. ${flag} redis://127.0.0.1:6379` });
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new UsageError(`${flag} "${url}": the database ${u.pathname.slice(1)} is not a whole number`, { hint: `e.g. ${flag} redis://127.0.0.1:6379/0` });
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    db,
    ...(u.username && { username: decodeURIComponent(u.username) }),
    ...(u.password && { password: decodeURIComponent(u.password) }),
    maxRetriesPerRequest: null,
  };
}

// (portable model, settings, runs) => 16 hex digits naming the sweep
export function sweepHash(model: PortableModel, settings: RunSettings, tasks: readonly RunTask[]): string {
  // the compile time in the report differs from one compile of the same model to the next
  const same = { ...model, report: { ...model.report, compileMs: 0, cache: undefined } };
  return createHash('sha256').update(JSON.stringify({ model: same, settings, tasks })).digest('hex').slice(0, 16);
}

/** a number through JSON unchanged: NaN, infinities and -0 as strings */
const encodeNumber = (v: number): number | string => (Object.is(v, -0) ? '-0' : Number.isFinite(v) ? v : String(v));

export function encodeOutcome(o: RunOutcome): string {
  return JSON.stringify({ ...o, metrics: Object.fromEntries(Object.entries(o.metrics).map(([k, v]) => [k, encodeNumber(v)])) });
}

export function decodeOutcome(text: string): RunOutcome {
  const o = JSON.parse(text) as RunOutcome & { metrics: Record<string, number | string> };
  return { ...o, metrics: Object.fromEntries(Object.entries(o.metrics).map(([k, v]) => [k, Number(v)])) };
}

// (URL) => a client that is connected, or a UsageError naming --queue when no Redis answers there
export async function connectRedis(url: string, flag = '--queue'): Promise<Redis> {
  const options = redisOptions(url, flag);
  const redis = new Redis({ ...options, lazyConnect: true });
  // ioredis reports every failed reconnection as an 'error' event: the command's own errors say it once
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    redis.disconnect();
    throw new UsageError(`${flag} ${url}: no Redis answers there (${e instanceof Error ? e.message : String(e)})`, {
      hint: `start one (redis-server --port ${options.port}) or give the right host and port`,
    });
  }
  return redis;
}
