// What travels through the Redis of a queued sweep, signed (signing.ts) and
// checked field by field before use: the sweep record (portable model and
// run settings), each job (which sweep, which run) and each result. A
// message that fails either check is refused with a RefusedMessage that says
// what is wrong; nothing of it is used.
//
// The record names no path of the producer's machine: a --metric module
// travels as its file name and the SHA-256 of its content (a worker finds it
// in its own --metric-dir, worker-files.ts), a --detail folder as its last
// name (a worker writes under its own --detail-dir).
import type { PortableModel } from '../codegen/compiled.ts';
import { KronError } from '../errors.ts';
import { checkSimulateOptions } from '../sim/simulate.ts';
import type { RunOutcome, RunSettings, RunTask } from './run.ts';
import { type QueueKey, RefusedMessage } from './signing.ts';

export const RECORD_FORMAT = 'kron-sweep/2';

/** the run settings as the record carries them: no path of the producer's machine */
export interface QueueSettings extends Omit<RunSettings, 'metric' | 'detail'> {
  /** the --metric module: its file name and the SHA-256 of its content */
  readonly metric?: { readonly name: string; readonly sha256: string };
  /** the --detail folder's last name: workers write to <their --detail-dir>/<name>/ */
  readonly detail?: string;
}

/** the sweep record a worker reads before its first run of a sweep */
export interface SweepRecord {
  readonly format: typeof RECORD_FORMAT;
  /** the producer's Kron version: the generated code needs the same on the worker */
  readonly kron: string;
  readonly model: PortableModel;
  readonly settings: QueueSettings;
}

/** a BullMQ job's data: the signed { sweep, task } */
export interface JobData {
  readonly message: string;
}

// ---- writing

export const recordMessage = (key: QueueKey, where: string, record: SweepRecord) => key.sign('record', where, JSON.stringify(record));
export const jobMessage = (key: QueueKey, jobId: string, sweep: string, task: RunTask): JobData => ({
  message: key.sign('job', jobId, JSON.stringify({ sweep, task })),
});
export const resultMessage = (key: QueueKey, where: string, outcome: RunOutcome) => key.sign('result', where, encodeOutcome(outcome));

/** a number through JSON unchanged: NaN, infinities and -0 as strings */
const encodeNumber = (v: number): number | string => (Object.is(v, -0) ? '-0' : Number.isFinite(v) ? v : String(v));
const NUMBER_WORDS: Record<string, number> = { NaN, Infinity, '-Infinity': -Infinity, '-0': -0 };

function encodeOutcome(o: RunOutcome): string {
  return JSON.stringify({ ...o, metrics: Object.fromEntries(Object.entries(o.metrics).map(([k, v]) => [k, encodeNumber(v)])) });
}

// ---- reading: signature first, then every field

// (key, record's Redis key, message) => the record; RefusedMessage when forged or malformed
export function readRecord(key: QueueKey, where: string, message: unknown): SweepRecord {
  const r = parse(key.open('record', where, message), `the record at ${where}`);
  const at = (field: string) => `the record at ${where}: ${field}`;
  if (r.format !== RECORD_FORMAT) throw new RefusedMessage(`${at('format')} is ${show(r.format)}, not ${RECORD_FORMAT} (a producer of another Kron version?)`);
  if (typeof r.kron !== 'string') throw new RefusedMessage(`${at('kron')} is not a version`);
  const model = object(r.model, at('model'));
  if (model.format !== 'kron-portable-model/1' || typeof object(model.generated, at('model.generated')).body !== 'string')
    throw new RefusedMessage(`${at('model')} is not a portable model (kron-portable-model/1)`);
  return { ...(r as unknown as SweepRecord), settings: readSettings(object(r.settings, at('settings')), at) };
}

