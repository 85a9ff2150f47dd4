// The queue commands of docs/guide/sweeps.md, run as written (Sweeps, and "Deploying the
// queue safely"), with free ports, temporary folders, 127.0.0.1 for the
// example host and a certificate authority made here with openssl. The
// oracle is the same sweep run locally: its CSV, and its detail files, must
// be the same byte for byte. The documented ACL rule must let Kron work and
// refuse what it says it refuses.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { kronInProcess } from '../cli/in-process.ts';
import { BACKSTOP, type Kron, exited, freePort, killAll, kron, redisAvailable, redisMissing, root, skipQueue, startRedis, until } from './queue-harness.ts';

if (skipQueue)
  console.warn('test/sweep/queue-readme.test.ts SKIPPED: redis-server is not installed (apt-get install redis-server); with CI=true this is a failure');

const section = readFileSync(join(root, 'docs/guide/sweeps.md'), 'utf8');
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], lines: m[2].trim().split('\n') }));
/** the one line of a block of that language that contains `what` */
const line = (lang: string, what: string) => {
  const found = blocks
    .filter((b) => b.lang === lang)
    .flatMap((b) => b.lines)
    .filter((l) => l.includes(what));
  expect(found, what).toHaveLength(1);
  return found[0];
};
/** a shell line's words, with its '…' quotes */
const words = (text: string) => [...text.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
/** kron's arguments in a README line: the words after `npx kron`, up to a trailing & */
const kronArgs = (text: string, swap: (word: string) => string) =>
  words(text.slice(text.indexOf('npx kron ') + 9))
    .filter((w) => w !== '&')
    .map(swap);
/** the arguments without --queue, --key-file and --tls-*: the same sweep on threads here */
const localArgs = (args: string[]) => args.filter((_, i) => !/^--(queue|key-file|tls-)/.test(args[i]) && !/^--(queue|key-file|tls-)/.test(args[i - 1] ?? ''));

function sh(command: string, cwd: string): void {
  const r = spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8' });
  expect(r.status, `${command}\n${r.stderr}`).toBe(0);
}

afterAll(killAll);

describe.skipIf(skipQueue)('README: the queue', () => {
  it(
    'the quick start: a Redis that keeps its data, a key, a worker and a producer; the CSV of the local sweep',
    async () => {
      expect(redisAvailable, redisMissing).toBe(true);
      const dir = mkdtempSync(join(tmpdir(), 'kron-readme-queue-'));
      const port = await freePort();
      const swap = (w: string) => w.replace(/^\/tmp\//, `${dir}/`).replace('127.0.0.1:6379', `127.0.0.1:${port}`);
      const server = words(line('sh', 'redis-server --port 6379').split('&& ')[1]);
      expect(server).toEqual(expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']));
      // in the foreground here, so that the test stops it; its --port and --dir made this test's
      const config = server
        .slice(1)
        .filter((w, i, all) => w !== '--daemonize' && all[i - 1] !== '--daemonize')
        .map((w) => (w === '6379' ? String(port) : w === '/tmp/kron-redis' ? dir : w));
      await startRedis(
        port,
        config.filter((w, i) => !(w === '--port' || config[i - 1] === '--port')),
      );
      sh(line('sh', 'openssl rand').replaceAll('/tmp/queue.key', join(dir, 'queue.key')), root);
      const worker = kron(kronArgs(line('sh', 'npx kron worker --queue redis://'), swap));
      await until('the worker', () => worker.stderrText().includes('kron worker:'));
      const args = kronArgs(line('sh', '--queue redis://127.0.0.1:6379 --key-file /tmp/queue.key --out'), swap);
      const producer = kron(args);
      expect(await exited(producer), producer.stderrText()).toBe(0);
      expect(producer.stderrText()).not.toContain('keeps no append-only file');
      // the reference, on threads in this process (main())
      const local = await kronInProcess(...localArgs(args).map((w) => w.replace('mc-queued.csv', 'mc-local.csv')), '--workers', '1');
      expect(local.status, local.stderr).toBe(0);
      expect(readFileSync(join(dir, 'mc-queued.csv'), 'utf8')).toBe(readFileSync(join(dir, 'mc-local.csv'), 'utf8'));
      worker.kill('SIGTERM');
      expect(await exited(worker)).toBe(0);
    },
    BACKSTOP,
  );

  it(
    'deployed safely: TLS, the ACL user of users.acl, persistence; the metric from --metric-dir, details under --detail-dir',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'kron-readme-deploy-'));
      // a certificate authority and the server's certificate for 127.0.0.1
      for (const command of [
        'openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=kron-test-ca',
        'openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout redis.key -out redis.csr -subj /CN=localhost',
        "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext && openssl x509 -req -in redis.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out redis.crt -days 2 -extfile san.ext",
        'openssl rand -hex 32 > queue.key',
      ])
        sh(`${command} 2>/dev/null`, dir);
      writeFileSync(join(dir, 'users.acl'), `${line('text', 'user default off')}\n${line('text', 'user kron on')}\n`);
      mkdirSync(join(dir, 'data'));
      const port = await freePort();
      const server = words(line('sh', 'redis-server --port 0 --tls-port')).slice(1);
      const files = (w: string) =>
        /^(redis|ca)\.(crt|key)$|^users\.acl$/.test(w) ? join(dir, w) : w === '/var/lib/kron-redis' ? join(dir, 'data') : w === '6380' ? String(port) : w;
      await startRedis(port, server.map(files));
      // the environment of the export line: the password as written, the key from queue.key
      const exported = words(line('sh', 'export KRON_REDIS_PASSWORD'));
      const password = exported.find((w) => w.startsWith('KRON_REDIS_PASSWORD='))!.split('=')[1];
      const env = { KRON_REDIS_PASSWORD: password, KRON_QUEUE_KEY: readFileSync(join(dir, 'queue.key'), 'utf8').trim() };
      const swap = (w: string) =>
        w
          .replace(/^\/tmp\//, `${dir}/`)
          .replace('redis.example.org:6380', `127.0.0.1:${port}`)
          .replace(/^ca\.crt$/, join(dir, 'ca.crt'));
      const worker: Kron = kron(kronArgs(line('sh', 'npx kron worker --queue rediss://'), swap), env);
      await until('the worker', () => worker.stderrText().includes('kron worker:') || worker.exitCode !== null);
      expect(worker.stderrText()).toMatch(new RegExp(`^kron worker: \\d+ threads on rediss://kron@127\\.0\\.0\\.1:${port} \\(key id [0-9a-f]{16}\\)$`, 'm'));
      const args = kronArgs(line('sh', '--metric test/sweep/fixtures/metric.ts --detail'), swap);
      const producer = kron(args, env);
      expect(await exited(producer), producer.stderrText()).toBe(0);
      const local = await kronInProcess(
        ...localArgs(args).map((w) => w.replace('swing.csv', 'local.csv').replace('details/swing', 'local-details/swing')),
        '--workers',
        '1',
      );
      expect(local.status, local.stderr).toBe(0);
      const csv = readFileSync(join(dir, 'swing.csv'), 'utf8');
      expect(csv.split('\n')[0]).toContain('peak speed');
      expect(csv).toBe(readFileSync(join(dir, 'local.csv'), 'utf8'));
      const details = readdirSync(join(dir, 'local-details/swing')).sort();
      expect(details).toHaveLength(9);
      expect(readdirSync(join(dir, 'kron-details/swing')).sort()).toEqual(details);
      for (const f of details) expect(readFileSync(join(dir, 'kron-details/swing', f), 'utf8')).toBe(readFileSync(join(dir, 'local-details/swing', f), 'utf8'));
      worker.kill('SIGTERM');
      expect(await exited(worker)).toBe(0);

      // the ACL user reaches Kron's keys and BullMQ's, nothing else, and no dangerous command
      const kronUser = new Redis({ host: '127.0.0.1', port, username: 'kron', password, tls: { ca: readFileSync(join(dir, 'ca.crt')) }, lazyConnect: true });
      await kronUser.connect();
      await expect(kronUser.set('other:key', '1')).rejects.toThrow(/NOPERM/);
      await expect(kronUser.flushall()).rejects.toThrow(/NOPERM/);
      await expect(kronUser.keys('*')).rejects.toThrow(/NOPERM/);
      kronUser.disconnect();
      // a wrong password, and no --tls-ca, each said with its cause and hint
      const sweepArgs = args.map((w) => w.replace('swing.csv', 'refused.csv'));
      const wrong = kron(sweepArgs, { ...env, KRON_REDIS_PASSWORD: 'wrong' });
      expect(await exited(wrong)).toBe(2);
      expect(wrong.stderrText()).toMatch(
        /^UsageError: --queue rediss:\/\/kron@127\.0\.0\.1:\d+: no Redis answers there \(WRONGPASS [^)]*\)\n {2}hint: give the ACL user in the URL \(rediss:\/\/user@host\) and its password in KRON_REDIS_PASSWORD \(or the URL\)\n$/,
      );
      const untrusted = kron(
        sweepArgs.filter((w, i) => w !== '--tls-ca' && sweepArgs[i - 1] !== '--tls-ca'),
        env,
      );
      expect(await exited(untrusted)).toBe(2);
      expect(untrusted.stderrText()).toMatch(/no Redis answers there \(self-signed certificate in certificate chain\)\n {2}hint: check --tls-ca/);
    },
    BACKSTOP,
  );
});
