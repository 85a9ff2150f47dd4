// `kron worker --queue redis://host:port`: consume the runs of queued sweeps
// (kron sweep --queue) until stopped with Ctrl-C or SIGTERM: the first signal
// stops taking jobs and lets the runs in hand finish for up to --grace
// seconds; then, or at a second signal, or at once when Redis is unreachable,
// the runs still in hand are abandoned and their jobs go back to the queue.
// Any number of workers on any number of machines.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import type { Io } from './io.ts';
import { number } from './model-commands.ts';
import { QUEUE_FLAGS, queueHelp, queueConfig } from './queue-flags.ts';
import { withQueuePackages } from '../sweep/optional.ts';
import { checkWorkers, defaultWorkers } from '../sweep/pool.ts';

export const WORKER_HELP = `usage: kron worker --queue redis://host:port [options]

Consumes the runs that \`kron sweep --queue\` enqueues (BullMQ jobs in Redis), on
a pool of threads, and writes each run's outcome back for the producer to
collect. The model comes with the sweep (its compiled code, in Redis, signed
with the key that producer and workers share: a record or job not signed with
it is refused and never run). A worker reads a sweep's --metric module only
from its own --metric-dir, and writes details only under its --detail-dir.
A worker that dies loses no run: its jobs go back to the queue once their
lock expires (--lock-duration) and another worker takes them.

options:
  --queue redis://host:port   the Redis of the sweep (also redis://user:password@host:port/db,
                              rediss://… for TLS)
${queueHelp(30)}
  --workers N                 runs at a time, one thread each (default: the cores, ${defaultWorkers()} here)
  --metric-dir dir            where sweeps' --metric modules are found, by file name; a module
                              runs only when its content is the producer's (SHA-256)
  --detail-dir dir            where sweeps' --detail folders are written (dir/<name>/run-000012.csv;
                              made when missing)
  --grace s                   at Ctrl-C or SIGTERM, how long the runs in hand may finish before
                              they are abandoned to another worker (default 10; a second signal
                              abandons them at once); exit 0 either way
  --lock-duration ms          how long a job stays locked to a worker that does not renew
                              the lock (default 30000): how soon a dead worker's runs return
  --stalled-interval ms       how often to look for such jobs (default 30000)
  --verbose                   a line on stderr for every run started and finished

examples:
  KRON_QUEUE_KEY=$(cat queue.key) kron worker --queue redis://127.0.0.1:6379
  kron worker --queue rediss://kron@10.0.0.5:6380 --tls-ca ca.crt --key-file queue.key --workers 8
`;

const DEFAULT_GRACE_S = 10;
/** after the stop, whatever still holds the event loop (a connection BullMQ did not close) is not waited for */
const EXIT_WAIT_MS = 1000;

export async function runWorker(args: string[], io: Io, signals: Signals = processSignals()): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      queue: { type: 'string' },
      ...QUEUE_FLAGS,
      workers: { type: 'string' },
      'metric-dir': { type: 'string' },
      'detail-dir': { type: 'string' },
      grace: { type: 'string' },
      'lock-duration': { type: 'string' },
      'stalled-interval': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length)
    throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`, { hint: 'kron worker takes no model file: the sweep brings its model' });
  if (values.queue === undefined)
    throw new UsageError('kron worker needs --queue redis://host:port', {
      hint: 'the Redis that `kron sweep --queue` enqueues to, e.g. kron worker --queue redis://127.0.0.1:6379',
    });
  const ms = (flag: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    const v = number(flag, text);
    if (!Number.isInteger(v) || v < 1) throw new UsageError(`${flag} must be a whole number of milliseconds >= 1, got ${text}`);
    return v;
  };
  const grace = values.grace === undefined ? DEFAULT_GRACE_S : number('--grace', values.grace);
  if (grace < 0) throw new UsageError(`--grace must be a number of seconds >= 0, got ${values.grace}`, { hint: 'e.g. --grace 10' });
  const metricDir = values['metric-dir'],
    detailDir = values['detail-dir'];
  if (metricDir !== undefined && !(existsSync(metricDir) && statSync(metricDir).isDirectory()))
    throw new UsageError(`--metric-dir ${metricDir} is not a folder`, { hint: `give the folder that holds the sweeps' --metric modules` });
  if (detailDir !== undefined) makeFolder(detailDir);
  const config = queueConfig(values, values.queue, io)!;
  const workers = checkWorkers(values.workers === undefined ? defaultWorkers() : number('--workers', values.workers));
  const { startWorker } = await withQueuePackages(() => import('../sweep/worker.ts'), 'kron worker'); // BullMQ and ioredis only for this command
  const worker = await startWorker(config, {
    workers,
    metricDir,
    detailDir,
    lockDuration: ms('--lock-duration', values['lock-duration']),
    stalledInterval: ms('--stalled-interval', values['stalled-interval']),
    log: values.verbose ? (line) => io.stderr.write(`${line}\n`) : undefined,
  });
  io.stderr.write(`kron worker: ${workers} threads on ${worker.shown} (key id ${worker.keyId})\n`);
  await signals.first;
  const { running, connected } = worker.state();
  io.stderr.write(
    `kron worker: stopping: ${!running ? 'no run in hand' : !connected ? `Redis is unreachable: the ${running} runs in hand are abandoned` : `the ${running} runs in hand may finish for ${grace} s (a second Ctrl-C or SIGTERM abandons them)`}\n`,
  );
  const { finished, abandoned } = await worker.close(Promise.race([signals.second, new Promise((r) => setTimeout(r, grace * 1000).unref())]));
  io.stderr.write(
    `kron worker: stopped after ${finished} runs${abandoned.length ? `; abandoned runs ${abandoned.join(', ')}: their jobs are back in the queue for another worker` : ''}\n`,
  );
  signals.stopped?.();
}

/** --detail-dir, made as --detail makes its folder */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new UsageError(`--detail-dir ${dir} cannot be made (${(e as NodeJS.ErrnoException).code ?? String(e)})`, {
      hint: 'give a folder this worker may write to',
    });
  }
}

export interface Signals {
  readonly first: Promise<unknown>;
  readonly second: Promise<unknown>;
  /** called once the worker has stopped */
  readonly stopped?: () => void;
}

/** the first and second SIGINT or SIGTERM; after the second, the handlers are gone (a third ends the process) */
function processSignals(): Signals {
  let count = 0;
  let first!: () => void, second!: () => void;
  const signals = {
    first: new Promise<void>((r) => (first = r)),
    second: new Promise<void>((r) => (second = r)),
    // the process ends soon even if a connection BullMQ did not close still holds its event loop
    stopped: () => setTimeout(() => process.exit(), EXIT_WAIT_MS).unref(),
  };
  const on = () => {
    if (++count === 1) return first();
    process.off('SIGINT', on).off('SIGTERM', on);
    second();
  };
  process.on('SIGINT', on).on('SIGTERM', on);
  return signals;
}
