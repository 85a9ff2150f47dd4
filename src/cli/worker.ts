// `kron worker --queue redis://host:port`: consume the runs of queued sweeps
// (kron sweep --queue) until stopped with Ctrl-C or SIGTERM, which lets the
// runs in hand finish. Any number of workers on any number of machines.
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import type { Io } from './io.ts';
import { number } from './model-commands.ts';
import { checkWorkers, defaultWorkers } from '../sweep/pool.ts';

export const WORKER_HELP = `usage: kron worker --queue redis://host:port [options]

Consumes the runs that \`kron sweep --queue\` enqueues (BullMQ jobs in Redis), on
a pool of threads, and writes each run's outcome back for the producer to
collect. The model comes with the sweep (its compiled code, in Redis): the
worker needs no model file, only the --metric module's path if the sweep has one.
A worker that dies loses no run: its jobs go back to the queue once their lock
expires (--lock-duration) and another worker takes them. Stops on Ctrl-C or
SIGTERM after the runs in hand.

options:
  --queue redis://host:port   the Redis of the sweep (also redis://:password@host:port/db)
  --workers N                 runs at a time, one thread each (default: the cores, ${defaultWorkers()} here)
  --lock-duration ms          how long a job stays locked to a worker that does not renew
                              the lock (default 30000): how soon a dead worker's runs return
  --stalled-interval ms       how often to look for such jobs (default 30000)
  --verbose                   a line on stderr for every run started and finished

examples:
  kron worker --queue redis://127.0.0.1:6379
  kron worker --queue redis://10.0.0.5:6379 --workers 8
`;

export async function runWorker(args: string[], io: Io, stop: Promise<unknown> = signalled()): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      queue: { type: 'string' },
      workers: { type: 'string' },
      'lock-duration': { type: 'string' },
      'stalled-interval': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`, { hint: 'kron worker takes no model file: the sweep brings its model' });
  if (values.queue === undefined) throw new UsageError('kron worker needs --queue redis://host:port', { hint: 'the Redis that `kron sweep --queue` enqueues to, e.g. kron worker --queue redis://127.0.0.1:6379' });
  const ms = (flag: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    const v = number(flag, text);
    if (!Number.isInteger(v) || v < 1) throw new UsageError(`${flag} must be a whole number of milliseconds >= 1, got ${text}`);
    return v;
  };
  const workers = checkWorkers(values.workers === undefined ? defaultWorkers() : number('--workers', values.workers));
  const { startWorker } = await import('../sweep/worker.ts'); // BullMQ and ioredis only for this command
  const worker = await startWorker(values.queue, {
    workers,
    lockDuration: ms('--lock-duration', values['lock-duration']),
    stalledInterval: ms('--stalled-interval', values['stalled-interval']),
    log: values.verbose ? (line) => io.stderr.write(`${line}\n`) : undefined,
    warn: (line) => io.stderr.write(`warning: ${line}\n`),
  });
  io.stderr.write(`kron worker: ${workers} threads on ${values.queue}\n`);
  await stop;
  await worker.close();
}

/** resolves at the first SIGINT or SIGTERM */
function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done).off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done).on('SIGTERM', done);
  });
}
