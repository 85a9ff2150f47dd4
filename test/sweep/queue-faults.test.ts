// A queued sweep under faults, with real processes on a real redis-server:
// forged results and a forged sweep record with forged jobs (written straight
// into Redis, as anyone who can write to it could), Redis killed and started
// again empty in the middle of a sweep, a worker stopped by SIGTERM in the
// middle of a run (its runs finished, or abandoned to another worker), and
// Redis gone for good. The oracle of every sweep that ends is the same sweep
// run locally on threads: the final CSV must be byte for byte the same; what
// producer and workers print is checked line by line.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueKey } from '../../src/sweep/signing.ts';
import { kronInProcess } from '../cli/in-process.ts';
import {
  BACKSTOP,
  type Kron,
  KEY,
  exited,
  freePort,
  killAll,
  kron,
  lines,
  redisAvailable,
  redisMissing,
  rows,
  skipQueue,
  startRedis,
  until,
} from './queue-harness.ts';

if (skipQueue)
  console.warn('test/sweep/queue-faults.test.ts SKIPPED: redis-server is not installed (apt-get install redis-server); with CI=true this is a failure');

/** 8 runs, and variants of it (each another sweep, another hash); at step 1e-5 a run takes ~0.1 s: long enough to stop a worker inside one */
const sweepOf = (stop: string, step = '1e-4') => ['mechanisms/pendulum.ts', '--grid', 'j1.q=0:1.2:8', '--stop', stop, '--step', step, '--interval', '0.01'];
const FORGED_RESULT = sweepOf('0.5'),
  FORGED_RECORD = sweepOf('0.6'),
  RESTART = sweepOf('1.2', '1e-5'),
  STOPPED = sweepOf('0.8', '1e-5'),
  GONE = sweepOf('0.7');

const dir = mkdtempSync(join(tmpdir(), 'kron-queue-faults-'));
let port: number, url: string, redis: Awaited<ReturnType<typeof startRedis>>, attacker: Redis, queue: Queue;
/** the worker of the first tests */
let w: Kron;

/** the same sweep on threads here, in this process (main()): the reference every queued sweep must equal */
async function local(sweep: string[], name: string): Promise<string> {
  const out = join(dir, `${name}-local.csv`);
  const run = await kronInProcess('sweep', ...sweep, '--workers', '1', '--out', out);
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(out, 'utf8');
}

function produce(sweep: string[], name: string, extra: string[] = []): Kron & { csv: () => string; hash: () => string } {
  const out = join(dir, `${name}.csv`);
  const p = kron(['sweep', ...sweep, '--queue', url, '--out', out, ...extra]);
  return Object.assign(p, { csv: () => readFileSync(out, 'utf8'), hash: () => /kron sweep: sweep ([0-9a-f]{16})/.exec(p.stderrText())?.[1] ?? '' });
}

const worker = (extra: string[] = []) =>
  kron(['worker', '--queue', url, '--workers', '1', '--lock-duration', '2000', '--stalled-interval', '500', '--verbose', ...extra]);
const started = (k: Kron) => until('the worker', () => k.stderrText().includes('kron worker: 1 threads'));
/** the genuine body of a signed message (the text after its three leading fields) */
const bodyOf = (message: string) => message.split(' ').slice(3).join(' ');

beforeAll(async () => {
  if (skipQueue) return;
  port = await freePort();
  url = `redis://127.0.0.1:${port}`;
  redis = await startRedis(port);
  attacker = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: () => 200 });
  attacker.on('error', () => {});
  queue = new Queue('kron-sweep', { connection: { port, host: '127.0.0.1', retryStrategy: () => 200 } });
  queue.on('error', () => {});
}, BACKSTOP);

afterAll(async () => {
  killAll();
  attacker?.disconnect();
});

