// Whole runs against their evaluations (issue 30): where the CPU time of a
// simulate() run goes beyond (evaluations × CPU time per evaluation). A 2 s
// RK4 run at h = 1 ms, sampling every step, of the floating Atlas
// (src/bench/robots.ts), the PUMA 560 and the humanoid (mechanisms/), each
// compiled relaxed, in each --targets code target.
//   evaluations  the run's own evaluation states (every stage, and the
//                stability check's probes), recorded once, then replayed
//                through derivatives() warm: CPU per evaluation; × the
//                stepper's count of evaluations = the evaluations' time
//   warm         simulate() after several runs in this process, in
//                interleaved rounds (median) beside ablations that split
//                the difference: without the stability check
//                (unsafeStep), without recording (no signals), and a bare
//                ode-rk4 loop over derivatives() and normalize()
//   cold         the first simulate() in a fresh process, after compile()
//                (excluded), and, in other fresh processes, the replayed
//                evaluations alone: what V8's first calls and optimising
//                compiles of the generated code cost, with no run around them
//   CSV          what kron simulate adds: formatting the samples (csvRows)
// CPU time is process.cpuUsage() (user + system, every thread: V8's
// background compiles count). Writes run-overhead.{md,json,svg} to --out.
//
//   npm run bench:run [-- --robots atlas,puma560,humanoid --targets js,wasm --rounds 9 --cold 3 --out bench/results]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import rk4 from 'ode-rk4';
import { compile } from '../compile.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { KronError, SimulationError, UsageError } from '../errors.ts';
import type { Mechanism } from '../library/multibody/index.ts';
import { PACKAGE_ROOT } from '../node/package.ts';
import { csvRows } from '../sim/result.ts';
import { type RunStats, type SimulateOptions, simulate } from '../sim/simulate.ts';
import { ratioSvg } from './ratio-plot.ts';
import { machine } from './report.ts';
import { floatingRobot } from './robots.ts';
import { cpuMicros } from './timing.ts';

type Target = 'js' | 'wasm';
const ROBOTS: Record<string, { title: string; build: () => Promise<Mechanism> }> = {
  atlas: { title: 'Atlas, floating', build: async () => floatingRobot('atlas') },
  puma560: { title: 'PUMA 560', build: async () => mechanismOf('puma560.ts') },
  humanoid: { title: 'humanoid.ts', build: async () => mechanismOf('humanoid.ts') },
};
const RUN = { stop: 2, step: 1e-3 } satisfies SimulateOptions;
/** runs of each subject before the rounds: V8 has optimised the generated code after ~3 runs of Atlas */
const WARM_RUNS = 6;

async function mechanismOf(file: string): Promise<Mechanism> {
  const mod = (await import(join(PACKAGE_ROOT, 'mechanisms', file))) as { default: () => Mechanism };
  return mod.default();
}

const ms = () => cpuMicros() / 1000;
const median = (a: readonly number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];

async function compiled(robot: string, target: Target): Promise<CompiledModel> {
  return compile(await ROBOTS[robot].build(), { mode: 'relaxed', target });
}

/** every evaluation's (t, x) of one run, flat: n states each (a controller that reads the states and sets nothing) */
function evaluationStates(c: CompiledModel): { t: Float64Array; x: Float64Array } {
  const names = c.stateNames,
    ts: number[] = [],
    xs: number[] = [];
  simulate(c, { ...RUN, signals: [], controller: (t, s) => (ts.push(t), names.forEach((n) => xs.push(s[n]))) });
  return { t: Float64Array.from(ts), x: Float64Array.from(xs) };
}

/** the recorded evaluations, replayed on a fresh state */
function replay(c: CompiledModel, states: { t: Float64Array; x: Float64Array }): void {
  const s = c.createState(),
    n = c.stateNames.length,
    dx = new Float64Array(n);
  for (let k = 0; k < states.t.length; k++) s.derivatives(states.t[k], states.x.subarray(k * n, (k + 1) * n), dx);
}

/** the least a fixed-step run must do: ode-rk4's steps over derivatives(), and normalize() after each */
function bare(c: CompiledModel): void {
  const s = c.createState();
  const steps = Math.round(RUN.stop / RUN.step);
  const it = rk4(s.x0(), (dx: Float64Array, x: Float64Array, t: number) => s.derivatives(t, x, dx), 0, RUN.step);
  for (let k = 0; k < steps; k++) (it.step(), s.normalize(it.y));
}

interface Row {
  robot: string;
  title: string;
  target: Target;
  states: number;
  evaluations: number;
  /** replayed evaluations (evaluations and the stability check's probes) */
  replayed: number;
  usPerEval: number;
  /** ms, medians of the warm rounds */
  evalMs: number;
  runMs: number;
  uncheckedMs: number;
  unrecordedMs: number;
  bareMs: number;
  csvMs: number;
  /** ms, medians of the cold processes */
  coldRunMs: number;
  coldEvalsMs: number;
  warmRatio: number;
  coldRatio: number;
  rounds: { run: number[]; evals: number[]; cold: number[]; coldEvals: number[] };
}

