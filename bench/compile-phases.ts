// bench/compile-phases: compile()'s phases run one by one on a model of
// mechanisms/ (issue 35), each phase's CPU time (process.cpuUsage, not wall
// time: the machines are shared) and the live heap after it, measured after
// a full collection (so it is what the phase keeps, not what it let go). The
// collections themselves are not counted; the collector's work during a phase
// is. The live heap does not depend on the machine's load: compare two
// commits by it when CPU times are noisy. What compile() does after generate
// (compiledData, the module's new Function) is not measured here.
// Run: node --expose-gc --import tsx bench/compile-phases.ts mechanisms/rcgrid.ts 100 iterate
//      (mode: iterate = relaxIterate, relaxed, torn; the number is the builder's n)
import { withLocalTable } from '../src/expr/index.ts';
import { type Model, elaborate, eliminateAliases, findTemplates, flatten } from '../src/model/index.ts';
import { planModel } from '../src/structure/plan.ts';
import { iterateOptions } from '../src/structure/iterate-plan.ts';
import { generate } from '../src/codegen/generate.ts';
import { templatesAsked } from '../src/compile-templates.ts';

const [file, n, mode = 'relaxed'] = process.argv.slice(2);
if (!file || !n) throw new Error('usage: node --expose-gc --import tsx bench/compile-phases.ts <model.ts> <n> [iterate|relaxed|torn]');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run node with --expose-gc: the live heap is measured after a full collection');
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const rows: { phase: string; cpu: number; heapMB: number }[] = [];
let t = cpu();
/** the phase just ended: its CPU, then the heap it leaves once collected (the collection not counted) */
const mark = (phase: string) => {
  const dt = cpu() - t;
  gc();
  rows.push({ phase, cpu: dt, heapMB: process.memoryUsage().heapUsed / 2 ** 20 });
  t = cpu();
};
const build = (await import(`../${file}`)).default as (p: Record<string, number>) => Model;
mark('start');
const model = build({ n: Number(n) });
mark('build');
const kept: unknown[] = [];
withLocalTable(() => {
  elaborate(model);
  const flat = flatten(model, {});
  mark('flatten');
  const reduced = eliminateAliases(flat);
  mark('aliases');
  const templates = findTemplates(model, flat.parameterValues, true);
  mark('templates');
  const plan = planModel(reduced, { relaxed: mode !== 'torn', outputs: [], iterate: iterateOptions(mode === 'iterate') });
  mark('structure');
  // as compile() calls it: the IR is kept for the WebAssembly target only
  const generated = generate(plan, { templates: templatesAsked(templates, {}) === true, ir: false });
  mark('codegen');
  kept.push(flat, reduced, plan, generated); // alive until here, as in compile()
});
console.log(`${file} n = ${n} ${mode}: CPU s and live heap MB after each phase`);
for (const r of rows) console.log(`${r.phase.padEnd(10)} ${r.cpu.toFixed(2).padStart(7)} s ${r.heapMB.toFixed(0).padStart(7)} MB`);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