describe.skipIf(skipQueue)('a queued sweep under faults', () => {
  it(
    'refuses forged results: error rows said on stderr; the same command again gives the local CSV',
    async () => {
      expect(redisAvailable, redisMissing).toBe(true);
      const reference = await local(FORGED_RESULT, 'forged-result');
      // no worker yet: the runs wait while results are forged
      const p1 = produce(FORGED_RESULT, 'forged-result-1');
      await until('the sweep to be enqueued', () => p1.hash() !== '');
      const results = `kron:sweep:${p1.hash()}:results`;
      await attacker.hset(results, '3', JSON.stringify({ index: 3, status: 'ok', metrics: { 'final(j1.q)': 42, 'min(j1.q)': 42, 'max(j1.q)': 42 } }));
      const other = new QueueKey(randomBytes(32).toString('hex'));
      await attacker.hset(results, '5', other.sign('result', `${results}/5`, JSON.stringify({ index: 5, status: 'ok', metrics: {} })));
      await attacker.rpush(`kron:sweep:${p1.hash()}:done`, '3', '5');
      await until('the producer to refuse both', () => (p1.stderrText().match(/^refused the result of run/gm) ?? []).length === 2);
      w = worker();
      await started(w);
      expect(await exited(p1), p1.stderrText()).toBe(0);
      const said = p1.stderrText();
      expect(said).toContain(
        `refused the result of run 3: the result at ${results}/3 is not signed; its row is an error, and the same command again runs it anew`,
      );
      expect(said).toContain(
        `refused the result of run 5: the result at ${results}/5 is signed with another key (key id ${other.id}, this one's is ${new QueueKey(KEY).id})`,
      );
      const table = rows(p1.csv()),
        good = rows(reference);
      for (const i of [3, 5])
        expect(table[i].slice(2, 4)).toEqual([
          'error',
          "QueueError: the result in Redis was refused (see the producer's stderr); the same command again runs it anew",
        ]);
      for (const i of [0, 1, 2, 4, 6, 7]) expect(table[i]).toEqual(good[i]);
      // the workers' own results for 3 and 5 came after the forgery: the same command again finds all done
      const p2 = produce(FORGED_RESULT, 'forged-result-2');
      expect(await exited(p2), p2.stderrText()).toBe(0);
      expect(p2.csv()).toBe(reference);
      expect(p2.stderrText()).toMatch(/: 8 runs, 8 done, 0 enqueued\n/);
    },
    BACKSTOP,
  );

  it(
    'refuses a forged sweep record and forged jobs: none of their code runs; the same command again gives the local CSV',
    async () => {
      const reference = await local(FORGED_RECORD, 'forged-record');
      await queue.pause(); // the worker takes nothing while the attacker writes
      const p1 = produce(FORGED_RECORD, 'forged-record-1');
      await until('the sweep to be enqueued', () => p1.hash() !== '');
      const hash = p1.hash(),
        record = `kron:sweep:${hash}`;
      // the genuine record with code of the attacker's, unsigned
      const forged = JSON.parse(bodyOf((await attacker.get(record))!));
      forged.model.generated.body =
        "process.stderr.write('PWNED by a forged record\\n'); return Object.assign(() => {}, { outputs: () => {}, functions: {} });";
      await attacker.set(record, JSON.stringify(forged));
      // jobs: one in the format of old producers (unsigned), one signed with another key under this sweep's id
      await queue.add('run', { sweep: hash, task: { index: 0, parameters: {}, start: {} } }, { jobId: 'forged-1', removeOnFail: true });
      const other = new QueueKey(randomBytes(32).toString('hex'));
      const id = `${hash}-99`;
      await queue.add(
        'run',
        { message: other.sign('job', id, JSON.stringify({ sweep: hash, task: { index: 99, parameters: {}, start: {} } })) },
        { jobId: id, removeOnFail: true },
      );
      await queue.resume();
      expect(await exited(p1), p1.stderrText()).toBe(0);
      for (const row of rows(p1.csv()))
        expect(row.slice(2, 4)).toEqual(['error', `QueueError: the job failed after 1 attempts: refused by a worker: the record at ${record} is not signed`]);
      const said = w.stderrText();
      expect(said).not.toContain('PWNED');
      expect(said.split('\n').filter((l) => l.startsWith(`refused the sweep record ${record}`))).toEqual([
        `refused the sweep record ${record}: the record at ${record} is not signed; none of it runs`,
      ]);
      expect(said).toContain('refused job forged-1: the job forged-1 is not signed; it is not run');
      expect(said).toContain(
        `refused job ${id}: the job ${id} is signed with another key (key id ${other.id}, this one's is ${new QueueKey(KEY).id}); it is not run`,
      );
      // the same command writes its record again and retries the failed runs
      const p2 = produce(FORGED_RECORD, 'forged-record-2');
      expect(await exited(p2), p2.stderrText()).toBe(0);
      expect(p2.csv()).toBe(reference);
      expect(said).not.toContain('PWNED');
    },
    BACKSTOP,
  );

  it(
    'Redis killed and started again empty mid-sweep: the producer re-enqueues what it lacks; the local CSV',
    async () => {
      const reference = await local(RESTART, 'restart');
      const before = lines(w.stderrText(), 'ok').length;
      const p = produce(RESTART, 'restart');
      await until('three runs done', () => lines(w.stderrText(), 'ok').length >= before + 3);
      redis.kill('SIGKILL');
      await until('the producer to see the loss', () => p.stderrText().includes('reconnecting in'));
      await new Promise((r) => setTimeout(r, 500));
      redis = await startRedis(port);
      expect(await exited(p), p.stderrText()).toBe(0);
      expect(p.csv()).toBe(reference);
      const said = p.stderrText();
      expect(said).toMatch(
        new RegExp(
          `^lost Redis at ${url} \\((the connection closed|read ECONNRESET)\\): reconnecting in 100 ms \\(attempt 1, 0\\.\\d s since the loss of --queue-timeout 60\\.0 s\\)$`,
          'm',
        ),
      );
      expect(said).toMatch(new RegExp(`^Redis at ${url} answers again after \\d+\\.\\d s$`, 'm'));
      expect(said).toMatch(
        new RegExp(
          `^the sweep record kron:sweep:${p.hash()} is gone from Redis \\(restarted without persistence, flushed, or evicted\\): writing it again and enqueueing the \\d+ runs not yet collected again$`,
          'm',
        ),
      );
      expect(w.stderrText()).toMatch(new RegExp(`^Redis at ${url} answers again after`, 'm'));
    },
    BACKSTOP,
  );

  it(
    'SIGTERM mid-run: the runs in hand finish (exit 0); with --grace 0 they go back to the queue for another worker',
    async () => {
      const reference = await local(STOPPED, 'stopped');
      const p = produce(STOPPED, 'stopped');
      // w finishes what it holds
      const from = lines(w.stderrText(), 'started').length;
      await until('a run started', () => lines(w.stderrText(), 'started').length > from);
      w.kill('SIGTERM');
      expect(await exited(w)).toBe(0);
      // every run it had started, it finished
      expect(lines(w.stderrText(), 'ok')).toEqual(expect.arrayContaining(lines(w.stderrText(), 'started').slice(from)));
      expect(w.stderrText()).toMatch(
        /kron worker: stopping: the \d runs in hand may finish for 10 s \(a second Ctrl-C or SIGTERM abandons them\)\nrun \d+ of sweep/,
      );
      // w2 abandons its runs at once: they are not lost, w3 does them
      const w2 = worker(['--grace', '0']);
      await until('w2 to start a run', () => lines(w2.stderrText(), 'started').length > 0);
      w2.kill('SIGTERM');
      expect(await exited(w2)).toBe(0);
      const abandoned = /abandoned runs ([\d, ]+): their jobs are back in the queue for another worker/.exec(w2.stderrText());
      expect(abandoned, w2.stderrText()).not.toBeNull();
      const w3 = worker();
      expect(await exited(p), p.stderrText()).toBe(0);
      expect(p.csv()).toBe(reference);
      for (const i of abandoned![1].split(', ').map(Number)) expect(lines(w3.stderrText(), 'ok')).toContain(i);
      w = w3;
    },
    BACKSTOP,
  );

  it(
    'jobs lost, then Redis gone: the producer says what the queue holds, enqueues the lost runs again, says every reconnection attempt and fails after --queue-timeout; an idle worker stops at the first SIGTERM',
    async () => {
      await queue.pause(); // no run is taken: the producer waits and says so
      const p = produce(GONE, 'gone', ['--queue-timeout', '1.5']);
      await until('the quiet report', () => p.stderrText().includes('no result for'), 20_000);
      expect(p.stderrText()).toMatch(
        new RegExp(
          `^no result for 1\\.\\d s: 8 of 8 runs to go; the queue holds 0 active, 8 waiting, 0 delayed jobs: is a kron worker running on ${url} with the same key \\(key id ${new QueueKey(KEY).id}\\)\\?$`,
          'm',
        ),
      );
      // the jobs go (an eviction, a careless FLUSH of BullMQ's keys): the next quiet report finds them gone
      await queue.drain();
      await until('the lost jobs', () => p.stderrText().includes('had no job in Redis'), 20_000);
      expect(p.stderrText()).toMatch(
        /^no result for \d\.\d s: 8 of 8 runs to go; the queue holds 0 active, 0 waiting, 0 delayed jobs: .*\n8 runs had no job in Redis \(lost, or completed without a result\): enqueued again$/m,
      );
      // the producer says so, then adds the jobs: under load the count catches up a moment after the line
      await until('the lost runs enqueued again', async () => (await queue.getJobCounts('waiting')).waiting === 8, 20_000);
      expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 8 });
      await queue.close();
      redis.kill('SIGKILL');
      expect(await exited(p)).toBe(1);
      const said = p.stderrText().trim().split('\n');
      expect(said.filter((l) => / reconnecting in \d+ ms \(attempt \d+, /.test(l)).length).toBeGreaterThanOrEqual(3);
      // how long it went unanswered is wall time to the first retry at or past the timeout: 1.5 s and up
      // (under the load of other jobs a retry can come well after it)
      const gaveUp = new RegExp(
        `^QueueError: lost Redis at ${url} \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\): no answer for (\\d+\\.\\d) s \\(--queue-timeout 1\\.5 s\\): the sweep stops\n  hint: start Redis again`,
      );
      expect(said.slice(-2).join('\n')).toMatch(gaveUp);
      expect(Number(gaveUp.exec(said.slice(-2).join('\n'))![1])).toBeGreaterThanOrEqual(1.5);
      w.kill('SIGTERM');
      expect(await exited(w)).toBe(0);
      expect(w.stderrText()).toMatch(/kron worker: stopping: no run in hand\nkron worker: stopped after \d+ runs\n$/);
    },
    BACKSTOP,
  );
});