async function measure(robot: string, target: Target, rounds: number, cold: number, work: string): Promise<Row> {
  const c = await compiled(robot, target);
  const states = evaluationStates(c);
  const first = simulate(c, RUN);
  // simulate() returns its RunStats on the result (Object.assign)
  const evaluations = (first as typeof first & RunStats).integration!.evaluations;
  const file = join(work, `${robot}-${target}.f64`);
  writeFileSync(file, Buffer.concat([Buffer.from(new Float64Array([states.t.length]).buffer), Buffer.from(states.t.buffer), Buffer.from(states.x.buffer)]));
  let csvText = 0;
  const subjects = {
    run: () => simulate(c, RUN),
    unchecked: () => simulate(c, { ...RUN, unsafeStep: true }),
    unrecorded: () => simulate(c, { ...RUN, unsafeStep: true, signals: [] }),
    bare: () => bare(c),
    evals: () => replay(c, states),
    csv: () => (csvText += csvRows(first.time, first.columns, 0, first.length).length),
  };
  type Name = keyof typeof subjects;
  for (let i = 0; i < WARM_RUNS; i++) for (const f of Object.values(subjects)) f();
  const times = Object.fromEntries(Object.keys(subjects).map((k) => [k, [] as number[]])) as Record<Name, number[]>;
  const coldTimes = { run: [] as number[], evals: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    for (const [name, f] of Object.entries(subjects) as [Name, () => unknown][]) {
      const t0 = ms();
      f();
      times[name].push(ms() - t0);
    }
    // the fresh processes in the same rounds, so that a change of load hits warm and cold alike
    if (r < cold) for (const what of ['run', 'evals'] as const) coldTimes[what].push(coldChild(robot, target, what, file));
  }
  const perEval = median(times.evals) / states.t.length;
  const evalMs = perEval * evaluations;
  const m = (k: Name) => median(times[k]);
  return {
    robot,
    title: ROBOTS[robot].title,
    target,
    states: c.stateNames.length,
    evaluations,
    replayed: states.t.length,
    usPerEval: perEval * 1000,
    evalMs,
    runMs: m('run'),
    uncheckedMs: m('unchecked'),
    unrecordedMs: m('unrecorded'),
    bareMs: m('bare'),
    csvMs: m('csv'),
    coldRunMs: median(coldTimes.run),
    coldEvalsMs: median(coldTimes.evals),
    warmRatio: m('run') / evalMs,
    coldRatio: median(coldTimes.run) / evalMs,
    rounds: { run: times.run, evals: times.evals, cold: coldTimes.run, coldEvals: coldTimes.evals },
  };
}

/** CPU ms of the first run (or of the replayed evaluations alone) in a fresh process */
function coldChild(robot: string, target: Target, what: 'run' | 'evals', file: string): number {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', what, '--robots', robot, '--targets', target, '--states', file], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
  });
  const m = /^cold (\S+)$/m.exec(r.stdout);
  if (r.status !== 0 || !m) {
    throw new SimulationError(
      `the cold ${what} of ${robot} (${target}) in a fresh process failed (exit ${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`,
      {
        component: robot,
        hint: `run it alone to see all of it: npx tsx src/bench/run-overhead.ts --child ${what} --robots ${robot} --targets ${target} --states ${file}`,
      },
    );
  }
  return Number(m[1]);
}

/** in the fresh process: compile (not timed), then the first run or the replay, timed */
async function child(what: string, robot: string, target: Target, file: string): Promise<void> {
  const c = await compiled(robot, target);
  const bytes = readFileSync(file);
  const all = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  const count = all[0];
  const states = { t: all.subarray(1, 1 + count), x: all.subarray(1 + count) };
  const t0 = ms();
  if (what === 'run') simulate(c, RUN);
  else replay(c, states);
  console.log(`cold ${ms() - t0}`);
}

function tables(rows: readonly Row[]): string {
  const f = (v: number, d = 1) => v.toFixed(d);
  const out = [
    '| robot | target | states | evaluations | µs / evaluation | evaluations ms | run ms, warm | warm / evaluations | run ms, cold | cold / evaluations | evaluations alone ms, cold |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.title} | ${r.target} | ${r.states} | ${r.evaluations} | ${f(r.usPerEval, 2)} | ${f(r.evalMs)} | ${f(r.runMs)} | **${f(r.warmRatio, 2)}** | ${f(r.coldRunMs)} | **${f(r.coldRatio, 2)}** | ${f(r.coldEvalsMs)} |`,
    ),
    '',
    "Where a warm run's time goes (ms; each column a difference of two medians, so a few tenths either way, even below 0, are noise); beside it what `kron simulate` adds to format the samples as CSV:",
    '',
    '| robot | target | evaluations | RK4 arithmetic and normalize | stepper and run loop | recording the samples | stability check | = run, warm | CSV formatting |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const replayMs = (r.evalMs * r.replayed) / r.evaluations;
      return `| ${r.title} | ${r.target} | ${f(r.evalMs)} | ${f(r.bareMs - r.evalMs)} | ${f(r.unrecordedMs - r.bareMs)} | ${f(r.uncheckedMs - r.unrecordedMs)} | ${f(r.runMs - r.uncheckedMs)} (probes ${f(replayMs - r.evalMs)}) | ${f(r.runMs)} | ${f(r.csvMs)} |`;
    }),
  ];
  return out.join('\n') + '\n';
}

