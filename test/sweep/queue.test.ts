// Many machines, here as processes: a real redis-server on a loopback port,
// a producer (kron sweep --queue) and two workers (kron worker --queue); one
// worker is killed (SIGKILL) in the middle of a run. Every run's result must
// be present exactly once and equal the single-machine sweep's, the run the
// dead worker held must have been taken by the other one, and the same
// command again must find everything done; a producer killed midway and
// started again collects its sweep without a run done twice. Without redis-server the test is
// skipped with a warning; with CI=true it fails instead (.ci/run installs it).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kronInProcess } from '../cli/in-process.ts';
import { BACKSTOP, exited, freePort, killAll, kron, lines, redisAvailable, redisMissing, skipQueue, startRedis, until } from './queue-harness.ts';

if (skipQueue) console.warn('test/sweep/queue.test.ts SKIPPED: redis-server is not installed (apt-get install redis-server); with CI=true this is a failure');

// the runs: long enough (about 0.1 s each) that a worker is killed inside one
const SWEEP = ['mechanisms/pendulum.ts', '--grid', 'j1.q=0:1.2:8', '--grid', 'link.m=1,2', '--stop', '2', '--step', '1e-5', '--interval', '0.01'];
const RUNS = 16;
// another sweep (another hash), whose producer is killed midway
const SWEEP2 = SWEEP.map((a) => (a === '2' ? '1.5' : a));

afterAll(killAll);

describe.skipIf(skipQueue)('a queued sweep survives a worker killed mid-run', () => {
  it(
    "every run once, equal to the single-machine sweep; the dead worker's run retried; a second producer finds all done",
    async () => {
      expect(redisAvailable, redisMissing).toBe(true);
      const dir = mkdtempSync(join(tmpdir(), 'kron-queue-'));
      const port = await freePort();
      const redis = await startRedis(port);
      const url = `redis://127.0.0.1:${port}`;

      // the single-machine references, on threads in this process (main())
      const local = await kronInProcess('sweep', ...SWEEP, '--workers', '2', '--out', join(dir, 'local.csv'));
      expect(local.status, local.stderr).toBe(0);
      const local2 = await kronInProcess('sweep', ...SWEEP2, '--workers', '2', '--out', join(dir, 'local2.csv'));
      expect(local2.status, local2.stderr).toBe(0);
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

      // idle, the first SIGTERM stops it at once
      b.kill('SIGTERM');
      expect(await exited(b)).toBe(0);
      expect(b.stderrText()).toMatch(/kron worker: stopping: no run in hand\nkron worker: stopped after \d+ runs\n$/);
      redis.kill('SIGTERM');
    },
    BACKSTOP,
  );
});
