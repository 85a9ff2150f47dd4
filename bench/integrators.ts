// bench/integrators: the integrators side by side (issue 30), CPU time.
//  1. Energy drift at equal CPU time: the four-bar and the PUMA 560 (no
//     damping, no drive: energy.total is conserved) over 10 s, each
//     integrator at a ladder of steps (rk4) or tolerances (the error-
//     controlled ones); drift = max |E(t) - E(0)| over the samples. The
//     table gives, for a few CPU budgets, the smallest drift each integrator
//     reaches within the budget; the plot gives drift against CPU time.
//  2. The stiff PUMA (mechanisms/puma560-stiff.ts, eigenvalues to -1e5 1/s):
//     RK4 at the step its stability needs against the stiff solver, CPU time
//     and agreement with a reference (the stiff solver at rtol 1e-10).
//  3. The default (auto) and its alternatives on the mechanisms a user
//     starts with: RK4 at 1e-3, adaptive and radau at rtol 1e-6 (atol 1e-9),
//     a 2 s run sampled every 0.01 s; CPU time and the largest error of the
//     states against a reference (radau at rtol 1e-11, atol 1e-14), or the
//     error the run stops with.
// Timing: process.cpuUsage() per run, every configuration once per round,
// rounds interleaved, the fastest round kept.
//   npm run bench:integrators [-- --rounds 3 --stop 10 --out results/integrators]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile, type CompiledModel } from '../src/index.ts';
import { simulate, type SimulateOptions } from '../src/sim/simulate.ts';
import { INTEGRATORS, type Integrator } from '../src/sim/steppers/index.ts';
import { cpuMicros } from '../src/bench/timing.ts';
import { machine } from '../src/bench/report.ts';
import { logLogSvg } from '../src/bench/plot.ts';
import { writeBenchResult } from './results.ts';
import fourbar from '../mechanisms/fourbar.ts';
import puma from '../mechanisms/puma560.ts';
import pumaStiff from '../mechanisms/puma560-stiff.ts';
import pendulum from '../mechanisms/pendulum.ts';
import humanoid from '../mechanisms/humanoid.ts';
import arm3 from '../test/sim/fixtures/arm3.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, stop: { type: 'string', default: '10' }, out: { type: 'string', default: 'results/integrators' } },
});
const rounds = Number(values.rounds),
  stop = Number(values.stop);

interface Config {
  integrator: Integrator;
  /** rk4's step, or the error-controlled integrators' rtol (atol = rtol / 1000) */
  knob: number;
}

/** rk4 by steps, the others by tolerances: each ladder spans drifts from coarse to near rounding */
const LADDERS: Record<string, number[]> = {
  rk4: [8e-3, 4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4],
  adaptive: [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10],
  radau: [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10],
};

const optionsOf = (c: Config, signals: string[], interval: number): SimulateOptions =>
  c.integrator === 'rk4'
    ? { stop, step: c.knob, interval: Math.max(interval, c.knob), integrator: 'rk4', signals, unsafeStep: true }
    : { stop, step: 1e-3, interval, integrator: c.integrator, rtol: c.knob, atol: c.knob * 1e-3, signals };

interface Measured extends Config {
  cpuMs: number;
  drift: number;
  steps: number;
  evaluations: number;
}

// (compiled model, configurations) => each run's fastest CPU time over interleaved rounds and its energy drift
function measure(compiled: CompiledModel, configs: Config[]): Measured[] {
  const best = configs.map(() => Infinity);
  const out: Measured[] = [];
  // round -1 warms the JIT up and is not timed
  for (let r = -1; r < rounds; r++) {
    configs.forEach((c, i) => {
      const options = optionsOf(c, ['energy.total'], 0.01);
      const t0 = cpuMicros();
      const run = simulate(compiled, options);
      if (r >= 0) best[i] = Math.min(best[i], (cpuMicros() - t0) / 1000);
      if (r === 0) {
        const e = run.get('energy.total');
        const drift = Math.max(...e.map((v) => Math.abs(v - e[0])));
        out.push({ ...c, cpuMs: 0, drift, steps: run.integration?.steps ?? 0, evaluations: run.integration?.evaluations ?? 0 });
      }
    });
  }
  out.forEach((m, i) => (m.cpuMs = best[i]));
  return out;
}

const knobLabel = (m: Config) => (m.integrator === 'rk4' ? `h ${m.knob}` : `rtol ${m.knob}`);

