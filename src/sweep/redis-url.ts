// A queue's address and how to reach it, without a Redis client (so that
// the CLI checks them before it compiles anything): the redis:// or
// rediss:// URL with its ACL user and password, the TLS files, the options
// ioredis connects with, and the URL as messages show it (no password).
import { readFileSync } from 'node:fs';
import type { RedisOptions } from 'ioredis';
import { UsageError } from '../errors.ts';
import type { TlsFiles } from './queue-config.ts';

/** the password of the URL's user when the URL has none, so that it is not on a command line */
export const PASSWORD_ENV = 'KRON_REDIS_PASSWORD';

// 'redis[s]://[user[:password]@]host[:port][/db]', TLS files => ioredis options
export function redisOptions(url: string, tls: TlsFiles = {}, env: NodeJS.ProcessEnv = process.env): RedisOptions & { maxRetriesPerRequest: null } {
  const example = { hint: 'e.g. --queue redis://127.0.0.1:6379, or rediss://kron@redis.example.org:6380 with TLS' };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--queue expects a Redis URL, got "${url}"`, example);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new UsageError(`--queue expects a redis:// or rediss:// URL, got "${shownUrl(url)}"`, example);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0)
    throw new UsageError(`--queue "${shownUrl(url)}": the database ${u.pathname.slice(1)} is not a whole number`, { hint: '--queue redis://127.0.0.1:6379/0' });
  const secure = u.protocol === 'rediss:';
  const given = Object.entries(tls).filter(([, v]) => v !== undefined);
  if (!secure && given.length)
    throw new UsageError(`--tls-${given[0][0]} applies to a rediss:// URL (TLS), and --queue is ${shownUrl(url)}`, {
      hint: `write rediss://${u.host}${u.pathname}`,
    });
  const password = u.password ? decodeURIComponent(u.password) : env[PASSWORD_ENV] || undefined;
  return {
    // URL keeps an IPv6 address in brackets; ioredis wants it bare
    host: u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    db,
    ...(u.username && { username: decodeURIComponent(u.username) }),
    ...(password && { password }),
    ...(secure && { tls: tlsOptions(tls) }),
    // BullMQ workers block on Redis: commands wait for a reconnection instead of failing
    maxRetriesPerRequest: null,
  };
}

function tlsOptions(files: TlsFiles) {
  const read = (flag: string, path: string | undefined) => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (e) {
      throw new UsageError(`--tls-${flag} ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`, {
        hint: `give a PEM file: --tls-${flag} path`,
      });
    }
  };
  if ((files.cert === undefined) !== (files.key === undefined))
    throw new UsageError('--tls-cert and --tls-key go together: the client certificate and its private key', {
      hint: '--tls-cert client.crt --tls-key client.key',
    });
  const [ca, cert, key] = [read('ca', files.ca), read('cert', files.cert), read('key', files.key)];
  return { ...(ca && { ca }), ...(cert && { cert }), ...(key && { key }), ...(files.servername && { servername: files.servername }) };
}

/** the URL as messages show it: its password replaced */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href.replace(/\/$/, '');
  } catch {
    return url;
  }
}
