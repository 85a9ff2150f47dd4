// Per-file CPU of npm test (issue 34), on only when KRON_TEST_CPU names a file:
// `KRON_TEST_CPU=/tmp/cpu.jsonl npx vitest run`, then `npm run test:cpu -- /tmp/cpu.jsonl`.
// Files share worker processes (isolate: false), so a file's wall time is a poor proxy
// of its cost under load; the worker's own CPU (process.cpuUsage) between this file's
// first and last hook is not, and the CPU of the processes it spawned and waited for
// (kron CLIs, tsx, Chromium) is /proc/self/stat's cutime + cstime over the same span.
import { appendFileSync, readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { afterAll, expect } from 'vitest';

const out = process.env.KRON_TEST_CPU;

/** CPU seconds of children this process has waited for (Linux; 0 elsewhere) */
function childrenCpu(): number {
  try {
    // fields after the parenthesised command name: cutime and cstime are the 14th and 15th, in clock ticks (100 Hz)
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

/** the collector's pauses of this worker, in ms, summed (one observer per worker: setup files run per test file) */
const gc = globalThis as { kronGcMs?: number };
if (out && gc.kronGcMs === undefined) {
  gc.kronGcMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gc.kronGcMs! += e.duration;
  }).observe({ entryTypes: ['gc'] });
}

if (out) {
  // vitest evaluates setup files again before each test file, also in a shared worker:
  // this counts the test file's imports and top-level code, which run before its hooks
  const start = process.cpuUsage();
  const startChildren = childrenCpu();
  const startGc = gc.kronGcMs ?? 0;
  afterAll(() => {
    const used = process.cpuUsage(start);
    const file = expect.getState().testPath ?? 'unknown';
    const row = {
      file,
      self: (used.user + used.system) / 1e6,
      children: childrenCpu() - startChildren,
      // the collector's pauses in this file (seconds of wall time: under load longer than their CPU), and the heap the
      // worker carries into the next file (isolate: false): a file that keeps big models alive makes every later GC dearer
      gc: ((gc.kronGcMs ?? 0) - startGc) / 1e3,
      heapMB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      pid: process.pid,
    };
    appendFileSync(out, JSON.stringify(row) + '\n');
  });
}
