// The kron command line: compile and simulate model modules.
// Exit codes: 0 ok, 1 model error (the model or its run is wrong), 2 usage error.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { KronError, UsageError } from '../errors.ts';
import { compile } from '../compile.ts';
import type { TearOverride } from '../structure/plan.ts';
import { simulate } from '../sim/simulate.ts';
import { loadModel } from './load.ts';
import type { Model } from '../model/index.ts';
import { Mechanism } from '../library/multibody/index.ts';
import { formatReport } from './format.ts';

const USAGE = `kron — an equation compiler for mechanisms

usage:
  kron compile <model.ts> [--mode torn|relaxed] [--set name=value ...] [--tear var[:eqvar] ...]
                          [--untear var[:eqvar] ...] [--keep-parameters] [--gravity gx,gy,gz]
                          [--json] [--emit out.js]
  kron simulate <model.ts> [--mode torn|relaxed] [--set name=value ...] [--stop T] [--step h]
                           [--interval dt] [--signals a,b,...] [--out results.csv|results.json]
  kron bench [--json] [--n 1,2,4,...] [--models chain,puma560,tree,fourbar] [--out dir]  (kron bench -h)

examples:
  kron compile mechanisms/drivetrain.ts --json
  kron compile mechanisms/drivetrain.ts --mode relaxed --keep-parameters
  kron compile mechanisms/drivetrain.ts --set i=5 --emit /tmp/drivetrain.js
  kron simulate mechanisms/drivetrain.ts --stop 1 --out /tmp/d.csv

--set name=value   a parameter the model module declares (e.g. n=16), or a model
                   parameter by hierarchical name (e.g. s1.J=2)
--mode             torn: loops torn from the residue() hints (M(q) qdd = h for mechanisms);
                   relaxed: relax() marks honoured too, loops eliminated in relaxed BLT order
--keep-parameters  keep parameters symbolic in the generated code (default: folded to constants)
--gravity gx,gy,gz the world's gravity of a mechanism (default 0,-9.80665,0)
--tear v[:e]       "variable tear" (tearing paper): add tearing variable v with the
                   residue equation matched to variable e (default e = v); "v:" adds
                   the variable only, ":e" the equation only; --untear removes them
`;

const OPTIONS = {
  mode: { type: 'string', default: 'torn' },
  set: { type: 'string', multiple: true },
  tear: { type: 'string', multiple: true },
  untear: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  'keep-parameters': { type: 'boolean', default: false },
  gravity: { type: 'string' },
  emit: { type: 'string' },
  stop: { type: 'string', default: '1' },
  step: { type: 'string', default: '1e-3' },
  interval: { type: 'string' },
  signals: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

function number(flag: string, text: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new UsageError(`${flag} expects a number, got "${text}"`);
  return v;
}

function parseSets(sets: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of sets) {
    const i = s.indexOf('=');
    if (i <= 0) throw new UsageError(`--set expects name=value, got "${s}"`, { hint: 'e.g. --set n=16' });
    out[s.slice(0, i)] = number(`--set ${s.slice(0, i)}`, s.slice(i + 1));
  }
  return out;
}

/** --gravity gx,gy,gz: the world's gravity parameters world.g[1..3] */
function parseGravity(text: string, model: Model): Record<string, number> {
  const g = text.split(',').map((x) => number('--gravity', x));
  if (g.length !== 3) throw new UsageError(`--gravity expects gx,gy,gz, got "${text}"`, { hint: 'e.g. --gravity 0,0,-9.80665' });
  if (!(model instanceof Mechanism)) throw new UsageError('--gravity applies to mechanisms (models built with Mechanism, which have a world)');
  return { 'world.g[1]': g[0], 'world.g[2]': g[1], 'world.g[3]': g[2] };
}

function parseTear(spec: string, remove: boolean): TearOverride {
  const [variable, equation] = spec.includes(':') ? spec.split(':') : [spec, undefined];
  if (!variable && !equation) throw new UsageError(`--tear expects var[:eqvar], got "${spec}"`);
  return { variable: variable || undefined, equation: equation ?? undefined, remove };
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function run(argv: string[]): Promise<void> {
  if (argv[0] === 'bench') return (await import('./bench.ts')).benchCommand(argv.slice(1));
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, file, ...extra] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    if (!values.help) throw new UsageError('no command given');
    return;
  }
  if (command !== 'compile' && command !== 'simulate') throw new UsageError(`unknown command "${command}"`, { hint: 'commands: compile, simulate, bench' });
  if (!file) throw new UsageError(`kron ${command} needs a model file`, { hint: `kron ${command} mechanisms/drivetrain.ts` });
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (values.mode !== 'torn' && values.mode !== 'relaxed') throw new UsageError(`--mode must be torn or relaxed, got "${values.mode}"`);
  const { model, overrides } = await loadModel(file, parseSets(values.set ?? []));
  if (values.gravity !== undefined) Object.assign(overrides, parseGravity(values.gravity, model));
  const tear = [...(values.tear ?? []).map((s) => parseTear(s, false)), ...(values.untear ?? []).map((s) => parseTear(s, true))];
  const compiled = compile(model, { mode: values.mode, parameters: overrides, tear, foldParameters: !values['keep-parameters'] });
  for (const d of compiled.report.diagnostics) process.stderr.write(`warning: ${d}\n`);
  if (values.emit) write(values.emit, compiled.source());
  if (command === 'compile') {
    process.stdout.write(values.json ? JSON.stringify(compiled.report, null, 2) + '\n' : formatReport(compiled.report) + '\n');
    return;
  }
  const result = simulate(compiled, {
    stop: number('--stop', values.stop),
    step: number('--step', values.step),
    interval: values.interval === undefined ? undefined : number('--interval', values.interval),
    signals: values.signals ? values.signals.split(',').map((s) => s.trim()) : undefined,
  });
  if (values.out) {
    write(values.out, values.out.endsWith('.json') ? JSON.stringify({ model: compiled.report.model, ...result.toJSON() }) + '\n' : result.toCSV());
    process.stderr.write(`wrote ${result.length} samples of ${result.names.length} signals to ${values.out}\n`);
  } else {
    process.stdout.write(result.toCSV());
  }
}

// (argv) => exit code; errors are printed, never thrown
export async function main(argv: string[]): Promise<number> {
  try {
    await run(argv);
    return 0;
  } catch (e) {
    if (e instanceof KronError) {
      process.stderr.write(e.describe() + '\n');
      return e instanceof UsageError ? 2 : 1;
    }
    if (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`UsageError: ${e.message}\n${USAGE}`);
      return 2;
    }
    process.stderr.write(`internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
    return 1;
  }
}
