// bench/structure: timings of the structural passes on synthetic sparse square
// systems, to show that every stage grows (near) linearly with the size.
// Run: npx tsx bench/structure.ts
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
//   stages      build = bipartiteFromLists, match = maximumMatching, blt = bltBlocks,
//               tear = subgraph + tearHeuristic for every block larger than one equation

import { bipartiteFromLists, subgraph } from '../src/structure/graph.ts';
import { maximumMatching } from '../src/structure/matching.ts';
import { bltBlocks } from '../src/structure/blt.ts';
import { tearHeuristic } from '../src/structure/tearing.ts';
import { rng } from '../src/bench/timing.ts';

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
  for (let a = 0; a < n; ) {
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
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - t;
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
    const s = subgraph(g, eqs, eqs.map((e) => m.eqToVar[e]));
    tears += tearHeuristic(s.graph, (le, lv) => solvable(s.eqs[le], s.vars[lv])).tearVars.length;
    blocks++;
    maxBlock = Math.max(maxBlock, eqs.length);
  }
  const tear = lap();
  if (blocks !== loops) throw new Error(`expected ${loops} loops, BLT found ${blocks}`);
  return { layout, n, build, match, blt: bltMs, tear, loops, maxBlock, tears };
}

// (row) => one Markdown table line
function line(r: Row): string {
  const total = r.build + r.match + r.blt + r.tear;
  const cells = [r.n.toExponential(0), r.build, r.match, r.blt, r.tear, total, (total * 1e4) / r.n]
    .map((x) => (typeof x === 'number' ? x.toFixed(1) : x));
  return `| ${r.layout} | ${cells.join(' | ')} | ${r.loops} | ${r.maxBlock} | ${r.tears} |`;
}

function main(): void {
  run(2000, 'shuffled'); // warm up the JIT
  console.log('| ids | n | build ms | match ms | blt ms | tear ms | total ms | ms per 1e4 eqs | loops | max block | tear vars |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const layout of ['local', 'shuffled'] as const) {
    let last = 0;
    for (const n of [1e4, 1e5, 1e6]) {
      const estimate = last * 20; // 10x the size, with margin for cache effects
      if (n === 1e6 && estimate > 60_000) {
        console.log(`| ${layout} | 1e+6 | skipped: estimated ${(estimate / 1000).toFixed(0)} s > 60 s |`);
        break;
      }
      const started = performance.now();
      console.log(line(run(n, layout)));
      last = performance.now() - started;
    }
  }
}

main();
