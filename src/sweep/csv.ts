// The results of a sweep as one CSV table, one row per run in run order:
//   run, <swept names...>, status, error, <metrics...>
// status is ok or error; error holds the error's name and message (quoted);
// the metrics are final(s), min(s), max(s) of each signal s and then the
// user metric's columns, empty in an error's row: every metric name any run
// gave, in the order they first appear. Numbers are printed in JavaScript's
// shortest round-trip form, so reading them back gives the very doubles the
// runs computed.
import type { SweepResult } from './sweep.ts';

const cell = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** (swept names, results) => CSV text */
export function sweepCSV(names: readonly string[], results: readonly SweepResult[]): string {
  const metrics = metricColumns(results);
  return sweepHeader(names, metrics) + results.map((r) => sweepRow(names, metrics, r)).join('');
}

/** the metric columns: every metric name of the results, in the order they first appear */
export function metricColumns(results: Iterable<SweepResult>): string[] {
  const seen = new Set<string>();
  for (const r of results) for (const k of Object.keys(r.metrics)) seen.add(k);
  return [...seen];
}

/** the header line */
export const sweepHeader = (names: readonly string[], metrics: readonly string[]): string =>
  ['run', ...names, 'status', 'error', ...metrics].map(cell).join(',') + '\n';

/** one run's line; a metric the run has not is an empty cell */
export function sweepRow(names: readonly string[], metrics: readonly string[], r: SweepResult): string {
  const metric = (k: string) => (k in r.metrics ? String(r.metrics[k]) : '');
  return [String(r.index), ...names.map((n) => String(r.values[n])), r.status, cell(r.error ?? ''), ...metrics.map(metric)].join(',') + '\n';
}
