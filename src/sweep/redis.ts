// What the producer (kron sweep --queue) and the workers (kron worker) of a
// queued sweep share: the queue resolved (connection options from
// redis-url.ts, the signing key), the connection and its reconnections, the
// queue's name, the keys of a sweep and its hash.
//   kron:sweep:<hash>          the sweep record: portable model and run settings (signed)
//   kron:sweep:<hash>:results  hash run index -> outcome (signed)
//   kron:sweep:<hash>:done     list of the run indices as they finished (a retried run may appear twice)
// The hash is of the record (the model's code and defaults, the settings, the
// metric module's content) and every run's values: the same command gives the
// same hash, so a second producer finds the runs already done and enqueues
// only the others.
import { createHash } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { UsageError } from '../errors.ts';
import { PASSWORD_ENV, redisOptions, shownUrl } from './redis-url.ts';
import type { QueueTarget } from './queue-config.ts';
import type { RunTask } from './run.ts';
import type { SweepRecord } from './messages.ts';
import { type QueueKey, queueKey } from './signing.ts';

export type { QueueConfig, QueueTarget, TlsFiles } from './queue-config.ts';

export const QUEUE_NAME = 'kron-sweep';

export const recordKey = (hash: string) => `kron:sweep:${hash}`;
export const resultsKey = (hash: string) => `kron:sweep:${hash}:results`;
export const doneKey = (hash: string) => `kron:sweep:${hash}:done`;
/** where run i's result sits, as its signature names it */
export const resultPlace = (hash: string, index: number) => `${resultsKey(hash)}/${index}`;
/** BullMQ job ids: custom ids may not be plain integers nor contain ':' */
export const jobId = (hash: string, index: number) => `${hash}-${index}`;

/** a queue with its files read and its options checked */
export interface QueueSetup {
  readonly connection: RedisOptions & { maxRetriesPerRequest: null };
  readonly key: QueueKey;
  /** the URL without its password, for messages */
  readonly shown: string;
  readonly timeoutMs: number;
  readonly log: (line: string) => void;
}

const DEFAULT_TIMEOUT_S = 60;

// (URL or config, environment) => connection options, key and settings; a UsageError names what is wrong
export function resolveQueue(target: QueueTarget, env: NodeJS.ProcessEnv = process.env): QueueSetup {
  const config = typeof target === 'string' ? { url: target } : target;
  const timeout = config.timeout ?? DEFAULT_TIMEOUT_S;
  if (!(Number.isFinite(timeout) && timeout > 0))
    throw new UsageError(`--queue-timeout must be a number of seconds > 0, got ${timeout}`, { hint: 'e.g. --queue-timeout 60' });
  return {
    connection: redisOptions(config.url, config.tls, env),
    key: queueKey(config.keyFile, env),
    shown: shownUrl(config.url),
    timeoutMs: timeout * 1000,
    log: config.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}

/** ms before reconnection attempt n: 100, 200, 400, ... up to max */
export const backoff = (attempt: number, maxMs: number) => Math.min(100 * 2 ** Math.min(attempt - 1, 10), maxMs);

/**
 * Reconnection attempts, one line each: the producer gives up after its
 * timeout (then `gaveUp` says why), a worker keeps trying. ioredis asks
 * retryStrategy before every attempt; returning null ends the connection and
 * fails the commands waiting on it.
 */
export class Reconnection {
  private since: number | undefined;
  /** the connection's last error (ioredis reports each as an 'error' event) */
  lastError = '';
  private connected = false;
  /** why the connection was given up, once it was */
  gaveUp: string | undefined;

  constructor(
    private readonly queue: QueueSetup,
    private readonly giveUp: boolean,
    private readonly maxDelayMs: number,
  ) {}

  readonly error = (e: Error) => (this.lastError = e.message || (e as NodeJS.ErrnoException).code || String(e));

  readonly retryStrategy = (attempt: number): number | null => {
    // the first connection is not retried: connectRedis says at once that no Redis answers
    if (!this.connected) return null;
    const now = Date.now();
    this.since ??= now;
    const lost = now - this.since;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const why = ` (${this.lastError || 'the connection closed'})`;
    if (this.giveUp && lost >= this.queue.timeoutMs) {
      // the commands waiting on the connection fail now: the producer says why with a QueueError
      this.gaveUp = `lost Redis at ${this.queue.shown}${why}: no answer for ${seconds(lost)} (--queue-timeout ${seconds(this.queue.timeoutMs)})`;
      return null;
    }
    const delay = backoff(attempt, this.maxDelayMs);
    this.queue.log(
      `lost Redis at ${this.queue.shown}${why}: reconnecting in ${delay} ms (attempt ${attempt}, ${seconds(lost)} since the loss${this.giveUp ? ` of --queue-timeout ${seconds(this.queue.timeoutMs)}` : ''})`,
    );
    return delay;
  };

  readonly ready = () => {
    this.connected = true;
    if (this.since !== undefined) this.queue.log(`Redis at ${this.queue.shown} answers again after ${((Date.now() - this.since) / 1000).toFixed(1)} s`);
    this.since = undefined;
    this.lastError = '';
  };
}

// (queue, reconnection policy) => a client that is connected, or a UsageError naming --queue when no Redis answers there
export async function connectRedis(queue: QueueSetup, reconnection: Reconnection): Promise<Redis> {
  const redis = new Redis({ ...queue.connection, lazyConnect: true, retryStrategy: reconnection.retryStrategy });
  // ioredis reports every failed attempt as an 'error' event: the Reconnection says it once per attempt
  redis.on('error', reconnection.error);
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    redis.disconnect();
    // a refused TLS handshake or password is the 'error' event; the rejection only says the connection closed
    throw connectionError(queue, reconnection.lastError || (e instanceof Error ? e.message : String(e)));
  }
  reconnection.ready();
  redis.on('ready', reconnection.ready);
  return redis;
}

/** why a first connection failed, with the hint for that cause */
function connectionError(queue: QueueSetup, message: string): UsageError {
  const { port, tls } = queue.connection;
  const hint = /WRONGPASS|NOAUTH|invalid username-password/i.test(message)
    ? `give the ACL user in the URL (rediss://user@host) and its password in ${PASSWORD_ENV} (or the URL)`
    : /NOPERM/.test(message)
      ? 'the ACL user lacks a permission: see docs/guide/sweeps.md, "Deploying the queue safely", for the ACL rule'
      : /certificate|self.signed|SSL|TLS|EPROTO|ECONNRESET/i.test(message)
        ? tls
          ? 'check --tls-ca (the authority that signed the server certificate), --tls-servername, and --tls-cert/--tls-key if the server asks for a client certificate'
          : 'the server may speak TLS: use a rediss:// URL'
        : `start one (redis-server --port ${port}) or give the right host and port${tls ? '; a server without TLS takes a redis:// URL' : ''}`;
  return new UsageError(`--queue ${queue.shown}: no Redis answers there (${message})`, { hint });
}

// (sweep record, runs) => 16 hex digits naming the sweep
export function sweepHash(record: SweepRecord, tasks: readonly RunTask[]): string {
  // the compile time in the report differs from one compile of the same model to the next
  const model = { ...record.model, report: { ...record.model.report, compileMs: 0, cache: undefined } };
  return createHash('sha256')
    .update(JSON.stringify({ ...record, model, tasks }))
    .digest('hex')
    .slice(0, 16);
}
