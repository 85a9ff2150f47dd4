// One run of a sweep, wherever it happens (a pool thread, a queue worker):
// a fresh state of the compiled model with the run's parameters and start
// values, simulate(), then the summary metrics of the chosen signals and the
// user's metric. A run that throws is an outcome too: its error is recorded
// and the sweep goes on. So is a metric that returns anything but finite
// numbers, or a name that is already a column of the sweep's CSV: the run's
// row is an error that names the metric, the run and the key.
import { join } from 'node:path';
import { CompiledModel, type PortableModel } from '../codegen/compiled.ts';
import { ModelError } from '../errors.ts';
import { writeOutput } from '../node/output-file.ts';
import { type SimulateOptions, simulate } from '../sim/simulate.ts';
import type { SimulationResult } from '../sim/result.ts';
import { type MetricFunction, loadMetric } from './metric.ts';

/** what every run of a sweep shares: how to simulate and what to keep */
export interface RunSettings {
  /** the simulation every run makes: stop, step, interval, integrator, tolerances */
  readonly simulate: Pick<SimulateOptions, 'stop' | 'step' | 'interval' | 'integrator' | 'rtol' | 'atol'>;
  /** the signals whose final value, min and max are kept (default: the states) */
  readonly signals?: readonly string[];
  /** a module whose default export computes more metrics from the SimulationResult */
  readonly metric?: string;
  /** the metric module's content hash (metric.ts metricHash): part of the sweep's hash, checked where it is imported */
  readonly metricHash?: string;
  /** a folder for one CSV per run with the sampled signals (run-000012.csv) */
  readonly detail?: string;
}

/** one run to do: its index and values, already split into parameters and start values */
export interface RunTask {
  /** the run's index in the sweep (grid order, or the sample's number) */
  readonly index: number;
  readonly parameters: Readonly<Record<string, number>>;
  readonly start: Readonly<Record<string, number>>;
}

/** what one run gave */
export interface RunOutcome {
  /** the run's index in the sweep (grid order, or the sample's number) */
  readonly index: number;
  /** whether the run finished or failed */
  readonly status: 'ok' | 'error';
  /** the error's name and message, for status 'error' */
  readonly error?: string;
  /** final(s), min(s), max(s) of each signal s, then the user metric's values; empty for an error */
  readonly metrics: Readonly<Record<string, number>>;
}

export type Runner = (task: RunTask) => RunOutcome;

// (portable compiled model, settings) => a function that does one run; the metric module is imported once
export async function makeRunner(model: CompiledModel | PortableModel, settings: RunSettings): Promise<Runner> {
  const compiled = model instanceof CompiledModel ? model : new CompiledModel(model);
  const metric = settings.metric === undefined ? undefined : await loadMetric(settings.metric, settings.metricHash);
  return (task) => runOne(compiled, task, settings, metric);
}

export function runOne(compiled: CompiledModel, task: RunTask, settings: RunSettings, metric?: MetricFunction): RunOutcome {
  try {
    const signals = settings.signals ?? compiled.stateNames;
    const result = simulate(compiled, { ...settings.simulate, signals, parameters: task.parameters, start: task.start });
    const own = summary(result);
    const metrics = { ...own, ...(metric && userMetrics(metric, settings.metric ?? 'metric', result, task, own)) };
    // written whole or not at all: a full disk is this run's OutputError
    if (settings.detail) writeOutput(join(settings.detail, `run-${String(task.index).padStart(6, '0')}.csv`), result.csvChunks());
    return { index: task.index, status: 'ok', metrics };
  } catch (e) {
    return { index: task.index, status: 'error', error: describe(e), metrics: {} };
  }
}

/** final, min and max of every recorded signal */
export function summary(result: SimulationResult): Record<string, number> {
  const out: Record<string, number> = {};
  result.names.forEach((name, i) => {
    const c = result.columns[i];
    let min = Infinity,
      max = -Infinity;
    for (const v of c) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    out[`final(${name})`] = c[c.length - 1];
    out[`min(${name})`] = min;
    out[`max(${name})`] = max;
  });
  return out;
}

/** the metric's values, each a finite number under a name that is not yet a column of the CSV */
function userMetrics(metric: MetricFunction, file: string, result: SimulationResult, task: RunTask, summary: Record<string, number>): Record<string, number> {
  const value: unknown = metric(result);
  const where = `metric ${file}, run ${task.index}`;
  const hint = "return a finite number or an object of them, e.g. export default (r) => ({ overshoot: Math.max(...r.get('j2.q')) - r.final('j2.q') })";
  if (typeof value !== 'number' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new ModelError(`${where}: returned ${what(value)}, not a number or an object of named numbers`, { component: file, hint });
  }
  const entries = typeof value === 'number' ? [['metric', value] as const] : Object.entries(value);
  const taken = new Set(['run', 'status', 'error', ...Object.keys(task.parameters), ...Object.keys(task.start), ...Object.keys(summary)]);
  for (const [key, v] of entries) {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ModelError(`${where}: "${key}" is ${what(v)}, not a finite number`, { component: file, hint });
    if (taken.has(key)) {
      throw new ModelError(`${where}: "${key}" is already a column of the sweep's CSV`, {
        component: file,
        hint: 'give the value another name: run, status, error, the swept names and final(s), min(s), max(s) of the recorded signals are taken',
      });
    }
  }
  return Object.fromEntries(entries) as Record<string, number>;
}

/** a value as an error message names it */
function what(v: unknown): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)}`;
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** an error as one line of the results: its name (SimulationError...) and message */
export function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
