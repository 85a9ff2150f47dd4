// bench/compile-time: CPU time and peak memory of compiling the PUMA, the
// humanoid, the relaxed chain (mechanisms/chain.ts) and the RC grid of the
// relaxing iteration (mechanisms/rcgrid.ts), each case in a process of its
// own so that the peak RSS is that compile's and nothing warms up the cold
// compile: what `kron compile` pays, split into the process start (node,
// tsx, importing the compiler), building the model, compile() cold, and
// compile() again in the same process (warm: the compiler's own functions
// already optimised by V8). And, with --cli, the whole process of
// `kron compile <file> --no-cache` (user + system CPU and peak RSS from
// /usr/bin/time) for three CLIs: this repository's (bin/kron.mjs: dist/
// when it is fresh, as after `npm ci`), the same through tsx over src/
// (KRON_FROM_SOURCES=1, what bin/kron.mjs ran before issue 35), and the
// built package's (dist/, from a project folder where 'kron' is the
// package, as a user runs it). With --profile, dist's CLI once more
// under `node --cpu-prof`, its CPU split by phase (bench/compile-profile.ts):
// node and module loading, tsx, the model's build, flattening, structure,
// codegen, the generated module's new Function, GC, other threads (the
// profile's shares, scaled to the profiled process's CPU). CPU time
// (process.cpuUsage, /usr/bin/time), not wall time: the machines are shared.
// With --flat, each case is compiled flat too (templates: false) in its
// process: both generated bodies' sizes and the time per derivatives() of
// each, interleaved (bench/compile-templates.ts).
// With --cli or --profile the table is written to bench/results/compile-time.json.
// Run: npx tsx bench/compile-time.ts [--cases puma,humanoid,chain:64,rcgrid:100]
//        [--sizes 64,256,1024] [--mode relaxed] [--rounds 1] [--cli] [--profile]
//        [--flat] [--json] [--out raw.json]   (npm run bench:compile; needs npm run build for dist)
//   --sizes n,... is --cases chain:n,...; a case's mode is auto (puma, humanoid),
//   relaxed (chain) or the relaxing iteration (rcgrid) unless --mode says.
//   Rounds run the cases in turn, not one case repeatedly, so that a burst of
//   load on the machine spreads over all; the table shows the median.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CompileOptions } from '../src/compile.ts';
import { PHASES, type Phase, type PhaseMs, splitProfiles } from './compile-profile.ts';
import { type BenchColumn, type BenchResult, writeBenchResult } from './results.ts';
import { type FlatComparison, compareFlat } from './compile-templates.ts';

interface Sample {
  case: string;
  n?: number;
  mode: string;
  /** the process up to the model's build: node, tsx, the compiler's modules */
  startCpu: number;
  buildCpu: number;
  /** compile() the first time in the process */
  compileCpu: number;
  /** compile() again in the same process */
  warmCpu: number;
  /** the whole process: start, build and the first compile */
  processCpu: number;
  /** the process's peak resident set, MB (after both compiles) */
  peakRssMB: number;
  /** expression nodes made by the first compile() (expr/node.ts) */
  nodes: number;
  /** the generated module's size (compile().source(), KB): flat, it grows with the instances; templated, it should not */
  sourceKB: number;
  /** repeated subsystems found (report.templates): 'Class xN' per group */
  templates: string;
  /** with --flat: the templated compile against the flat one (compile-templates.ts) */
  flat?: FlatComparison;
}

