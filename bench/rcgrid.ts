// bench/rcgrid: the RC grid of mechanisms/rcgrid.ts (issue 19) compiled with
// the relaxing iteration or by direct elimination: where the compile time
// goes, stage by stage, the heap it leaves, and the time and sweeps per
// evaluation of the state derivatives.
// Run: npx tsx bench/rcgrid.ts <n> [iterate|direct] [omega] [RK4 steps]
//      (/usr/bin/time -f '%e s %M KB' for the peak resident memory)
import { elaborate, eliminateAliases, flatten } from '../src/model/index.ts';
import { withLocalTable } from '../src/expr/node.ts';
import { planModel } from '../src/structure/plan.ts';
import { sortEquations } from '../src/structure/sort.ts';
import { iterateOptions } from '../src/structure/iterate-plan.ts';
import { generate } from '../src/codegen/generate.ts';
import { CompiledModel } from '../src/codegen/compiled.ts';
import { compiledData } from '../src/codegen/compiled-data.ts';
import type { CompileReport } from '../src/report.ts';
import { simulate } from '../src/sim/simulate.ts';
import build from '../mechanisms/rcgrid.ts';

const n = Number(process.argv[2] ?? 100);
const method = process.argv[3] ?? 'iterate';
const omega = Number(process.argv[4] ?? 1);
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const stages: [string, number][] = [];
function timed<T>(name: string, f: () => T): T {
  const t0 = performance.now();
  const out = f();
  stages.push([name, Math.round(performance.now() - t0)]);
  // as it goes: a run stopped by a time limit still shows where the time went
  process.stderr.write(`  ${name}: ${stages[stages.length - 1][1]} ms, heap ${mb(process.memoryUsage().heapUsed)} MB\n`);
  return out;
}

const model = timed('build', () => build({ n }));
const compiled = withLocalTable(() => {
  timed('elaborate', () => elaborate(model));
  const flat = timed('flatten', () => flatten(model, {}));
  const reduced = timed('aliases', () => eliminateAliases(flat));
  timed('sort (matching + BLT, again inside plan)', () => sortEquations(reduced));
  const iterate = method === 'iterate' ? iterateOptions({ omega }) : undefined;
  const plan = timed('plan', () => planModel(reduced, { relaxed: true, iterate }));
  const generated = timed('generate', () => generate(plan));
  const report = { relaxedLoops: plan.relaxedLoops, ops: generated.ops } as unknown as CompileReport;
  return timed('new Function', () => new CompiledModel(compiledData(plan, reduced, generated, report, {}, { folded: true }), { plan, reduced }));
});
const total = stages.filter(([s]) => !s.startsWith('sort')).reduce((a, [, ms]) => a + ms, 0);
console.log(`rcgrid n = ${n} (${n * n} nodes), ${method}${method === 'iterate' ? `, omega ${omega}` : ''}`);
console.log(`  compile ${total} ms: ${stages.map(([s, ms]) => `${s} ${ms}`).join(', ')}`);
console.log(
  `  equations ${compiled.reduced.flat.equations.length} flat, ${compiled.plan.sortedEquations} sorted; ops per evaluation ${JSON.stringify(compiled.generated.ops)}; code ${mb(compiled.generated.body.length)} MB`,
);
console.log(`  relaxed loops ${JSON.stringify(compiled.plan.relaxedLoops)}`);
globalThis.gc?.();
console.log(`  heap after compile ${mb(process.memoryUsage().heapUsed)} MB, rss ${mb(process.memoryUsage().rss)} MB`);

// RK4 (h = 1e-3) from the start state (every capacitor empty, the source switched on at t = 0):
// a first run to let V8 optimise the code, then the timed run; evaluations = 4 per step + samples
// (unsafeStep: the time per evaluation is measured, without the stability check's probes, which
// cost up to 21 evaluations at the start of a run: a quarter of a 20-step run)
const steps = Number(process.argv[5] ?? 20);
const run = (k: number) => {
  const t0 = performance.now();
  const result = simulate(compiled.createState(), { stop: k * 1e-3, step: 1e-3, interval: k * 1e-3, signals: [], unsafeStep: true });
  const [stats] = result.iterations ?? [];
  const evaluations = stats?.evaluations ?? 4 * k + 2;
  return { ms: (performance.now() - t0) / evaluations, stats, evaluations };
};
run(Math.max(1, steps >> 2));
const { ms, stats, evaluations } = run(steps);
console.log(
  `  ${ms.toFixed(3)} ms per evaluation over ${evaluations}${stats ? `, sweeps per evaluation mean ${stats.meanSweeps.toFixed(1)}, max ${stats.maxSweeps}` : ''}`,
);

// an independent check of the numbers: the nodal equations (Kirchhoff's current law with the
// default R = Rc = 1) evaluated on the potentials the compiled code computes at a state
const check = compiled.createState();
const xs = Float64Array.from(compiled.stateNames, (_, i) => 0.5 + 0.1 * Math.sin(i));
check.derivatives(0, xs, new Float64Array(xs.length));
const v = (r: number, c: number) => check.signal(`Rc_${r}_${c}.vp`);
let residual = 0;
for (let r = 0; r < n; r++) {
  for (let c = 0; c < n; c++) {
    if (r === 0 && c === 0) continue; // held by the source
    let sum = check.signal(`C_${r}_${c}.u`) - v(r, c);
    for (const [rr, cc] of [
      [r - 1, c],
      [r + 1, c],
      [r, c - 1],
      [r, c + 1],
    ])
      if (rr >= 0 && cc >= 0 && rr < n && cc < n) sum += v(rr, cc) - v(r, c);
    residual = Math.max(residual, Math.abs(sum));
  }
}
console.log(`  largest nodal residual (Kirchhoff's current law, A) at a state: ${residual.toExponential(2)}`);
