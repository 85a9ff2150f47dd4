// What travels through a queue's Redis, checked field by field after its
// signature: a record of a real compiled model reads back as written, with
// the metric named by file name and the SHA-256 of its content (computed here
// independently) and no path of this machine; every malformed field of a
// record, job or result signed with the right key is refused with its name.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import build from '../../mechanisms/pendulum.ts';
import { jobMessage, readJob, readRecord, readResult, recordMessage, resultMessage } from '../../src/sweep/messages.ts';
import { sweepRecord } from '../../src/sweep/queue.ts';
import { QueueKey, RefusedMessage } from '../../src/sweep/signing.ts';

const key = new QueueKey(randomBytes(32));
const compiled = compile(build());
const dir = mkdtempSync(join(tmpdir(), 'kron-messages-'));
const metricFile = join(dir, 'overshoot.ts');
const metricText = "export default (r) => Math.max(...r.get('j1.q'));\n";
writeFileSync(metricFile, metricText);
const settings = { simulate: { stop: 1, step: 1e-3, integrator: 'rk4' as const }, signals: ['j1.q'], metric: metricFile, detail: join(dir, 'details', 'run7') };
const record = sweepRecord(compiled, settings);
const at = 'kron:sweep:0123456789abcdef';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof RefusedMessage) return e.message;
    throw e;
  }
  throw new Error('not refused');
};
type Tree = { [key: string]: unknown };
/** the record with the field at path set to value, signed with the right key */
const changed = (path: string, value: unknown): string => {
  const r = structuredClone(record) as unknown as Tree;
  const names = path.split('.');
  const parent = names.slice(0, -1).reduce((o, name) => o[name] as Tree, r);
  parent[names.at(-1)!] = value;
  return key.sign('record', at, JSON.stringify(r));
};
const readChanged = (path: string, value: unknown) => refusal(() => readRecord(key, at, changed(path, value)));

describe('the sweep record', () => {
  it('reads back as written; the metric by file name and content hash, the detail folder by its last name', () => {
    expect(record.settings.metric).toEqual({ name: 'overshoot.ts', sha256: createHash('sha256').update(metricText).digest('hex') });
    expect(record.settings.detail).toBe('run7');
    expect(JSON.stringify(record)).not.toContain(dir);
    expect(readRecord(key, at, recordMessage(key, at, record))).toEqual(JSON.parse(JSON.stringify(record)));
  });

  it('refuses every malformed field, naming it', () => {
    expect(readChanged('format', 'kron-sweep/1')).toBe(`the record at ${at}: format is "kron-sweep/1", not kron-sweep/2 (a producer of another Kron version?)`);
    expect(readChanged('model.generated.body', 42)).toBe(`the record at ${at}: model is not a portable model (kron-portable-model/1)`);
    expect(readChanged('settings.simulate.stop', -1)).toBe(`the record at ${at}: settings.simulate: stop time -1 must be a finite number >= 0`);
    expect(readChanged('settings.simulate.integrator', 'euler')).toMatch(/settings.simulate: integrator "euler" is not known/);
    expect(readChanged('settings.signals', 'j1.q')).toBe(`the record at ${at}: settings.signals is not a list of names`);
    expect(readChanged('settings.metric.name', '../../etc/passwd')).toBe(
      `the record at ${at}: settings.metric.name is "../../etc/passwd", not a file name (no folders)`,
    );
    expect(readChanged('settings.metric.sha256', 'abc')).toBe(`the record at ${at}: settings.metric.sha256 is not 64 hex digits`);
    expect(readChanged('settings.detail', '..')).toBe(`the record at ${at}: settings.detail is "..", not a folder name (no folders above it)`);
    expect(readChanged('settings.detail', '/tmp/x')).toMatch(/settings.detail is "\/tmp\/x", not a folder name/);
    expect(refusal(() => readRecord(key, at, key.sign('record', at, '{"format":')))).toMatch(new RegExp(`^the record at ${at} is not JSON: `));
    // a setting a later Kron adds passes: the signature vouches for it
    expect(readRecord(key, at, changed('settings.timeoutMs', 5000)).settings).toHaveProperty('timeoutMs', 5000);
  });
});

describe('jobs and results', () => {
  const hash = '0123456789abcdef';
  const task = { index: 4, parameters: { 'link.m': 2 }, start: { 'j1.q': -0.5 } };

  it('a job reads back as its sweep and run; one that names another run, or values that are not finite numbers, is refused', () => {
    expect(readJob(key, `${hash}-4`, jobMessage(key, `${hash}-4`, hash, task))).toEqual({ sweep: hash, task });
    // signed for id -4 but offered as -5: the signature names the place
    expect(refusal(() => readJob(key, `${hash}-5`, jobMessage(key, `${hash}-4`, hash, task)))).toMatch(
      /^the job 0123456789abcdef-5 has a signature that does not match/,
    );
    expect(refusal(() => readJob(key, `${hash}-5`, jobMessage(key, `${hash}-5`, hash, task)))).toBe(
      `the job ${hash}-5: task.index is 4, not the run its id names`,
    );
    const bad = (t: object, sweep = hash) =>
      refusal(() => readJob(key, `${sweep}-4`, { message: key.sign('job', `${sweep}-4`, JSON.stringify({ sweep, task: t })) }));
    expect(bad({ ...task, parameters: { 'link.m': 'NaN' } })).toBe(`the job ${hash}-4: task.parameters.link.m is "NaN", not a finite number`);
    expect(bad({ ...task, start: null })).toBe(`the job ${hash}-4: task.start is null, not an object`);
    expect(bad(task, 'ZZ')).toBe('the job ZZ-4: sweep is "ZZ", not 16 hex digits');
    expect(refusal(() => readJob(key, `${hash}-4`, { sweep: hash, task }))).toBe(`the job ${hash}-4 is not signed`);
  });

  it('a result keeps NaN, infinities and -0; one for another run, of another status or with a metric that is no number, is refused', () => {
    const where = `kron:sweep:${hash}:results/4`;
    const outcome = { index: 4, status: 'ok' as const, metrics: { a: NaN, b: Infinity, c: -Infinity, d: -0, e: 0.1 } };
    const back = readResult(key, where, 4, resultMessage(key, where, outcome));
    expect(back.metrics.a).toBeNaN();
    expect([back.metrics.b, back.metrics.c, Object.is(back.metrics.d, -0), back.metrics.e]).toEqual([Infinity, -Infinity, true, 0.1]);
    const error = { index: 4, status: 'error' as const, error: 'SimulationError: singular', metrics: {} };
    expect(readResult(key, where, 4, resultMessage(key, where, error))).toEqual(error);
    const bad = (o: object) => refusal(() => readResult(key, where, 4, key.sign('result', where, JSON.stringify(o))));
    expect(bad({ ...outcome, index: 5 })).toBe(`the result at ${where}: index is 5, not 4`);
    expect(bad({ ...outcome, status: 'fine' })).toBe(`the result at ${where}: status is "fine", not ok or error`);
    expect(bad({ index: 4, status: 'error', metrics: {} })).toBe(`the result at ${where}: an error without its message`);
    expect(bad({ ...outcome, metrics: { a: 'lots' } })).toBe(`the result at ${where}: metric a is "lots", not a number`);
  });
});
