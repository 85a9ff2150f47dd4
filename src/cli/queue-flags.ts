// The flags a queued sweep's producer (kron sweep --queue) and its workers
// (kron worker) share: the signing key and the TLS files of a rediss:// URL;
// the producer adds --queue-timeout. Checked before anything is compiled, so
// that a missing key is said at once. Light on purpose: no Redis client here.
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.ts';
import type { Io } from './io.ts';
import { number } from './model-commands.ts';
import type { QueueConfig } from '../sweep/queue-config.ts';
import { redisOptions } from '../sweep/redis-url.ts';
import { queueKey } from '../sweep/signing.ts';

export const QUEUE_FLAGS = {
  'key-file': { type: 'string' },
  'tls-ca': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'tls-servername': { type: 'string' },
} satisfies ParseArgsConfig['options'];

export const PRODUCER_FLAGS = { ...QUEUE_FLAGS, 'queue-timeout': { type: 'string' } } satisfies ParseArgsConfig['options'];

/** the shared flags' help, its descriptions starting at `column` as the command's others do */
export function queueHelp(column: number): string {
  const rows: [string, string][] = [
    ['--key-file file', "the key that signs the sweep's records, jobs and results, shared by"],
    ['', 'the producer and every worker (default: the environment variable'],
    ['', 'KRON_QUEUE_KEY); required: make one with openssl rand -hex 32'],
    ['--tls-ca file', "rediss:// (TLS): the authority of the server's certificate (PEM;"],
    ['', "default: the system's); --tls-cert file --tls-key file: a client"],
    ['', 'certificate; --tls-servername name: the name the certificate carries'],
    ['', "an ACL user's password: in the URL (redis://user:password@host) or,"],
    ['', 'off the command line, in the environment variable KRON_REDIS_PASSWORD'],
  ];
  return rows.map(([flag, text]) => `  ${flag}`.padEnd(column) + text).join('\n');
}

type Values = Partial<Record<keyof typeof PRODUCER_FLAGS, string>>;

// (parsed flags, --queue URL, where lines go) => the queue's config; the key is read now, so that its absence is said before any work
export function queueConfig(values: Values, url: string | undefined, io: Io): QueueConfig | undefined {
  const given = (Object.keys(PRODUCER_FLAGS) as (keyof Values)[]).filter((f) => values[f] !== undefined);
  if (url === undefined) {
    if (given.length) throw new UsageError(`--${given[0]} applies to a queued sweep`, { hint: 'add --queue redis://host:port, or leave it out' });
    return undefined;
  }
  const tls = { ca: values['tls-ca'], cert: values['tls-cert'], key: values['tls-key'], servername: values['tls-servername'] };
  redisOptions(url, tls); // the URL and the TLS files first, then the key
  queueKey(values['key-file']);
  const timeout = values['queue-timeout'] === undefined ? undefined : number('--queue-timeout', values['queue-timeout']);
  return {
    url,
    ...(values['key-file'] !== undefined && { keyFile: values['key-file'] }),
    tls,
    ...(timeout !== undefined && { timeout }),
    log: (line: string) => io.stderr.write(`${line}\n`),
  };
}
