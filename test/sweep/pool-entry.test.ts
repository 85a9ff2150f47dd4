// A pool thread started from the sources (src/sweep/pool-entry.mjs) runs the
// build's pool-task.js when dist/ is fresh (bin/kron.mjs's check), else the
// sources through tsx, and KRON_FROM_SOURCES=1 asks for the sources: both
// give the same outcome of the same run, bit for bit (the oracle: the other
// one). When dist/ is not fresh both threads run the sources, as the test says.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import type { RunOutcome, RunSettings, RunTask } from '../../src/sweep/run.ts';
import { distIsFresh } from '../../scripts/build-inputs.mjs';
import build from '../../mechanisms/pendulum.ts';

const entry = new URL('../../src/sweep/pool-entry.mjs', import.meta.url).href;

/** (env of the thread, its workerData, a task) => which code the thread loaded and the task's outcome */
function inThread(env: NodeJS.ProcessEnv, workerData: unknown, task: RunTask): Promise<{ loaded: string; outcome: RunOutcome }> {
  const script = `const { parentPort } = require('node:worker_threads');
import(${JSON.stringify(entry)}).then(async (m) => parentPort.postMessage({ loaded: m.loaded, outcome: await m.default(${JSON.stringify(task)}) }));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { eval: true, workerData, env });
    worker.once('message', (m) => (resolve(m), void worker.terminate()));
    worker.once('error', reject);
  });
}

describe("a pool thread's entry from the sources", () => {
  it('runs dist/ when it is fresh, the sources otherwise or with KRON_FROM_SOURCES=1: the same outcome bit for bit', async () => {
    const settings: RunSettings = { simulate: { stop: 0.2, step: 1e-3 }, signals: ['j1.q', 'j1.qd'] };
    const workerData = { model: compile(build(), { foldParameters: false }).portable(), settings };
    const task: RunTask = { index: 3, parameters: { 'link.m': 1.7 }, start: { 'j1.q': -0.4 } };
    const fresh = distIsFresh();
    const [built, sources] = await Promise.all([
      inThread({ ...process.env, KRON_FROM_SOURCES: '0' }, workerData, task),
      inThread({ ...process.env, KRON_FROM_SOURCES: '1' }, workerData, task),
    ]);
    expect(built.loaded).toBe(fresh ? 'dist' : 'sources');
    expect(sources.loaded).toBe('sources');
    expect(built.outcome.status).toBe('ok');
    expect(Object.keys(built.outcome.metrics)).toContain('final(j1.q)');
    expect(built.outcome).toEqual(sources.outcome);
  });
});