function readSettings(s: Record<string, unknown>, at: (field: string) => string): QueueSettings {
  const simulate = object(s.simulate, at('settings.simulate'));
  try {
    checkSimulateOptions(simulate as never);
  } catch (e) {
    if (e instanceof KronError) throw new RefusedMessage(`${at('settings.simulate')}: ${e.message}`);
    throw e;
  }
  if (s.signals !== undefined && !(Array.isArray(s.signals) && s.signals.every((n) => typeof n === 'string')))
    throw new RefusedMessage(`${at('settings.signals')} is not a list of names`);
  if (s.metric !== undefined) {
    const m = object(s.metric, at('settings.metric'));
    if (!isFileName(m.name)) throw new RefusedMessage(`${at('settings.metric.name')} is ${show(m.name)}, not a file name (no folders)`);
    if (typeof m.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(m.sha256)) throw new RefusedMessage(`${at('settings.metric.sha256')} is not 64 hex digits`);
  }
  if (s.detail !== undefined && !isFileName(s.detail))
    throw new RefusedMessage(`${at('settings.detail')} is ${show(s.detail)}, not a folder name (no folders above it)`);
  // fields this file does not know (settings a later run.ts adds) pass as they are: the signature vouches for them
  return s as unknown as QueueSettings;
}

// (key, BullMQ job id "<sweep>-<index>", job data) => which sweep and run; RefusedMessage when forged or malformed
export function readJob(key: QueueKey, jobId: string, data: unknown): { sweep: string; task: RunTask } {
  const body = parse(key.open('job', jobId, (data as Partial<JobData> | undefined)?.message), `the job ${jobId}`);
  const task = object(body.task, `the job ${jobId}: task`);
  if (typeof body.sweep !== 'string' || !/^[0-9a-f]{16}$/.test(body.sweep))
    throw new RefusedMessage(`the job ${jobId}: sweep is ${show(body.sweep)}, not 16 hex digits`);
  if (!isIndex(task.index) || jobId !== `${body.sweep}-${task.index}`)
    throw new RefusedMessage(`the job ${jobId}: task.index is ${show(task.index)}, not the run its id names`);
  return {
    sweep: body.sweep,
    task: {
      index: task.index,
      parameters: values(task.parameters, `the job ${jobId}: task.parameters`),
      start: values(task.start, `the job ${jobId}: task.start`),
    },
  };
}

// (key, where it sits, the run it must be, message) => the outcome; RefusedMessage when forged or malformed
export function readResult(key: QueueKey, where: string, index: number, message: unknown): RunOutcome {
  const o = parse(key.open('result', where, message), `the result at ${where}`);
  const at = `the result at ${where}`;
  if (o.index !== index) throw new RefusedMessage(`${at}: index is ${show(o.index)}, not ${index}`);
  if (o.status !== 'ok' && o.status !== 'error') throw new RefusedMessage(`${at}: status is ${show(o.status)}, not ok or error`);
  if (o.status === 'error' && typeof o.error !== 'string') throw new RefusedMessage(`${at}: an error without its message`);
  const metrics: Record<string, number> = {};
  for (const [name, v] of Object.entries(object(o.metrics, `${at}: metrics`))) {
    if (typeof v === 'number') metrics[name] = v;
    else if (typeof v === 'string' && Object.hasOwn(NUMBER_WORDS, v)) metrics[name] = NUMBER_WORDS[v];
    else throw new RefusedMessage(`${at}: metric ${name} is ${show(v)}, not a number`);
  }
  return { index, status: o.status, ...(o.status === 'error' && { error: o.error as string }), metrics };
}

// ---- field checks

function parse(text: string, what: string): Record<string, unknown> {
  try {
    return object(JSON.parse(text), what);
  } catch (e) {
    if (e instanceof SyntaxError) throw new RefusedMessage(`${what} is not JSON: ${e.message}`);
    throw e;
  }
}

function object(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RefusedMessage(`${what} is ${show(v)}, not an object`);
  return v as Record<string, unknown>;
}

/** a run's named values: every one a finite number */
function values(v: unknown, what: string): Record<string, number> {
  const o = object(v, what);
  for (const [name, x] of Object.entries(o))
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new RefusedMessage(`${what}.${name} is ${show(x)}, not a finite number`);
  return o as Record<string, number>;
}

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** one name inside a folder: nothing that climbs out of it or names another */
export const isFileName = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= 255 && v !== '.' && v !== '..' && !/[/\\\0]/.test(v);

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
};
