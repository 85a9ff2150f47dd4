// Sweep throughput (issue 17): a Monte Carlo of the PUMA 560 (link masses
// and the shoulder's start angle drawn; 5 s each, RK4 at 1 ms), on the
// thread pool with 1 and with 2 workers, and through Redis with two
// `kron worker` processes of one thread each on this machine; then compile
// once against compile per run. Wall time, CPU time (this process with its
// threads; the worker processes' own from /proc) and runs/s, one line per
// configuration as it finishes, then a JSON summary.
//   npx tsx bench/sweep.ts [--runs 1000] [--stop 5] [--only local1,local2,queue,compile]
// --only queue needs redis-server (apt-get install redis-server).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile, simulate, sweepCompiled, sweepPoints, type SweepSpec } from '../src/index.ts';
import { CompiledModel } from '../src/codegen/compiled.ts';
import { sweptKinds } from '../src/sweep/tasks.ts';
import build from '../mechanisms/puma560.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    stop: { type: 'string', default: '5' },
    only: { type: 'string', default: 'local1,local2,queue,compile' },
  },
});
const runs = Number(values.runs),
  stop = Number(values.stop),
  only = values.only.split(',');
const root = new URL('..', import.meta.url).pathname;
const dist = ['link2.m=normal(17.4,0.5)', 'link3.m=normal(4.8,0.2)', 'j2.q=uniform(-0.5,0.5)'];
const points = sweepPoints({ samples: runs, dist, seed: 1 });
const model = build();
const kinds = sweptKinds(model, points.names);
const compiled = compile(model, { foldParameters: false });
const base: SweepSpec = { simulate: { stop, step: 1e-3 }, signals: ['j2.q', 'j3.q'] };
const summary: Record<string, unknown> = { runs, stop, model: 'mechanisms/puma560.ts', dist };

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
/** a child's CPU seconds so far, its threads included (utime + stime of /proc/<pid>/stat, in clock ticks of 1/100 s) */
const childCpu = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

async function timed(name: string, spec: SweepSpec, extraCpu: () => number = () => 0) {
  const [w0, c0, e0] = [performance.now(), cpu(), extraCpu()];
  let ok = 0,
    failed = 0;
  for await (const r of sweepCompiled(compiled, points, kinds, spec)) r.status === 'ok' ? ok++ : failed++;
  const wall = (performance.now() - w0) / 1000,
    cpuSeconds = cpu() - c0 + (extraCpu() - e0);
  const line = { wall: round(wall), cpu: round(cpuSeconds), runsPerSecond: round(runs / wall), ok, failed };
  summary[name] = line;
  console.log(`${name}: ${runs} runs in ${line.wall} s wall, ${line.cpu} s CPU, ${line.runsPerSecond} runs/s (${ok} ok, ${failed} failed)`);
}

const round = (x: number) => Math.round(x * 1000) / 1000;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function started(child: ChildProcess, text: string, stream: 'stdout' | 'stderr') {
  let out = '';
  await new Promise<void>((resolve) => child[stream]!.on('data', (d) => (out += d).includes(text) && resolve()));
}

if (only.includes('local1')) await timed('pool, 1 worker', { ...base, workers: 1 });
if (only.includes('local2')) await timed('pool, 2 workers', { ...base, workers: 2 });
if (only.includes('queue')) {
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await started(redis, 'Ready to accept connections', 'stdout');
  const url = `redis://127.0.0.1:${port}`;
  // the key producer and workers share (the workers inherit it): a queue runs only what it signed
  process.env.KRON_QUEUE_KEY ??= randomBytes(32).toString('hex');
  const workers = [0, 1].map(() =>
    spawn(process.execPath, [join(root, 'bin/kron.mjs'), 'worker', '--queue', url, '--workers', '1'], { stdio: ['ignore', 'inherit', 'pipe'] }),
  );
  await Promise.all(workers.map((w) => started(w, 'kron worker:', 'stderr')));
  const workerCpu = () => workers.reduce((s, w) => s + childCpu(w.pid!), 0);
  await timed('Redis, 2 kron worker processes of 1 thread', { ...base, queue: url }, workerCpu);
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((r) => w.on('exit', r))));
  redis.kill('SIGTERM');
}
if (only.includes('compile')) {
  // the same 20 runs, on one thread, twice: compiled once (a fresh state per run), and compiled anew for each run
  // with its values folded in, as 20 `kron simulate --set` would (each new code also starts cold in V8)
  const n = Math.min(20, runs),
    options = { stop, step: 1e-3, signals: ['j2.q', 'j3.q'] };
  const values = (i: number) => Object.fromEntries(points.names.map((name, k) => [name, points.values[i][k]]));
  const split = (i: number) => {
    const v = values(i);
    return { parameters: { 'link2.m': v['link2.m'], 'link3.m': v['link3.m'] }, start: { 'j2.q': v['j2.q'] } };
  };
  let t = performance.now();
  for (let i = 0; i < n; i++) simulate(compiled, { ...options, ...split(i) });
  const onceMs = (performance.now() - t) / n;
  t = performance.now();
  let compileMs = 0;
  for (let i = 0; i < n; i++) {
    const c0 = performance.now();
    const fresh = compile(build(), split(i));
    compileMs += performance.now() - c0;
    simulate(fresh, options);
  }
  const perRunMs = (performance.now() - t) / n;
  compileMs /= n;
  const portable = compiled.portable();
  t = performance.now();
  for (let i = 0; i < 5; i++) new CompiledModel(portable);
  const instantiateMs = (performance.now() - t) / 5;
  summary.compile = {
    runs: n,
    compileOnceMsPerRun: round(onceMs),
    compilePerRunMsPerRun: round(perRunMs),
    compileMs: round(compileMs),
    savedPerRunMs: round(perRunMs - onceMs),
    instantiateMs: round(instantiateMs),
  };
  console.log(
    `compile once: ${round(onceMs)} ms a run; compile per run: ${round(perRunMs)} ms a run (of which compile ${round(compileMs)} ms): ${round(perRunMs - onceMs)} ms saved per run (${n} runs on one thread); rebuilding the code from its portable form, once per thread: ${round(instantiateMs)} ms`,
  );
}
console.log(JSON.stringify(summary));