interface CliSample {
  case: string;
  cli: Cli;
  file: string;
  /** user + system CPU of the whole `kron compile --no-cache` process, s */
  cpu: number;
  peakRssMB: number;
  /** with --profile: the main thread's CPU by phase, ms (compile-profile.ts), and the other threads' */
  phases?: PhaseMs;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const cpu = (c: NodeJS.CpuUsage = process.cpuUsage()) => (c.user + c.system) / 1e6;

/** a case by name: its model file, builder parameters and compile options */
function caseOf(name: string, mode?: string): { file: string; n?: number; params: Record<string, number>; options: CompileOptions; mode: string } {
  const [kind, size] = name.split(':');
  const n = size === undefined ? undefined : Number(size);
  const modeOptions = (fallback: CompileOptions): CompileOptions =>
    mode === undefined ? fallback : mode === 'iterate' ? { relaxIterate: true } : { mode: mode as 'relaxed' };
  const label = (o: CompileOptions) => (o.relaxIterate ? 'iterate' : (o.mode ?? 'auto'));
  const make = (file: string, fallback: CompileOptions, params: Record<string, number> = {}) => {
    const options = modeOptions(fallback);
    return { file, n, params, options, mode: label(options) };
  };
  switch (kind) {
    case 'puma':
      return make('mechanisms/puma560.ts', {});
    case 'humanoid':
      return make('mechanisms/humanoid.ts', {});
    case 'chain':
      return make('mechanisms/chain.ts', { mode: 'relaxed' }, { n: n ?? 64 });
    case 'rcgrid':
      return make('mechanisms/rcgrid.ts', { relaxIterate: true }, { n: n ?? 100 });
    default:
      throw new Error(`case ${name} is not known: puma, humanoid, chain:<n>, rcgrid:<n>`);
  }
}

/** one case in this process: built, compiled cold and warm, printed as JSON */
async function child(name: string, mode: string | undefined, withFlat: boolean): Promise<void> {
  const c = caseOf(name, mode);
  const { compile } = await import('../src/compile.ts');
  const { exprCount } = await import('../src/expr/index.ts');
  const build = (await import(`${root}${c.file}`)).default as (p: Record<string, number>) => Parameters<typeof compile>[0];
  const t0 = cpu();
  const model = build(c.params);
  const t1 = cpu(),
    made = exprCount();
  const compiled = compile(model, c.options);
  const t2 = cpu(),
    nodes = exprCount() - made;
  const sourceKB = compiled.source().length / 1024;
  const templates = (compiled.report.templates?.classes ?? []).map((g) => `${g.class} x${g.instances}`).join(', ');
  compile(model, c.options);
  const t3 = cpu();
  const peakRssMB = process.resourceUsage().maxRSS / 1024; // before the flat compile of --flat
  const flat = withFlat ? compareFlat(compiled, () => compile(build(c.params), { ...c.options, templates: false })) : undefined;
  const sample: Sample = {
    case: name,
    ...(c.n !== undefined && { n: c.n }),
    mode: c.mode,
    startCpu: t0,
    buildCpu: t1 - t0,
    compileCpu: t2 - t1,
    warmCpu: t3 - t2,
    processCpu: t2,
    peakRssMB,
    nodes,
    sourceKB,
    templates,
    ...(flat && { flat }),
  };
  console.log(JSON.stringify(sample));
}

/** the CLIs of one `kron compile`: this repository's (bin/kron.mjs), it through tsx over src/, the built package's (dist/, as installed) */
type Cli = 'repo' | 'sources' | 'dist';

/**
 * A folder where 'kron' is the built package, as in a user's project (in the
 * repository, tsconfig maps 'kron' to src/, whose classes are not the built
 * CLI's), with the case models copied in and a runner that starts dist's CLI
 * as bin/kron.mjs does for an installed package. Made once per run.
 */
let project: { dir: string; runner: string } | undefined;
function distProject(): { dir: string; runner: string } {
  if (project) return project;
  const main = join(root, 'dist/src/cli/main.js');
  if (!existsSync(main)) throw new Error('bench/compile-time.ts --cli runs the built package too: npm run build first');
  const dir = mkdtempSync(join(tmpdir(), 'kron-compile-time-'));
  mkdirSync(join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(root, join(dir, 'node_modules', 'kron'));
  for (const f of ['puma560', 'humanoid', 'chain', 'rcgrid']) copyFileSync(join(root, 'mechanisms', `${f}.ts`), join(dir, `${f}.ts`));
  const runner = join(dir, 'kron.mjs');
  writeFileSync(runner, `const cli = await import(${JSON.stringify(main)});\ncli.guardProcess();\nprocess.exitCode = await cli.main(process.argv.slice(2));\n`);
  return (project = { dir, runner });
}

/** `kron compile <file> --no-cache` as a user runs it: the whole process's CPU and peak RSS (and, with profile, its CPU by phase) */
function cli(name: string, which: Cli, profile: boolean): CliSample {
  const c = caseOf(name);
  const params = Object.entries(c.params).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  if (c.options.relaxIterate) params.push('--relax-iterate');
  else if (c.options.mode) params.push('--mode', c.options.mode);
  const where =
    which === 'dist' ? { cwd: distProject().dir, script: distProject().runner, file: basename(c.file) } : { cwd: root, script: 'bin/kron.mjs', file: c.file };
  const profDir = profile ? mkdtempSync(join(tmpdir(), 'kron-compile-prof-')) : undefined;
  const node = profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [];
  const run = spawnSync(
    '/usr/bin/time',
    ['-f', 'KRON-TIME %U %S %M', process.execPath, ...node, where.script, 'compile', where.file, '--no-cache', ...params],
    {
      cwd: where.cwd,
      env: { ...process.env, KRON_FROM_SOURCES: which === 'sources' ? '1' : '0' },
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 24,
    },
  );
  const line = run.stderr.split('\n').find((l) => l.startsWith('KRON-TIME'));
  if (run.status !== 0 || !line) throw new Error(`kron compile ${c.file} (${which} CLI) failed: ${run.stderr}`);
  const [user, system, kb] = line.split(' ').slice(1).map(Number);
  // the profile's sample intervals are wall time (on a loaded machine, time off the CPU too): its phases
  // are shares, scaled to the process's measured CPU
  const phases = profDir ? scaled(splitProfiles(profDir), (user + system) * 1000) : undefined;
  if (profDir) rmSync(profDir, { recursive: true, force: true });
  return { case: name, cli: which, file: c.file, cpu: user + system, peakRssMB: kb / 1024, ...(phases && { phases }) };
}

/** phases scaled so that they sum to cpuMs */
function scaled(p: PhaseMs, cpuMs: number): PhaseMs {
  const total = PHASES.reduce((t, k) => t + p[k], 0);
  return Object.fromEntries(PHASES.map((k) => [k, total > 0 ? (p[k] * cpuMs) / total : 0])) as PhaseMs;
}

function parent(
  cases: string[],
  mode: string | undefined,
  rounds: number,
  withCli: boolean,
  profile: boolean,
  json: boolean,
  out: string | undefined,
  withFlat: boolean,
): void {
  const self = fileURLToPath(import.meta.url);
  const samples: Sample[] = [],
    cliSamples: CliSample[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const name of cases) {
      const args = ['--import', 'tsx', self, '--child', name, ...(mode ? ['--mode', mode] : []), ...(withFlat ? ['--flat'] : [])];
      const text = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
      samples.push(JSON.parse(text.trim().split('\n').pop()!) as Sample);
      if (withCli) for (const which of ['repo', 'sources', 'dist'] as const) cliSamples.push(cli(name, which, false));
      if (profile) cliSamples.push(cli(name, 'dist', true));
    }
  }
  if (project) rmSync(project.dir, { recursive: true, force: true });
  const result = { date: new Date().toISOString(), commit: gitHead(), samples, cli: cliSamples };
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  }
  if (json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const f = (x: number) => x.toFixed(2).padStart(8);
  console.log('compile(): CPU seconds, peak RSS MB (one process per row)');
  console.log('case          mode        start    build  compile     warm  process  peakRSS    nodes  sourceKB  templates');
  for (const s of samples) {
    console.log(
      `${s.case.padEnd(13)} ${s.mode.padEnd(8)} ${f(s.startCpu)} ${f(s.buildCpu)} ${f(s.compileCpu)} ${f(s.warmCpu)} ${f(s.processCpu)} ${s.peakRssMB.toFixed(0).padStart(8)} ${String(s.nodes).padStart(8)} ${s.sourceKB.toFixed(0).padStart(9)}  ${s.templates}`,
    );
  }
  if (withFlat) {
    console.log('\ntemplated against flat (--flat): generated function body KB, flat compile() CPU s, CPU µs per derivatives()');
    console.log('case          bodyKB  flatBodyKB  flatSourceKB  flatCompile   evalUs  flatEvalUs  ratio  templates');
    for (const s of samples.filter((x) => x.flat)) {
      const q = s.flat!;
      console.log(
        `${s.case.padEnd(13)} ${q.bodyKB.toFixed(0).padStart(6)} ${q.flatBodyKB.toFixed(0).padStart(11)} ${q.flatSourceKB.toFixed(0).padStart(13)} ${f(q.flatCompileCpu)}    ${q.evalUs.toFixed(1).padStart(6)} ${q.flatEvalUs.toFixed(1).padStart(11)} ${(q.evalUs / q.flatEvalUs).toFixed(3).padStart(6)}  ${q.reason.replace(/^.*: a template would pay/, '')}`,
      );
    }
  }
  const table = resultTable(cases, samples, cliSamples);
  console.log(`\n${table.columns.map((c) => c.label).join(' | ')}`);
  for (const row of table.rows) console.log(row.join(' | '));
  if (withCli || profile) console.log(`wrote ${writeBenchResult({ name: 'compile-time', command: 'npm run bench:compile -- --cli --profile', ...table })}`);
}

/** one row per case: compile() in process, both CLIs' whole process (median over rounds), dist's CPU by phase */
function resultTable(cases: string[], samples: Sample[], cliSamples: CliSample[]): Pick<BenchResult, 'columns' | 'rows' | 'raw'> {
  const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1] : NaN);
  const s2 = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(2));
  const mb = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(0));
  const shown: Phase[] = ['node+modules', 'tsx', 'build', 'flatten', 'structure', 'codegen', 'newFunction', 'gc', 'other', 'otherThreads'];
  const columns: BenchColumn[] = [
    { label: 'case' },
    { label: 'mode' },
    ...[
      'compile() s',
      'warm s',
      'RSS MB',
      'source KB',
      'body KB',
      'flat body KB',
      'eval µs',
      'flat eval µs',
      'repo CLI s',
      'repo CLI MB',
      'sources CLI s',
      'sources CLI MB',
      'dist CLI s',
      'dist CLI MB',
    ].map((label) => ({
      label,
      align: 'right' as const,
    })),
    ...shown.map((p) => ({ label: `dist ${p} s`, align: 'right' as const })),
  ];
  const rows = cases.map((name) => {
    const mine = samples.filter((s) => s.case === name);
    const timed = (which: Cli) => cliSamples.filter((s) => s.case === name && s.cli === which && !s.phases);
    const profiled = cliSamples.filter((s) => s.case === name && s.phases);
    return [
      name,
      mine[0]?.mode ?? '',
      s2(median(mine.map((s) => s.compileCpu))),
      s2(median(mine.map((s) => s.warmCpu))),
      mb(median(mine.map((s) => s.peakRssMB))),
      mb(median(mine.map((s) => s.sourceKB))),
      mb(median(mine.flatMap((s) => (s.flat ? [s.flat.bodyKB] : [])))),
      mb(median(mine.flatMap((s) => (s.flat ? [s.flat.flatBodyKB] : [])))),
      s2(median(mine.flatMap((s) => (s.flat ? [s.flat.evalUs] : [])))),
      s2(median(mine.flatMap((s) => (s.flat ? [s.flat.flatEvalUs] : [])))),
      s2(median(timed('repo').map((s) => s.cpu))),
      mb(median(timed('repo').map((s) => s.peakRssMB))),
      s2(median(timed('sources').map((s) => s.cpu))),
      mb(median(timed('sources').map((s) => s.peakRssMB))),
      s2(median(timed('dist').map((s) => s.cpu))),
      mb(median(timed('dist').map((s) => s.peakRssMB))),
      ...shown.map((p) => s2(median(profiled.map((s) => s.phases![p] / 1000)))),
    ];
  });
  return { columns, rows, raw: [...samples, ...cliSamples] };
}

function gitHead(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return undefined; // not a git checkout: the result is still worth writing
  }
}

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: 'puma,humanoid,chain:64,chain:256,chain:1024,rcgrid:100' },
    sizes: { type: 'string' },
    mode: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    cli: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    flat: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    out: { type: 'string' },
    child: { type: 'string' },
  },
});
if (values.child !== undefined) await child(values.child, values.mode, values.flat);
else {
  const cases = values.sizes ? values.sizes.split(',').map((n) => `chain:${n}`) : values.cases.split(',');
  parent(cases, values.mode, Number(values.rounds), values.cli, values.profile, values.json, values.out, values.flat);
}
