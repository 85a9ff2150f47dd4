// What the queue's process tests share: kron commands as child processes,
// redis-server on a free loopback port (started, killed, started again on the
// same port), waiting for a line, and the signing key. Without redis-server
// the tests that need it are skipped with a warning; with CI=true they fail
// instead (.ci/run installs it).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const root = new URL('../../', import.meta.url).pathname;
export const redisAvailable = spawnSync('redis-server', ['--version']).status === 0;
export const ci = process.env.CI === 'true';
/** describe.skipIf(skipQueue): skipped only without redis-server and outside CI */
export const skipQueue = !redisAvailable && !ci;
export const redisMissing = 'redis-server must be installed when CI=true (.ci/run installs it with apt-get)';

/** the key producer and workers share in these tests */
export const KEY = randomBytes(32).toString('hex');

export type Kron = ChildProcess & { stderrText: () => string; stdoutText: () => string };

const children: ChildProcess[] = [];
/** the kron processes (not redis-server, whose timers tick while nothing happens) */
const krons: ChildProcess[] = [];
/** bytes written by any child so far */
let written = 0;
/** afterAll(killAll): nothing a test started outlives it */
export function killAll(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

export function kron(args: string[], env: NodeJS.ProcessEnv = {}): Kron {
  const child = spawn(process.execPath, [join(root, 'bin/kron.mjs'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KRON_QUEUE_KEY: KEY, ...env },
  });
  children.push(child);
  krons.push(child);
  let err = '',
    out = '';
  child.stderr!.on('data', (d: Buffer) => ((err += d), (written += d.length)));
  child.stdout!.on('data', (d: Buffer) => ((out += d), (written += d.length)));
  return Object.assign(child, { stderrText: () => err, stdoutText: () => out });
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code)),
  );

/** CPU clock ticks (user + system, /proc/<pid>/stat) the running kron processes have used: 0 where /proc is not */
function kronTicks(): number {
  let ticks = 0;
  for (const c of krons) {
    if (c.pid === undefined || c.exitCode !== null || c.signalCode !== null) continue;
    try {
      const fields = readFileSync(`/proc/${c.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process exited between the check and the read
    }
  }
  return ticks;
}

/**
 * Wait until ok() holds. The deadline is from progress, not from the clock:
 * it fails only after `idleMs` in which no child wrote a byte and no kron
 * process used CPU, so a loaded machine (which slows every process) delays
 * the test instead of failing it, and a process that hangs doing nothing
 * fails it. (The test's own timeout stays as the backstop for one that spins.)
 */
export async function until(what: string, ok: () => boolean | Promise<boolean>, idleMs = 30_000): Promise<void> {
  const progress = () => `${written} ${kronTicks()}`;
  let seen = progress(),
    idleSince = Date.now();
  while (!(await ok())) {
    const now = progress();
    if (now !== seen) [seen, idleSince] = [now, Date.now()];
    else if (Date.now() - idleSince > idleMs) throw new Error(`waiting for ${what}: no output and no CPU from the kron processes for ${idleMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** a redis-server on a port, ready; extra: more configuration, e.g. ['--user', ...] or TLS */
export async function startRedis(port: number, extra: string[] = []): Promise<ChildProcess> {
  const listen = extra.includes('--tls-port') ? [] : ['--port', String(port)];
  const redis = spawn('redis-server', [...listen, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(redis);
  let log = '';
  redis.stdout!.on('data', (d: Buffer) => ((log += d), (written += d.length)));
  await until(`redis-server on ${port}`, () => log.includes('Ready to accept connections') || redis.exitCode !== null, 10_000);
  if (redis.exitCode !== null) throw new Error(`redis-server on ${port} did not start: ${log}`);
  return redis;
}

/** the run indices a worker's --verbose lines say it started, or finished */
export const lines = (log: string, what: 'started' | 'ok') =>
  [...log.matchAll(new RegExp(`^run (\\d+) of sweep \\w+: ${what}$`, 'gm'))].map((m) => Number(m[1]));

/** a CSV's rows after the header, split into fields (no field here holds a comma) */
export const rows = (csv: string) =>
  csv
    .trim()
    .split('\n')
    .slice(1)
    .map((r) => r.split(','));

/**
 * A queue test's own timeout: only the backstop for a process that spins
 * without end. The waits (until) fail from a lack of progress, so the test's
 * time is whatever the machine's load makes it, not a guess of it.
 */
export const BACKSTOP = 600_000;
