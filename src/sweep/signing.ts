// Signed messages of a queued sweep: whoever can write to the Redis of a
// queue could otherwise make every worker run code (the sweep record carries
// the generated model code, which workers run) and make the producer write
// forged rows as 'ok'. Producer and workers share a secret key and sign every
// record, job and result with HMAC-SHA256 (RFC 2104); a message whose
// signature does not match is refused before any of it is used. This is
// Celery's message signing (docs.celeryq.dev, "Security: Message Signing")
// with a shared key in place of its certificates: every key holder can sign,
// so a worker machine is trusted as much as the producer's.
//
// A signed message is one string:
//   kron-queue/1 <key id> <hmac hex> <body>
// where the HMAC is over "kron-queue/1\0<kind>\0<where>\0<body>": the kind
// (record, job, result) and where it sits (the Redis key, the job id) are
// signed too, so a genuine message copied to another place (run 3's result
// as run 5's, one sweep's record under another's hash) is refused as well.
// The key id (an HMAC of a fixed text, not the key) tells a message signed
// with another key from a forged one.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';

const FORMAT = 'kron-queue/1';
/** 32 bytes: what `openssl rand -hex 32` gives is 64 characters */
const MIN_KEY_LENGTH = 32;
export const KEY_ENV = 'KRON_QUEUE_KEY';
const KEY_HINT = `make one with: openssl rand -hex 32 > queue.key; chmod 600 queue.key; give the same key to the producer and every worker (--key-file queue.key, or the environment variable ${KEY_ENV})`;

export type MessageKind = 'record' | 'job' | 'result';

/** a message refused: unsigned, signed with another key, or altered */
export class RefusedMessage extends Error {
  override name = 'RefusedMessage';
}

export class QueueKey {
  /** 16 hex digits that name the key without revealing it, printed by producer and workers */
  readonly id: string;
  private readonly secret: Buffer;

  constructor(secret: string | Buffer, source = 'the queue key') {
    this.secret = Buffer.from(secret);
    if (this.secret.length < MIN_KEY_LENGTH)
      throw new UsageError(`${source} is ${this.secret.length} bytes long: a queue key needs at least ${MIN_KEY_LENGTH}`, { hint: KEY_HINT });
    this.id = createHmac('sha256', this.secret).update(`${FORMAT} key id`).digest('hex').slice(0, 16);
  }

  // (kind, where it sits, body) => the signed message
  sign(kind: MessageKind, where: string, body: string): string {
    return `${FORMAT} ${this.id} ${this.mac(kind, where, body).toString('hex')} ${body}`;
  }

  // (kind, where it sits, signed message) => its body, or a RefusedMessage saying why
  open(kind: MessageKind, where: string, message: unknown): string {
    // a job is named by its id, the others by the Redis key they sit at
    const what = kind === 'job' ? `the job ${where}` : `the ${kind} at ${where}`;
    if (typeof message !== 'string' || !message.startsWith(`${FORMAT} `)) throw new RefusedMessage(`${what} is not signed`);
    const [, id, mac] = message.split(' ', 3);
    const body = message.slice(FORMAT.length + id.length + (mac?.length ?? 0) + 3);
    if (id !== this.id) throw new RefusedMessage(`${what} is signed with another key (key id ${id}, this one's is ${this.id})`);
    const expected = this.mac(kind, where, body);
    const given = Buffer.from(mac ?? '', 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new RefusedMessage(`${what} has a signature that does not match: it was altered or forged`);
    return body;
  }

  private mac(kind: MessageKind, where: string, body: string): Buffer {
    return createHmac('sha256', this.secret).update(`${FORMAT}\0${kind}\0${where}\0${body}`).digest();
  }
}

// (--key-file path | undefined, environment) => the key both sides sign with; none is a UsageError naming both ways to give one
export function queueKey(keyFile: string | undefined, env: NodeJS.ProcessEnv = process.env): QueueKey {
  if (keyFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(keyFile, 'utf8');
    } catch (e) {
      throw new UsageError(`--key-file ${keyFile} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`, { hint: KEY_HINT });
    }
    // a trailing newline (echo, an editor) is not part of the key
    return new QueueKey(text.replace(/\r?\n$/, ''), `--key-file ${keyFile}`);
  }
  const secret = env[KEY_ENV];
  if (secret === undefined || secret === '') {
    throw new UsageError(`a queued sweep needs a signing key: the Redis record carries code that workers run, so they run only what the key signed`, {
      hint: `${KEY_HINT}; see docs/guide/sweeps.md, "Deploying the queue safely"`,
    });
  }
  return new QueueKey(secret, `the environment variable ${KEY_ENV}`);
}
