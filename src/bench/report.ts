// src/bench/report: what `kron bench` concludes and writes: the fitted slopes and
// the crossover on the chain, relaxed / MuJoCo ratios, a Markdown table (one
// line per model and n, the three modes side by side) and the chain's plot.
import { cpus, platform, release } from 'node:os';
import { type Crossover, type LogLogFit, type Point, crossover, logLogFit, within } from './fit.ts';
import { logLogSvg } from './plot.ts';
import type { BenchMode, BenchModel, BenchRow, SweepResult } from './sweep.ts';
import type { Mode } from '../report.ts';

/** relaxed slope range, as issue 7 asks */
export const RELAXED_FIT = { lo: 16, hi: 256 };
/** torn "at the large end": the largest sizes measured */
export const TORN_FIT_POINTS = 3;

export interface Fit extends LogLogFit {
  from: number;
  to: number;
}

export interface Summary {
  slopes: Partial<Record<BenchMode, Fit>>;
  crossover?: Crossover;
  /** relaxed µs / MuJoCo µs, per model and n (relaxed after a detach when timed so: the same rounds as MuJoCo) */
  ratios: { model: BenchModel; n: number; relaxedOverMujoco: number }[];
  /** µs after a detach / µs before, per Kron form: the smallest and the largest over the rows */
  detach?: Partial<Record<Mode, { min: number; max: number }>>;
}

export interface Machine {
  date: string;
  node: string;
  nproc: number;
  cpu: string;
  os: string;
}

export function machine(): Machine {
  return {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    nproc: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    os: `${platform()} ${release()}`,
  };
}

// (rows of one model and mode, timed before a detach unless asked) => points (n, µs)
export const points = (rows: readonly BenchRow[], model: BenchModel, mode: BenchMode, afterDetach = false): Point[] =>
  rows.filter((r) => r.model === model && r.mode === mode && !!r.afterDetach === afterDetach).map((r) => ({ n: r.n, y: r.usPerEval }));

/** the row of a model, n and mode; Kron's before a detach unless asked */
const find = (rows: readonly BenchRow[], model: BenchModel, n: number, mode: BenchMode, afterDetach = false) =>
  rows.find((r) => r.model === model && r.n === n && r.mode === mode && !!r.afterDetach === afterDetach);

// (rows) => slopes and crossover on the chain, relaxed / MuJoCo everywhere; rows whose warm-up was capped are left out
export function summarize(all: readonly BenchRow[]): Summary {
  const rows = all.filter((r) => !r.warmupCapped);
  const chain = (mode: BenchMode) => points(rows, 'chain', mode).sort((a, b) => a.n - b.n);
  const slopes: Summary['slopes'] = {};
  const fit = (p: Point[]): Fit | undefined => (new Set(p.map((q) => q.n)).size >= 2 ? { ...logLogFit(p), from: p[0].n, to: p[p.length - 1].n } : undefined);
  for (const mode of ['relaxed', 'mujoco'] as const) {
    const f = fit(within(chain(mode), RELAXED_FIT.lo, RELAXED_FIT.hi));
    if (f) slopes[mode] = f;
  }
  const torn = fit(chain('torn').slice(-TORN_FIT_POINTS));
  if (torn) slopes.torn = torn;
  const ratios: Summary['ratios'] = [];
  for (const r of rows.filter((q) => q.mode === 'relaxed' && !q.afterDetach)) {
    const peer = find(rows, r.model, r.n, 'mujoco');
    const same = find(rows, r.model, r.n, 'relaxed', true) ?? r;
    if (peer) ratios.push({ model: r.model, n: r.n, relaxedOverMujoco: same.usPerEval / peer.usPerEval });
  }
  const detach: NonNullable<Summary['detach']> = {};
  for (const mode of ['torn', 'relaxed'] as const) {
    const q = rows
      .filter((r) => r.mode === mode && r.afterDetach)
      .map((a) => a.usPerEval / (find(rows, a.model, a.n, mode)?.usPerEval ?? NaN))
      .filter(Number.isFinite);
    if (q.length) detach[mode] = { min: Math.min(...q), max: Math.max(...q) };
  }
  return { slopes, crossover: crossover(chain('torn'), chain('relaxed')), ratios, ...(Object.keys(detach).length ? { detach } : {}) };
}

// (rows) => Markdown table, one line per model and n
export function markdownTable(rows: readonly BenchRow[]): string {
  const keys = [...new Map(rows.map((r) => [`${r.model}/${r.n}`, { model: r.model, n: r.n }])).values()];
  const lines = [
    '| model | n | compile s CPU torn | compile s CPU relaxed | ops torn (mul / add / div / fn) | ops relaxed | µs torn | µs relaxed | µs torn, detached | µs relaxed, detached | µs MuJoCo | torn / relaxed | relaxed / MuJoCo |',
    '|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { model, n } of keys) {
    const t = find(rows, model, n, 'torn'),
      r = find(rows, model, n, 'relaxed'),
      m = find(rows, model, n, 'mujoco');
    const td = find(rows, model, n, 'torn', true),
      rd = find(rows, model, n, 'relaxed', true);
    lines.push(`| ${[model, n, seconds(t), seconds(r), ops(t), ops(r), us(t), us(r), us(td), us(rd), us(m), ratio(t, r), ratio(rd ?? r, m)].join(' | ')} |`);
  }
  return lines.join('\n');
}