function plot(rows: readonly Row[], subtitle: string): string {
  return ratioSvg({
    title: "Whole run CPU over its evaluations' CPU (2 s, RK4, h = 1 ms)",
    subtitle,
    xLabel: 'run CPU time / (evaluations × CPU per evaluation), log scale',
    groups: rows.map((r) => ({
      label: `${r.robot} ${r.target}`,
      bars: [
        { label: 'warm run', color: '#2e86c1', value: r.warmRatio },
        { label: 'cold run (first in the process)', color: '#e67e22', value: r.coldRatio },
        { label: 'cold: the evaluations alone', color: '#95a5a6', value: r.coldEvalsMs / r.evalMs },
      ],
    })),
    targets: [
      { value: 1.5, label: 'warm 1.5×' },
      { value: 2, label: 'cold 2×' },
    ],
  });
}

function flags() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        robots: { type: 'string', default: Object.keys(ROBOTS).join(',') },
        targets: { type: 'string', default: 'js,wasm' },
        rounds: { type: 'string', default: '9' },
        cold: { type: 'string', default: '3' },
        out: { type: 'string', default: join(PACKAGE_ROOT, 'bench', 'results') },
        child: { type: 'string' },
        states: { type: 'string' },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message, {
      hint: 'npm run bench:run -- [--robots atlas,puma560,humanoid] [--targets js,wasm] [--rounds 9] [--cold 3] [--out DIR]',
    });
  }
  const list = (s: string) => s.split(',').filter(Boolean);
  const robots = list(values.robots);
  for (const r of robots) if (!(r in ROBOTS)) throw new UsageError(`--robots: no robot ${r}`, { hint: `robots: ${Object.keys(ROBOTS).join(', ')}` });
  const targets = list(values.targets) as Target[];
  for (const t of targets) if (t !== 'js' && t !== 'wasm') throw new UsageError(`--targets: ${t} is not a target`, { hint: 'js, wasm or js,wasm' });
  const count = (flag: 'rounds' | 'cold', least: number) => {
    const n = Number(values[flag]);
    if (!Number.isInteger(n) || n < least) throw new UsageError(`--${flag} needs an integer >= ${least}, got ${values[flag]}`, { hint: `e.g. --${flag} 3` });
    return n;
  };
  const rounds = count('rounds', 1),
    cold = count('cold', 1);
  if (cold > rounds)
    throw new UsageError(`--cold ${cold} is more than --rounds ${rounds}`, { hint: 'the cold processes run in the rounds: --cold <= --rounds' });
  return { ...values, robots, targets, rounds, cold, out: resolve(values.out) };
}

async function main(): Promise<void> {
  const opts = flags();
  if (opts.child) return child(opts.child, opts.robots[0], opts.targets[0], opts.states!);
  const work = mkdtempSync(join(tmpdir(), 'kron-run-overhead-'));
  const m = machine();
  const load = loadavg()[0].toFixed(1);
  console.log(`# ${m.date}, ${m.cpu} (${m.nproc} cores), Node ${m.node}, load ${load}; ${opts.rounds} warm rounds, ${opts.cold} cold processes per subject`);
  const rows: Row[] = [];
  for (const robot of opts.robots) {
    for (const target of opts.targets) {
      const row = await measure(robot, target, opts.rounds, opts.cold, work);
      rows.push(row);
      console.log(`# ${row.title} (${target}): warm ${row.runMs.toFixed(1)} ms, cold ${row.coldRunMs.toFixed(1)} ms, evaluations ${row.evalMs.toFixed(1)} ms`);
    }
  }
  const md = tables(rows);
  console.log('\n' + md);
  mkdirSync(opts.out, { recursive: true });
  const subtitle = `${m.cpu}, ${m.nproc} cores, Node ${m.node}, ${m.date}`;
  writeFileSync(join(opts.out, 'run-overhead.md'), `# ${subtitle}, load ${load}\n\n${md}`);
  writeFileSync(join(opts.out, 'run-overhead.json'), JSON.stringify({ machine: m, load: Number(load), run: RUN, rows }, null, 1) + '\n');
  writeFileSync(join(opts.out, 'run-overhead.svg'), plot(rows, subtitle));
  console.log(`wrote run-overhead.md, .json and .svg to ${opts.out}`);
}

try {
  await main();
} catch (e) {
  if (!(e instanceof KronError)) throw e;
  console.error(e.describe());
  process.exit(e instanceof UsageError ? 2 : 1);
}
