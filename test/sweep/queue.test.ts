// Many machines, here as processes: a real redis-server on a loopback port,
// a producer (kron sweep --queue) and two workers (kron worker --queue); one
// worker is killed (SIGKILL) in the middle of a run. Every run's result must
// be present exactly once and equal the single-machine sweep's, the run the
// dead worker held must have been taken by the other one, and the same
// command again must find everything done; a producer killed midway and
// started again collects its sweep without a run done twice. Without redis-server the test is
// skipped with a warning; with CI=true it fails instead (.ci/run installs it).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const available = spawnSync('redis-server', ['--version']).status === 0;
const ci = process.env.CI === 'true';
if (!available && !ci) console.warn('test/sweep/queue.test.ts SKIPPED: redis-server is not installed (apt-get install redis-server); with CI=true this is a failure');

// the runs: long enough (about 0.1 s each) that a worker is killed inside one
const SWEEP = ['mechanisms/pendulum.ts', '--grid', 'j1.q=0:1.2:8', '--grid', 'link.m=1,2', '--stop', '2', '--step', '1e-5', '--interval', '0.01'];
const RUNS = 16;
// another sweep (another hash), whose producer is killed midway
const SWEEP2 = SWEEP.map((a) => (a === '2' ? '1.5' : a));

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function kron(args: string[]): ChildProcess & { stderrText: () => string } {
  const child = spawn(process.execPath, [join(root, 'bin/kron.mjs'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return Object.assign(child, { stderrText: () => err });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code))));

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** the run indices a worker's --verbose lines say it started, or finished */
const lines = (log: string, what: 'started' | 'ok') => [...log.matchAll(new RegExp(`^run (\\d+) of sweep \\w+: ${what}$`, 'gm'))].map((m) => Number(m[1]));

describe.skipIf(!available && !ci)('a queued sweep survives a worker killed mid-run', () => {
  it('every run once, equal to the single-machine sweep; the dead worker\'s run retried; a second producer finds all done', async () => {
    expect(available, 'redis-server must be installed when CI=true (.ci/run installs it with apt-get)').toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'kron-queue-'));
    const port = await freePort();
    const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(redis);
    let redisLog = '';
    redis.stdout!.on('data', (d) => (redisLog += d));
    await until('redis-server', () => redisLog.includes('Ready to accept connections'), 10_000);
    const url = `redis://127.0.0.1:${port}`;

    const local = kron(['sweep', ...SWEEP, '--workers', '2', '--out', join(dir, 'local.csv')]);
    expect(await exited(local)).toBe(0);
    const local2 = kron(['sweep', ...SWEEP2, '--workers', '2', '--out', join(dir, 'local2.csv')]);
    expect(await exited(local2)).toBe(0);
    const workerArgs = ['worker', '--queue', url, '--workers', '1', '--lock-duration', '1000', '--stalled-interval', '500', '--verbose'];
    const [a, b] = [kron(workerArgs), kron(workerArgs)];
    await until('the workers', () => a.stderrText().includes('kron worker:') && b.stderrText().includes('kron worker:'));

    const producer = kron(['sweep', ...SWEEP, '--queue', url, '--out', join(dir, 'queued.csv')]);
    // kill worker a inside a run: after it has finished two, the moment it starts the next
    await until('worker a to finish two runs', () => lines(a.stderrText(), 'ok').length >= 2);
    const done = lines(a.stderrText(), 'started').length;
    await until('worker a to start another run', () => lines(a.stderrText(), 'started').length > done);
    a.kill('SIGKILL');
    const held = lines(a.stderrText(), 'started').at(-1)!;
    expect(lines(a.stderrText(), 'ok')).not.toContain(held);

    expect(await exited(producer)).toBe(0);
    const queued = readFileSync(join(dir, 'queued.csv'), 'utf8');
    const rows = queued.trim().split('\n').slice(1);
    expect(rows.map((r) => Number(r.split(',')[0]))).toEqual([...Array(RUNS).keys()]);
    expect(rows.every((r) => r.split(',')[3] === 'ok')).toBe(true);
    expect(queued).toBe(readFileSync(join(dir, 'local.csv'), 'utf8'));
    // the run the dead worker held was put back by BullMQ's stalled-job check and done by b
    expect(lines(b.stderrText(), 'ok')).toContain(held);
    const byB = lines(b.stderrText(), 'ok').length;
    expect(lines(a.stderrText(), 'ok').length + byB).toBeGreaterThanOrEqual(RUNS);

    // resumable: the same command again enqueues nothing and writes the same file
    const again = kron(['sweep', ...SWEEP, '--queue', url, '--out', join(dir, 'again.csv')]);
    expect(await exited(again)).toBe(0);
    expect(readFileSync(join(dir, 'again.csv'), 'utf8')).toBe(queued);
    expect(lines(b.stderrText(), 'ok').length).toBe(byB);

    // resumable after the producer dies: its jobs stay queued, b finishes them, a new producer collects
    const before = lines(b.stderrText(), 'ok').length;
    const dying = kron(['sweep', ...SWEEP2, '--queue', url, '--out', join(dir, 'dying.csv')]);
    await until('three runs of the second sweep', () => lines(b.stderrText(), 'ok').length >= before + 3);
    dying.kill('SIGKILL');
    const resumed = kron(['sweep', ...SWEEP2, '--queue', url, '--out', join(dir, 'resumed.csv')]);
    expect(await exited(resumed)).toBe(0);
    expect(readFileSync(join(dir, 'resumed.csv'), 'utf8')).toBe(readFileSync(join(dir, 'local2.csv'), 'utf8'));
    expect(lines(b.stderrText(), 'ok').length - before).toBe(RUNS); // every run once: none enqueued again

    b.kill('SIGTERM');
    expect(await exited(b)).toBe(0);
    redis.kill('SIGTERM');
  });
});
