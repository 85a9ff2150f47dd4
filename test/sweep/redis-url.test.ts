// A queue's URL and TLS files as ioredis gets them: rediss:// turns TLS on
// with the files' bytes, the ACL user's password comes from the URL or
// KRON_REDIS_PASSWORD and never shows in messages.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.ts';
import { redisOptions, shownUrl } from '../../src/sweep/redis-url.ts';

const dir = mkdtempSync(join(tmpdir(), 'kron-redis-url-'));
const pem = (name: string) => (writeFileSync(join(dir, name), `-----BEGIN ${name}-----\n`), join(dir, name));

describe('the queue URL', () => {
  it('redis:// with a database, an ACL user and a password from the URL or the environment', () => {
    expect(redisOptions('redis://10.0.0.5:6380/2', {}, {})).toEqual({ host: '10.0.0.5', port: 6380, db: 2, maxRetriesPerRequest: null });
    expect(redisOptions('redis://kron@h', {}, { KRON_REDIS_PASSWORD: 'from env' })).toMatchObject({
      host: 'h',
      port: 6379,
      username: 'kron',
      password: 'from env',
    });
    expect(redisOptions('redis://kron:p%40ss@h', {}, { KRON_REDIS_PASSWORD: 'from env' })).toMatchObject({ username: 'kron', password: 'p@ss' });
    expect(redisOptions('redis://[::1]:7000', {}, {})).toMatchObject({ host: '::1', port: 7000 });
    expect(redisOptions('redis://h', {}, {})).not.toHaveProperty('tls');
  });

  it('rediss:// turns TLS on with the bytes of the CA, certificate and key files', () => {
    const [ca, cert, key] = [pem('ca.crt'), pem('client.crt'), pem('client.key')];
    const { tls } = redisOptions('rediss://kron@h:6380', { ca, cert, key, servername: 'redis.example.org' }, {});
    expect(tls).toEqual({ ca: readFileSync(ca), cert: readFileSync(cert), key: readFileSync(key), servername: 'redis.example.org' });
    expect(redisOptions('rediss://h', {}, {}).tls).toEqual({}); // the system's authorities
  });

  it('refuses other schemes, TLS files without rediss://, half a client certificate and unreadable files, never showing the password', () => {
    expect(() => redisOptions('http://x', {}, {})).toThrow(UsageError);
    expect(() => redisOptions('redis://u:secret@h', { ca: 'ca.crt' }, {})).toThrow('--tls-ca applies to a rediss:// URL (TLS), and --queue is redis://u:***@h');
    expect(() => redisOptions('rediss://h', { cert: pem('c.crt') }, {})).toThrow('--tls-cert and --tls-key go together');
    expect(() => redisOptions('rediss://h', { ca: join(dir, 'none.crt') }, {})).toThrow(/--tls-ca .*none\.crt cannot be read \(ENOENT\)/);
    expect(() => redisOptions('redis://h/x', {}, {})).toThrow('the database x is not a whole number');
    expect(shownUrl('rediss://kron:s3cret@h:6380/1')).toBe('rediss://kron:***@h:6380/1');
    expect(shownUrl('redis://h:6379')).toBe('redis://h:6379');
  });
});
