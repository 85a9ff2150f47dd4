// The fuzzer: seeded random mechanisms through the public API, compiled torn
// and relaxed, compared with the oracles (bench/fuzz/check.ts says how).
//   npm run fuzz -- [--cases N] [--seed S] [--verbose]
// Case k uses seed S + k, so `--seed S --cases 1` reproduces one case.
// Prints the count of each class, every failure with its seed and one line
// of detail, and the time taken; exits 1 if any case failed.
import { performance } from 'node:perf_hooks';
import { type CaseResult, runCase } from './check.ts';
import { summarize } from './summary.ts';
import { generate } from './generate.ts';
import { describeSpec } from './spec.ts';

interface Args {
  cases: number;
  seed: number;
  verbose: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { cases: 100, seed: 1, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--verbose' || a === '-v') args.verbose = true;
    else if (a === '--cases' || a === '--seed') {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${a} needs a non-negative integer, got ${argv[i]}`);
      args[a === '--cases' ? 'cases' : 'seed'] = v;
    } else throw new Error(`unknown argument ${a} (use --cases N, --seed S, --verbose)`);
  }
  return args;
}

function main(): number {
  const args = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const results: CaseResult[] = [];
  for (let k = 0; k < args.cases; k++) {
    const seed = args.seed + k;
    const spec = generate(seed);
    if (args.verbose) console.log(describeSpec(spec));
    const r = runCase(seed, spec);
    if (args.verbose) console.log(`  => ${r.cls ?? `FAIL ${r.failure!.kind}: ${r.failure!.detail}`}${r.grey ? ' (grey)' : ''}${r.note ? ` [${r.note}]` : ''}`);
    results.push(r);
  }
  console.log(summarize(results, performance.now() - t0));
  return results.some((r) => r.failure) ? 1 : 0;
}

process.exitCode = main();
