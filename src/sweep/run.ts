// One run of a sweep, wherever it happens (a pool thread, a queue worker):
// a fresh state of the compiled model with the run's parameters and start
// values, simulate(), then the summary metrics of the chosen signals and the
// user's metric. A run that throws is an outcome too: its error is recorded
// and the sweep goes on.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledModel, type PortableModel } from '../codegen/compiled.ts';
import { type SimulateOptions, simulate } from '../sim/simulate.ts';
import type { SimulationResult } from '../sim/result.ts';
import { type MetricFunction, loadMetric } from './metric.ts';

/** what every run of a sweep shares: how to simulate and what to keep */
export interface RunSettings {
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
  readonly index: number;
  readonly parameters: Readonly<Record<string, number>>;
  readonly start: Readonly<Record<string, number>>;
}

/** what one run gave */
export interface RunOutcome {
  readonly index: number;
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
  if (settings.detail) mkdirSync(settings.detail, { recursive: true });
  return (task) => runOne(compiled, task, settings, metric);
}

export function runOne(compiled: CompiledModel, task: RunTask, settings: RunSettings, metric?: MetricFunction): RunOutcome {
  try {
    const signals = settings.signals ?? compiled.stateNames;
    const result = simulate(compiled, { ...settings.simulate, signals, parameters: task.parameters, start: task.start });
    const metrics = { ...summary(result), ...userMetrics(metric, result) };
    if (settings.detail) writeFileSync(join(settings.detail, `run-${String(task.index).padStart(6, '0')}.csv`), result.toCSV());
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
    let min = Infinity, max = -Infinity;
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

function userMetrics(metric: MetricFunction | undefined, result: SimulationResult): Record<string, number> {
  if (!metric) return {};
  const value = metric(result);
  if (typeof value === 'number') return { metric: value };
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(value)) out[k] = Number(v);
  return out;
}

/** an error as one line of the results: its name (SimulationError...) and message */
export function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
