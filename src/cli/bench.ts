// `kron bench`: torn against relaxed against MuJoCo's mj_forward, in one run
// (issue 7). The measuring lives in bench/ (sweep.ts; MuJoCo is a
// devDependency): this file reads the flags, prints the table and writes
// bench.json, bench.md and chain.svg.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import { BENCH_USAGE } from './bench-usage.ts';
import { type BenchModel, DEFAULT_SIZES, MODELS, sweep } from '../bench/sweep.ts';
import { type Machine, chainPlot, conclusions, machine, markdownTable, summarize } from '../bench/report.ts';

const OPTIONS = {
  json: { type: 'boolean', default: false },
  n: { type: 'string' },
  models: { type: 'string' },
  out: { type: 'string', default: 'bench/results' },
  'max-torn-n': { type: 'string', default: '256' },
  'warmup-limit': { type: 'string', default: '60' },
  'compile-budget': { type: 'string', default: '30' },
  rounds: { type: 'string', default: '15' },
  'no-mujoco': { type: 'boolean', default: false },
  target: { type: 'string', default: 'js' },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

// (arguments after `bench`) => runs the benchmark; throws UsageError on bad flags
export async function benchCommand(argv: string[]): Promise<void> {
  const values = parse(argv);
  if (values.help) {
    process.stdout.write(BENCH_USAGE);
    return;
  }
  const sizes = values.n === undefined ? DEFAULT_SIZES : list('--n', values.n).map((s) => positiveInteger('--n', s));
  const models = values.models === undefined ? MODELS.map((m) => m.name) : list('--models', values.models).map(modelName);
  const result = await sweep({
    models,
    sizes,
    maxTornN: positiveInteger('--max-torn-n', values['max-torn-n']),
    warmupMs: 1000 * positiveNumber('--warmup-limit', values['warmup-limit']),
    compileBudgetMs: 1000 * positiveNumber('--compile-budget', values['compile-budget']),
    rounds: positiveInteger('--rounds', values.rounds),
    mujoco: !values['no-mujoco'],
    target: benchTarget(values.target),
    log: (line) => process.stderr.write(line + '\n'),
  });
  const m = machine();
  const summary = summarize(result.rows);
  const header =
    `kron bench, ${m.date}: Node ${m.node}, ${m.nproc} cores (${m.cpu}), ${m.os}; Kron's target ${values.target}` +
    `${result.mujocoVersion ? `; MuJoCo ${result.mujocoVersion} (@mujoco/mujoco, WebAssembly)` : ''}`;
  const table = markdownTable(result.rows);
  const closing = conclusions(summary, result);
  process.stdout.write(values.json ? jsonRows(result.rows) : [header, '', table, '', ...closing, ''].join('\n'));
  writeResults(values.out, m, header, table, closing, result, summary);
}

function writeResults(
  dir: string,
  m: Machine,
  header: string,
  table: string,
  closing: string[],
  result: Awaited<ReturnType<typeof sweep>>,
  summary: ReturnType<typeof summarize>,
): void {
  mkdirSync(dir, { recursive: true });
  const files = ['bench.json', 'bench.md'];
  writeFileSync(
    join(dir, 'bench.json'),
    JSON.stringify({ machine: m, mujoco: result.mujocoVersion, rows: result.rows, summary, agreement: result.agreement, skipped: result.skipped }, null, 2) +
      '\n',
  );
  const svg = chainPlot(result.rows, summary, m, result.mujocoVersion);
  if (svg) {
    writeFileSync(join(dir, 'chain.svg'), svg);
    files.push('chain.svg');
  }
  const md = ['# kron bench', '', header, '', table, '', ...closing, '', ...(svg ? ['![µs per evaluation against n on the chain](chain.svg)', ''] : [])];
  writeFileSync(join(dir, 'bench.md'), md.join('\n'));
  process.stderr.write(`wrote ${files.map((f) => join(dir, f)).join(', ')}\n`);
}

function benchTarget(target: string): 'js' | 'wasm' {
  if (target === 'js' || target === 'wasm') return target;
  throw new UsageError(`--target must be js or wasm, got "${target}"`, { hint: BENCH_USAGE });
}

/** one row per line, valid JSON */
const jsonRows = (rows: readonly object[]) => `[\n${rows.map((r) => '  ' + JSON.stringify(r)).join(',\n')}\n]\n`;

function parse(argv: string[]) {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (positionals.length) throw new UsageError(`kron bench takes no arguments, got ${positionals.join(' ')}`, { hint: BENCH_USAGE });
    return values;
  } catch (e) {
    if (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS')) throw new UsageError(e.message, { hint: BENCH_USAGE });
    throw e;
  }
}

const list = (flag: string, text: string) => {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!items.length) throw new UsageError(`${flag} expects a comma-separated list, got "${text}"`);
  return items;
};

function positiveNumber(flag: string, text: string): number {
  const v = Number(text);
  if (text.trim() === '' || !(v > 0) || !Number.isFinite(v)) throw new UsageError(`${flag} expects a positive number, got "${text}"`);
  return v;
}

function positiveInteger(flag: string, text: string): number {
  const v = positiveNumber(flag, text);
  if (!Number.isInteger(v)) throw new UsageError(`${flag} expects positive integers, got "${text}"`, { hint: 'e.g. --n 1,2,4,8' });
  return v;
}

function modelName(name: string): BenchModel {
  const known = MODELS.map((m) => m.name);
  if (!(known as string[]).includes(name)) throw new UsageError(`unknown model "${name}" in --models`, { hint: `models: ${known.join(', ')}` });
  return name as BenchModel;
}
