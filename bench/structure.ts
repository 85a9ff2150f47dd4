// bench/structure: timings of the structural passes on synthetic sparse square
// systems, to show that every stage grows (near) linearly with the size: a
// Markdown table, and bench/results/structure.json (bench/results.ts;
// docs/performance/benchmarks.md shows it through npm run docs:bench).
// Run: npm run bench:structure
//
// Glossary
//   segment     a run of equations tied into one cycle, so it becomes exactly one BLT block;
//               sizes range from 1 to 4096 (half of all segments are single equations)
//   diagonal    eq i contains var i (before shuffling): a perfect matching always exists
//   extras      per equation one random variable of its own segment and one of an earlier segment
//               (a dependency on an earlier block, never a new cycle)
//   layout      'local': ids in generation order (equations of one segment adjacent, as a flattened
//               model numbers them); 'shuffled': eq and var ids randomly permuted, which defeats the
//               CPU caches (the data of 1e6 equations is ~50 MB) and shows the cost of memory latency
//   ms          CPU time of the process (single-threaded work: what the stage took, whatever the load)
//   stages      build = bipartiteFromLists, match = maximumMatching, blt = bltBlocks,
//               tear = subgraph + tearHeuristic for every block larger than one equation

import { bipartiteFromLists, subgraph } from '../src/structure/graph.ts';
import { maximumMatching } from '../src/structure/matching.ts';
import { bltBlocks } from '../src/structure/blt.ts';
import { tearHeuristic } from '../src/structure/tearing.ts';
import { cpuMicros, rng } from '../src/bench/timing.ts';
import { writeBenchResult } from './results.ts';

// (rand, n) => random permutation of 0..n-1
function permutation(rand: () => number, n: number): Int32Array {
  const p = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

// (n, seed, shuffled) => variable lists of a square system with blocks of many sizes
function synthetic(n: number, seed: number, shuffled: boolean): { lists: number[][]; loops: number } {
  const rand = rng(seed);
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  const varId = shuffled ? permutation(rand, n) : identity;
  const eqAt = shuffled ? permutation(rand, n) : identity;
  const lists: number[][] = new Array(n);
  let loops = 0;
  for (let a = 0; a < n;) {
    const size = Math.min(n - a, rand() < 0.5 ? 1 : Math.floor(2 ** (1 + rand() * 11)));
    if (size > 1) loops++;
    for (let i = a; i < a + size; i++) {
      const row = [i];
      if (size > 1) row.push(i + 1 < a + size ? i + 1 : a, a + Math.floor(rand() * size));
      if (a > 0) row.push(Math.floor(rand() * a));
      lists[eqAt[i]] = row.map((v) => varId[v]);
    }
    a += size;
  }
  return { lists, loops };
}

// (eq, var) => about 90% of incidences solvable, deterministic
function solvable(e: number, v: number): boolean {
  const h = Math.imul(e, 0x9e3779b1) ^ Math.imul(v, 0x85ebca6b);
  return ((h ^ (h >>> 16)) >>> 0) % 10 !== 0;
}

interface Row {
  layout: string;
  n: number;
  build: number;
  match: number;
  blt: number;
  tear: number;
  loops: number;
  maxBlock: number;
  tears: number;
}

// (n, layout) => timings of every stage on one synthetic system
function run(n: number, layout: 'local' | 'shuffled'): Row {
  const { lists, loops } = synthetic(n, 12345 + n, layout === 'shuffled');
  let t = cpuMicros();
  const lap = () => {
    const now = cpuMicros();
    const ms = (now - t) / 1000;
    t = now;
    return ms;
  };
  const g = bipartiteFromLists(n, lists);
  const build = lap();
  const m = maximumMatching(g);
  const match = lap();
  if (m.size !== n) throw new Error(`matching not perfect: ${m.size} of ${n}`);
  const blt = bltBlocks(g, m);
  const bltMs = lap();
  let blocks = 0;
  let maxBlock = 0;
  let tears = 0;
  for (let b = 0; b + 1 < blt.blockStart.length; b++) {
    const eqs = blt.order.subarray(blt.blockStart[b], blt.blockStart[b + 1]);
    if (eqs.length < 2) continue;
    const s = subgraph(
      g,
      eqs,
      eqs.map((e) => m.eqToVar[e]),
    );
    tears += tearHeuristic(s.graph, (le, lv) => solvable(s.eqs[le], s.vars[lv])).tearVars.length;
    blocks++;
    maxBlock = Math.max(maxBlock, eqs.length);
  }
  const tear = lap();
  if (blocks !== loops) throw new Error(`expected ${loops} loops, BLT found ${blocks}`);
  return { layout, n, build, match, blt: bltMs, tear, loops, maxBlock, tears };
}

const COLUMNS = [
  { label: 'ids' },
  { label: 'n', align: 'right' },
  { label: 'build ms', align: 'right' },
  { label: 'match ms', align: 'right' },
  { label: 'BLT ms', align: 'right' },
  { label: 'tear ms', align: 'right' },
  { label: 'total ms', align: 'right' },
  { label: 'ms per 10^4 eqs', align: 'right' },
  { label: 'loops', align: 'right' },
  { label: 'max block', align: 'right' },
  { label: 'tear vars', align: 'right' },
] as const;

// (row) => its table cells
function cells(r: Row): string[] {
  const total = r.build + r.match + r.blt + r.tear;
  const times = [r.build, r.match, r.blt, r.tear, total, (total * 1e4) / r.n].map((x) => x.toFixed(1));
  return [r.layout, `10^${Math.round(Math.log10(r.n))}`, ...times, String(r.loops), String(r.maxBlock), String(r.tears)];
}

function main(): void {
  run(2000, 'shuffled'); // warm up the JIT
  console.log(`| ${COLUMNS.map((c) => c.label).join(' | ')} |`);
  console.log(`|${COLUMNS.map((c) => ('align' in c ? '---:' : '---')).join('|')}|`);
  const rows: Row[] = [];
  for (const layout of ['local', 'shuffled'] as const) {
    let last = 0;
    for (const n of [1e4, 1e5, 1e6]) {
      const estimate = last * 20; // 10x the size, with margin for cache effects
      if (n === 1e6 && estimate > 60_000) {
        console.log(`| ${layout} | 10^6 | skipped: estimated ${(estimate / 1000).toFixed(0)} s > 60 s |`);
        break;
      }
      const started = cpuMicros();
      rows.push(run(n, layout));
      console.log(`| ${cells(rows.at(-1)!).join(' | ')} |`);
      last = (cpuMicros() - started) / 1000;
    }
  }
  console.log(`wrote ${writeBenchResult({ name: 'structure', command: 'npm run bench:structure', columns: [...COLUMNS], rows: rows.map(cells), raw: rows })}`);
}

main();
