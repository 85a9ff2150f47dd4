import { describe, expect, it } from 'vitest';
import { type Bipartite, bipartiteFromLists } from '../../src/structure/graph.ts';
import { type Matching, maximumMatching } from '../../src/structure/matching.ts';
import { type Blt, bltBlocks } from '../../src/structure/blt.ts';
import { oracleMatching, randInt, randomPerfect, rng } from './helpers.ts';

// (blt) => block index of every equation
function blockOf(blt: Blt, n: number): Int32Array {
  const of = new Int32Array(n).fill(-1);
  for (let b = 0; b + 1 < blt.blockStart.length; b++) {
    for (let k = blt.blockStart[b]; k < blt.blockStart[b + 1]; k++) of[blt.order[k]] = b;
  }
  return of;
}

// (graph, matching) => reach[i][j]: eq j reachable from eq i (reflexive), by Floyd-Warshall closure
function closure(g: Bipartite, m: Matching): boolean[][] {
  const n = g.nEq;
  const reach = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => i === j));
  for (let e = 0; e < n; e++) {
    for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) reach[e][m.varToEq[g.eqAdj[k]]] = true;
  }
  for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) if (reach[i][k]) for (let j = 0; j < n; j++) if (reach[k][j]) reach[i][j] = true;
  return reach;
}

describe('bltBlocks', () => {
  it('orders the relaxing-paper example h1(z1,z3), h2(z2), h3(z1,z2) as h2, h3, h1', () => {
    const g = bipartiteFromLists(3, [[0, 2], [1], [0, 1]]);
    const m = maximumMatching(g);
    expect(Array.from(m.eqToVar)).toEqual([2, 1, 0]); // h1 -> z3, h2 -> z2, h3 -> z1
    const blt = bltBlocks(g, m);
    expect(Array.from(blt.order)).toEqual([1, 2, 0]);
    expect(Array.from(blt.blockStart)).toEqual([0, 1, 2, 3]);
  });

  it('puts dependencies first and finds exactly the strongly connected components (closure oracle)', () => {
    const rand = rng(6);
    for (let t = 0; t < 200; t++) {
      const n = 1 + randInt(rand, 40);
      const g = randomPerfect(rand, n, randInt(rand, 3));
      const m = maximumMatching(g);
      const blt = bltBlocks(g, m);
      const of = blockOf(blt, n);
      expect(Array.from(blt.order).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      // (a) every variable an equation uses is computed in the same or an earlier block
      const bad: string[] = [];
      for (let e = 0; e < n; e++) {
        for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) {
          if (of[m.varToEq[g.eqAdj[k]]] > of[e]) bad.push(`eq ${e} uses var ${g.eqAdj[k]} computed later`);
        }
      }
      // (b) same block <=> mutually reachable: blocks are strongly connected and maximal
      const reach = closure(g, m);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) if ((of[i] === of[j]) !== (reach[i][j] && reach[j][i])) bad.push(`eqs ${i}, ${j}`);
      }
      expect(bad).toEqual([]);
      // deterministic inside a block: ascending ids
      for (let b = 0; b + 1 < blt.blockStart.length; b++) {
        const block = Array.from(blt.order.subarray(blt.blockStart[b], blt.blockStart[b + 1]));
        expect(block).toEqual([...block].sort((x, y) => x - y));
      }
    }
  });

  it('gives the same blocks for a different perfect matching', () => {
    const rand = rng(8);
    for (let t = 0; t < 100; t++) {
      const n = 1 + randInt(rand, 60);
      const g = randomPerfect(rand, n, 1 + randInt(rand, 2));
      const blocks = (m: Matching) => {
        const blt = bltBlocks(g, m);
        return Array.from({ length: blt.blockStart.length - 1 }, (_, b) =>
          Array.from(blt.order.subarray(blt.blockStart[b], blt.blockStart[b + 1])).join(','),
        ).sort();
      };
      expect(blocks(oracleMatching(g))).toEqual(blocks(maximumMatching(g)));
    }
  });

  it('handles a 300000-deep dependency chain and a 300000-equation loop without stack overflow', () => {
    const n = 300_000;
    // eq i: {x_i, x_{i+1}}: eq i needs eq i+1, so the solve order is n-1, ..., 0
    const chain = bipartiteFromLists(
      n,
      Array.from({ length: n }, (_, i) => (i === n - 1 ? [i] : [i, i + 1])),
    );
    const c = bltBlocks(chain, maximumMatching(chain));
    expect(c.blockStart.length).toBe(n + 1);
    expect(c.order[0]).toBe(n - 1);
    expect(c.order[n - 1]).toBe(0);
    const cycle = bipartiteFromLists(
      n,
      Array.from({ length: n }, (_, i) => [i, (i + 1) % n]),
    );
    const l = bltBlocks(cycle, maximumMatching(cycle));
    expect(Array.from(l.blockStart)).toEqual([0, n]);
  });

  it('refuses a matching that is not perfect', () => {
    const g = bipartiteFromLists(2, [[0], [0]]);
    expect(() => bltBlocks(g, maximumMatching(g))).toThrow(/perfect matching/);
  });
});
