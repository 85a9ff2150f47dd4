// bench/heap: the heap after k compiles of a chain, each model built anew and
// its compiled model dropped, measured after full garbage collections. Flat
// when nothing outlives its compile (expr/node.ts: the intern tables).
// Run: node --expose-gc --import tsx bench/heap.ts [--compiles 200] [--n 8] [--mode torn] [--sweep] [--json]
//   (npm run bench:heap). --sweep compiles one model, kept alive, with a new
//   mass each time (a parameter study with folded parameters). The loop is
//   synchronous on purpose: memory must come back without the process
//   returning to its event loop.
import { parseArgs } from 'node:util';
import { type Mode, compile } from '../src/compile.ts';
import build from '../mechanisms/chain.ts';

const { values } = parseArgs({
  options: {
    compiles: { type: 'string', default: '200' },
    n: { type: 'string', default: '8' },
    mode: { type: 'string', default: 'torn' },
    sweep: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:heap)');
const compiles = Number(values.compiles),
  n = Number(values.n),
  mode = values.mode as Mode;

/**
 * MB in use after full collections (two: weak entries go in the collection
 * after their key), the least of three tries: a try now and then reads a few
 * MB that the collector has not swept yet.
 */
function heapMB(): number {
  let least = Infinity;
  for (let k = 0; k < 3; k++) {
    gc!();
    gc!();
    least = Math.min(least, process.memoryUsage().heapUsed / 2 ** 20);
  }
  return least;
}

const checkpoints = new Set([1, 10, 50, 100, 150, 200, 300, 400, 600, 800, compiles].filter((k) => k <= compiles));
const heap: { compiles: number; mb: number }[] = [{ compiles: 0, mb: heapMB() }];
const kept = values.sweep ? build({ n }) : undefined;
const t0 = performance.now();
for (let k = 1; k <= compiles; k++) {
  if (kept) compile(kept, { mode, parameters: { 'b1.m': 1 + k / 1024 } });
  else compile(build({ n }), { mode });
  if (checkpoints.has(k)) heap.push({ compiles: k, mb: heapMB() });
}
const seconds = (performance.now() - t0) / 1000;
const at = (k: number) => heap.find((h) => h.compiles === k)?.mb ?? NaN;
const growth = at(compiles) - at(Math.min(10, compiles));

if (values.json) {
  console.log(JSON.stringify({ model: 'chain', n, mode, sweep: values.sweep, compiles, heapMB: heap, growthMB: growth, seconds }));
} else {
  const what = values.sweep ? 'one model, a new b1.m each time' : 'a new model each time';
  console.log(`chain n=${n} ${mode}: heap after k compiles (${what}, results dropped), Node ${process.version}`);
  console.log('| compiles | heap MB |\n|---:|---:|');
  for (const h of heap) console.log(`| ${h.compiles} | ${h.mb.toFixed(1)} |`);
  console.log(`growth from 10 to ${compiles} compiles: ${growth.toFixed(2)} MB (${seconds.toFixed(1)} s)`);
}