// (summary, sweep) => the closing lines: slopes, crossover, ratios, agreement, skipped rows
export function conclusions(s: Summary, result: SweepResult): string[] {
  const out: string[] = [];
  const slope = (mode: BenchMode, what: string) => {
    const f = s.slopes[mode];
    if (f) out.push(`- ${what}: slope ${f.slope.toFixed(2)} (least squares over n = ${f.from}…${f.to})`);
  };
  slope('relaxed', 'relaxed µs/eval on the chain');
  slope('torn', 'torn µs/eval on the chain, large end');
  slope('mujoco', 'MuJoCo mj_forward µs/eval on the chain');
  const c = s.crossover;
  if (c)
    out.push(
      `- crossover: relaxed is faster than torn from n = ${c.from} on${c.at ? ` (interpolated crossing at n ≈ ${c.at.toFixed(1)})` : ' (at every n measured)'}`,
    );
  else if (s.slopes.torn) out.push('- crossover: relaxed is not faster than torn at the largest n measured in both modes');
  for (const [mode, d] of Object.entries(s.detach ?? {})) {
    out.push(
      `- ${mode} after an ArrayBuffer was detached: ${d.min.toFixed(2)}–${d.max.toFixed(2)}× its time before (same process; MuJoCo is timed in the rounds after)`,
    );
  }
  if (s.ratios.length) {
    out.push(
      `- relaxed / MuJoCo (both after the detach, same rounds): ${s.ratios.map((r) => `${r.model}${r.model === 'chain' ? ` ${r.n}` : ''} ${r.relaxedOverMujoco.toFixed(2)}`).join(', ')}`,
    );
  }
  if (result.agreement.length) {
    const worst = Math.max(...result.agreement.map((a) => a.maxRelDiff));
    out.push(`- MuJoCo's qacc agrees with Kron's der(qd) at a random state of every peer row to ${worst.toExponential(1)} (largest relative difference)`);
  }
  for (const note of result.notes) out.push(`- note: ${note}`);
  for (const k of result.skipped) out.push(`- skipped ${k.model}${k.n === undefined ? '' : ` n=${k.n}`}${k.mode ? ` ${k.mode}` : ''}: ${k.reason}`);
  return out;
}

// (rows, summary, machine) => SVG of µs/eval against n on the chain, log-log
export function chainPlot(rows: readonly BenchRow[], s: Summary, m: Machine, mujocoVersion?: string): string | undefined {
  const styles: [BenchMode, string, string][] = [
    ['torn', 'torn', '#c0392b'],
    ['relaxed', 'relaxed', '#2471a3'],
    ['mujoco', `MuJoCo ${mujocoVersion ?? ''} mj_forward`.replace('  ', ' '), '#27ae60'],
  ];
  const series = styles
    .map(([mode, label, color]) => {
      const f = s.slopes[mode];
      return {
        label: f ? `${label} (slope ${f.slope.toFixed(2)}, n = ${f.from}…${f.to})` : label,
        color,
        points: points(
          rows.filter((r) => !r.warmupCapped),
          'chain',
          mode,
        ),
        fit: f,
      };
    })
    .filter((x) => x.points.length > 0);
  if (series.length === 0) return undefined;
  const c = s.crossover;
  return logLogSvg({
    title: 'Spatial chain: µs per evaluation of the forward dynamics',
    subtitle: `kron bench, ${m.date}, Node ${m.node}, ${m.nproc} cores (${m.cpu})`,
    xLabel: 'n (degrees of freedom)',
    yLabel: 'µs per evaluation',
    series,
    mark: c ? { n: c.at ?? c.from, label: c.at ? `relaxed faster from n ≈ ${c.at.toFixed(1)}` : `relaxed faster from n = ${c.from}` } : undefined,
  });
}

const seconds = (r?: BenchRow) =>
  r?.compileCpuMs === undefined ? (r?.compileMs === undefined ? '–' : `${(r.compileMs / 1000).toFixed(2)} wall`) : (r.compileCpuMs / 1000).toFixed(2);
const us = (r?: BenchRow) => {
  if (!r) return '–';
  const v = r.usPerEval;
  return (v < 10 ? v.toFixed(3) : v < 1000 ? v.toFixed(1) : v.toFixed(0)) + (r.warmupCapped ? '*' : '');
};
const ratio = (a?: BenchRow, b?: BenchRow) => (a && b ? (a.usPerEval / b.usPerEval).toFixed(2) + (a.warmupCapped || b.warmupCapped ? '*' : '') : '–');
const ops = (r?: BenchRow) => (r?.ops ? `${r.ops.mul} / ${r.ops.add} / ${r.ops.div} / ${r.ops.fn}` : '–');
