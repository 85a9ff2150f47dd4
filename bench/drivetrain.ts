// bench/drivetrain: the long drive train (mechanisms/longdrivetrain.ts) compiled
// torn and relaxed, as a Markdown table, and bench/results/drivetrain.json
// (bench/results.ts; docs/performance/benchmarks.md shows it through
// npm run docs:bench). Run: npm run bench:drivetrain
//
// Glossary
//   n           shafts; rigid = 0: n/2 parts (Shaft - Gear - ShaftS) between spring|damper
//               couplings, rigid = 1: one rigid chain of n shafts and n - 1 gears
//   compile     CPU time of compile() (flatten, aliases, sorting, tearing/relaxing, codegen)
//   ops         report.ops: mul / add / div / fn per evaluation of the derivatives, parameters
//               folded (the default, as `kron compile` does)
//   µs/eval     one derivatives() call: after a warm-up (>= 20000 calls and 300 ms, at most 3 s:
//               V8 needs ~10^4 calls to optimise the generated functions), the median over
//               batches of many calls, each batch at a fresh pseudo-random state
//   order       'train': components declared along the train (the module's default);
//               'shafts first': all shafts, then all couplings (shaftsFirst = 1), the same model

import { compile, type Mode } from '../src/compile.ts';
import { BATCHES, BATCH_MS, cpuMicros, microsPerEval, sink } from '../src/bench/timing.ts';
import { writeBenchResult } from './results.ts';
import build from '../mechanisms/longdrivetrain.ts';

const SIZES = [50, 100, 200, 400];

interface Row {
  n: number;
  rigid: number;
  mode: Mode;
  order: string;
  compileMs: number;
  ops: string;
  total: number;
  us: number;
}

function measure(n: number, rigid: number, mode: Mode, shaftsFirst = 0): Row {
  const t0 = cpuMicros();
  const c = compile(build({ n, rigid, shaftsFirst }), { mode });
  const compileMs = (cpuMicros() - t0) / 1000;
  const { mul, add, div, fn } = c.report.ops;
  return {
    n,
    rigid,
    mode,
    order: shaftsFirst ? 'shafts first' : 'train',
    compileMs,
    ops: `${mul} / ${add} / ${div} / ${fn}`,
    total: mul + add + div + fn,
    us: microsPerEval(c, n * 4 + rigid * 2 + (mode === 'torn' ? 0 : 1)),
  };
}

const COLUMNS = [
  { label: 'rigid', align: 'right' },
  { label: 'n', align: 'right' },
  { label: 'mode' },
  { label: 'order' },
  { label: 'compile ms CPU', align: 'right' },
  { label: 'ops mul / add / div / fn' },
  { label: 'ops total', align: 'right' },
  { label: 'µs/eval', align: 'right' },
] as const;
const cells = (r: Row) => [String(r.rigid), String(r.n), r.mode, r.order, r.compileMs.toFixed(0), r.ops, String(r.total), r.us.toFixed(2)];
const line = (r: Row) => `| ${cells(r).join(' | ')} |`;

const started = cpuMicros();
const rows: Row[] = [];
for (const rigid of [0, 1]) for (const n of SIZES) for (const mode of ['torn', 'relaxed'] as const) rows.push(measure(n, rigid, mode));
// the declaration-order dependence of relaxed mode (test/papers/relaxing-drivetrain.test.ts)
for (const rigid of [0, 1]) for (const n of SIZES) rows.push(measure(n, rigid, 'relaxed', 1));

console.log(
  [
    '# Long drive train: torn vs relaxed',
    '',
    `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; parameters folded (the default); µs/eval: median of ${BATCHES} batches of ~${BATCH_MS} ms.`,
    '',
    `| ${COLUMNS.map((c) => c.label).join(' | ')} |`,
    `|${COLUMNS.map((c) => ('align' in c ? '---:' : '---')).join('|')}|`,
    ...rows.map(line),
    '',
    `total bench time ${((cpuMicros() - started) / 1e6).toFixed(1)} s CPU${sink === 42 ? '' : ''}`,
  ].join('\n'),
);
console.log(`wrote ${writeBenchResult({ name: 'drivetrain', command: 'npm run bench:drivetrain', columns: [...COLUMNS], rows: rows.map(cells), raw: rows })}`);
