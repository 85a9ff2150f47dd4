// The signing of queue messages against an independent HMAC: the signature
// a message carries must be HMAC-SHA256 over the documented text (format,
// kind, place and body joined by NUL bytes), computed here with node:crypto
// directly; every kind of tampering is refused with the reason; keys come
// from a file or the environment and must be long enough.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.ts';
import { QueueKey, RefusedMessage, queueKey } from '../../src/sweep/signing.ts';

const secret = randomBytes(32).toString('hex');
const key = new QueueKey(secret);
const body = JSON.stringify({ index: 3, status: 'ok', metrics: { 'final(j1.q)': 0.25 } });
const where = 'kron:sweep:0123456789abcdef:results/3';

const refused = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RefusedMessage);
    return (e as Error).message;
  }
  throw new Error('not refused');
};

describe('queue message signing', () => {
  it('signs with HMAC-SHA256 over "kron-queue/1\\0kind\\0where\\0body", as computed independently', () => {
    const message = key.sign('result', where, body);
    const [format, id, mac, ...rest] = message.split(' ');
    expect(format).toBe('kron-queue/1');
    expect(rest.join(' ')).toBe(body);
    expect(mac).toBe(createHmac('sha256', secret).update(`kron-queue/1\0result\0${where}\0${body}`).digest('hex'));
    expect(id).toBe(createHmac('sha256', secret).update('kron-queue/1 key id').digest('hex').slice(0, 16));
    expect(id).not.toContain(secret.slice(0, 8));
    expect(key.open('result', where, message)).toBe(body);
  });

  it('refuses what is unsigned, signed with another key, altered, or moved to another place or kind', () => {
    const message = key.sign('result', where, body);
    expect(refused(() => key.open('result', where, body))).toBe(`the result at ${where} is not signed`);
    expect(refused(() => key.open('result', where, undefined))).toBe(`the result at ${where} is not signed`);
    const other = new QueueKey(randomBytes(32));
    expect(refused(() => key.open('result', where, other.sign('result', where, body)))).toBe(
      `the result at ${where} is signed with another key (key id ${other.id}, this one's is ${key.id})`,
    );
    const altered = message.replace('0.25', '0.26');
    expect(refused(() => key.open('result', where, altered))).toBe(`the result at ${where} has a signature that does not match: it was altered or forged`);
    // run 3's genuine result copied to run 5's place, or a result offered as a job
    expect(refused(() => key.open('result', where.replace('/3', '/5'), message))).toMatch(/does not match/);
    expect(refused(() => key.open('job', where, message))).toBe(`the job ${where} has a signature that does not match: it was altered or forged`);
    // a signature cut short or not hex
    const [format, id, mac] = message.split(' ');
    expect(refused(() => key.open('result', where, `${format} ${id} ${mac.slice(0, 10)} ${body}`))).toMatch(/does not match/);
    expect(refused(() => key.open('result', where, `${format} ${id} zz ${body}`))).toMatch(/does not match/);
  });

  it('takes the key from --key-file (a trailing newline is not part of it) or KRON_QUEUE_KEY; none, or a short one, is a UsageError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-key-'));
    writeFileSync(join(dir, 'queue.key'), `${secret}\n`);
    expect(queueKey(join(dir, 'queue.key'), {}).id).toBe(key.id);
    expect(queueKey(undefined, { KRON_QUEUE_KEY: secret }).id).toBe(key.id);
    // the file wins over the environment
    expect(queueKey(join(dir, 'queue.key'), { KRON_QUEUE_KEY: 'x'.repeat(40) }).id).toBe(key.id);
    expect(() => queueKey(undefined, {})).toThrow(UsageError);
    expect(() => queueKey(undefined, {})).toThrow(/needs a signing key/);
    expect(() => queueKey(undefined, { KRON_QUEUE_KEY: 'short' })).toThrow(
      'the environment variable KRON_QUEUE_KEY is 5 bytes long: a queue key needs at least 32',
    );
    expect(() => queueKey(join(dir, 'missing.key'), {})).toThrow(/--key-file .*missing\.key cannot be read \(ENOENT\)/);
  });
});