function driftTable(name: string, rows: Measured[]): string[] {
  const lines = [
    `### ${name}: energy drift max |E(t) - E(0)| (J) over ${stop} s`,
    '',
    '| integrator | setting | steps | f evaluations | CPU ms | drift (J) |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const m of rows)
    lines.push(`| ${m.integrator} | ${knobLabel(m)} | ${m.steps} | ${m.evaluations} | ${m.cpuMs.toFixed(1)} | ${m.drift.toExponential(2)} |`);
  // at equal CPU time: the smallest drift each integrator reaches within each budget
  const budgets = [...new Set(rows.filter((m) => m.integrator === 'rk4').map((m) => m.cpuMs))].sort((a, b) => a - b);
  const kinds = [...new Set(rows.map((m) => m.integrator))];
  lines.push(
    '',
    `At equal CPU time (the smallest drift within each budget, the budgets being RK4's runs):`,
    '',
    `| CPU budget ms | ${kinds.join(' | ')} |`,
    `|---:|${kinds.map(() => '---:').join('|')}|`,
  );
  for (const b of budgets) {
    const cells = kinds.map((k) => {
      const within = rows.filter((m) => m.integrator === k && m.cpuMs <= b * 1.05);
      return within.length ? Math.min(...within.map((m) => m.drift)).toExponential(2) : '—';
    });
    lines.push(`| ${b.toFixed(1)} | ${cells.join(' | ')} |`);
  }
  return lines;
}

const md: string[] = [`# Integrators side by side`, '', `${JSON.stringify(machine())}`, ''];
const configs = INTEGRATORS.flatMap((integrator) => (LADDERS[integrator] ?? []).map((knob) => ({ integrator, knob })));
const series = [];
const colors: Record<string, string> = { rk4: '#d62728', adaptive: '#1f77b4', radau: '#2ca02c' };
for (const [name, model] of [
  ['four-bar', fourbar()],
  ['PUMA 560', puma()],
] as const) {
  const compiled = compile(model);
  const rows = measure(compiled, configs);
  md.push(...driftTable(name, rows), '');
  console.log(driftTable(name, rows).join('\n') + '\n');
  for (const k of INTEGRATORS) {
    const points = rows.filter((m) => m.integrator === k && m.drift > 0).map((m) => ({ n: m.cpuMs, y: m.drift }));
    if (points.length) series.push({ label: `${name}, ${k}`, color: colors[k] ?? 'black', points });
  }
}

// the stiff PUMA: RK4 at the step its stability check asks for, against each error-controlled integrator
const stiff = compile(pumaStiff());
const states = stiff.stateNames.filter((n) => n.endsWith('.q'));
const stiffStop = Math.min(stop, 2);
const reference = simulate(stiff, { stop: stiffStop, step: 1e-4, interval: 0.01, integrator: 'radau', rtol: 1e-10, atol: 1e-13, signals: states });
const stiffRuns: { label: string; options: SimulateOptions }[] = [
  { label: 'rk4, h 2.5e-5 (what its stability needs: 2.785/1.005e5 = 2.77e-5)', options: { stop: stiffStop, step: 2.5e-5, interval: 0.01, signals: states } },
  ...INTEGRATORS.filter((k) => k !== 'rk4').flatMap((k) =>
    [1e-4, 1e-6].map((rtol) => ({
      label: `${k}, rtol ${rtol}`,
      options: { stop: stiffStop, step: 1e-3, interval: 0.01, integrator: k, rtol, atol: rtol * 1e-3, signals: states },
    })),
  ),
];
const stiffBest = stiffRuns.map(() => Infinity);
const stiffRows: string[] = [];
for (let r = -1; r < rounds; r++) {
  stiffRuns.forEach((s, i) => {
    const t0 = cpuMicros();
    let run;
    try {
      run = simulate(stiff, s.options);
    } catch (e) {
      if (r === rounds - 1) stiffRows.push(`| ${s.label} | failed: ${(e as Error).message.slice(0, 80)} | | | |`);
      return;
    }
    if (r >= 0) stiffBest[i] = Math.min(stiffBest[i], (cpuMicros() - t0) / 1000);
    if (r === rounds - 1) {
      const err = Math.max(...states.map((n) => Math.max(...run.get(n).map((v, k) => Math.abs(v - reference.get(n)[k])))));
      stiffRows.push(`| ${s.label} | ${run.integration?.steps} | ${run.integration?.evaluations} | ${stiffBest[i].toFixed(1)} | ${err.toExponential(2)} |`);
    }
  });
}
const stiffTable = [
  `### The stiff PUMA (puma560-stiff.ts), ${stiffStop} s: CPU time and agreement`,
  '',
  `max |q - q_ref| over the joints and samples; reference: radau at rtol 1e-10`,
  '',
  '| run | steps | f evaluations | CPU ms | max error (rad) |',
  '|---|---:|---:|---:|---:|',
  ...stiffRows,
];
console.log(stiffTable.join('\n'));
md.push(...stiffTable, '');

// the default's candidates on the models a user starts with
const candidate = (label: string, integrator: Integrator, rtol?: number) => ({
  label,
  options: { integrator, step: 1e-3, ...(rtol && { rtol, atol: rtol * 1e-3 }) },
});
const candidates = [
  candidate('auto (the default)', 'auto', 1e-6),
  candidate('rk4, h 1e-3', 'rk4'),
  candidate('adaptive, rtol 1e-6', 'adaptive', 1e-6),
  candidate('radau, rtol 1e-6', 'radau', 1e-6),
];
const starters = [
  ['pendulum', pendulum()],
  ['four-bar', fourbar()],
  ['PUMA 560', puma()],
  ['humanoid.ts (32 dof, pelvis on a sprung slide)', humanoid()],
  ['3-link PD arm (issue 30)', arm3()],
  ['stiff PUMA', pumaStiff()],
] as const;
const defaultRows: string[] = [],
  defaultCells: string[][] = [];
for (const [name, model] of starters) {
  const compiled = compile(model);
  const base = { stop: 2, interval: 0.01, signals: compiled.stateNames };
  const ref = simulate(compiled, { ...base, step: 1e-4, integrator: 'radau', rtol: 1e-11, atol: 1e-14 });
  const cells = candidates.map(() => ({ ms: Infinity, text: '' }));
  for (let r = -1; r < rounds; r++) {
    candidates.forEach((c, i) => {
      const t0 = cpuMicros();
      try {
        const run = simulate(compiled, { ...base, ...c.options });
        const ms = (cpuMicros() - t0) / 1000;
        if (r >= 0) cells[i].ms = Math.min(cells[i].ms, ms);
        const err = Math.max(
          ...compiled.stateNames.map((n) => Math.max(...run.get(n).map((v, k) => Math.abs(v - ref.get(n)[k]) / Math.max(1, Math.abs(ref.get(n)[k]))))),
        );
        const switched = run.integration?.switched ? `, radau from t = ${run.integration.switched.time}` : '';
        cells[i].text = `${err.toExponential(1)} in ${cells[i].ms.toFixed(1)} ms (${run.integration?.steps} steps${switched})`;
      } catch (e) {
        cells[i].text = `stops: ${(e as Error).constructor.name}`;
      }
    });
  }
  defaultRows.push(`| ${name} | ${cells.map((c) => c.text).join(' | ')} |`);
  defaultCells.push([name, ...cells.map((c) => c.text)]);
}
const defaultTable = [
  "### The default's candidates: largest relative error of the states (against radau at rtol 1e-11) and CPU time, 2 s runs",
  '',
  `| model | ${candidates.map((c) => c.label).join(' | ')} |`,
  `|---|${candidates.map(() => '---').join('|')}|`,
  ...defaultRows,
];
console.log('\n' + defaultTable.join('\n'));
md.push('', ...defaultTable, '');

// the third table as docs/performance/benchmarks.md shows it (generated: npm run docs:bench)
writeBenchResult({
  name: 'integrators-default',
  command: `npm run bench:integrators -- --rounds ${rounds}`,
  columns: [{ label: 'model' }, ...candidates.map((c) => ({ label: c.label }))],
  rows: defaultCells,
  raw: defaultCells.map(([model, ...cells]) => ({ model, cells })),
});

mkdirSync(values.out, { recursive: true });
writeFileSync(join(values.out, 'integrators.md'), md.join('\n'));
writeFileSync(
  join(values.out, 'integrators.svg'),
  logLogSvg({
    title: 'Energy drift against CPU time',
    subtitle: `${stop} s runs; ${machine().cpu}`,
    xLabel: 'CPU time per run (ms)',
    yLabel: 'max |E(t) - E(0)| (J)',
    series,
  }),
);
console.log(`\nwrote ${join(values.out, 'integrators.md')} and integrators.svg`);
