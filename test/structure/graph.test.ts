import { describe, expect, it } from 'vitest';
import { UNASSIGNED, bipartiteFromLists, printIncidence, subgraph } from '../../src/structure/graph.ts';
import { randInt, randomLists, rng } from './helpers.ts';

const rows = (start: Int32Array, adj: Int32Array) => Array.from({ length: start.length - 1 }, (_, i) => Array.from(adj.subarray(start[i], start[i + 1])));

describe('bipartiteFromLists', () => {
  it('sorts and deduplicates each row and builds the transpose', () => {
    const g = bipartiteFromLists(4, [[3, 1, 3, 0], [], [2, 2], [1]]);
    expect(UNASSIGNED).toBe(-1);
    expect(g.nEq).toBe(4);
    expect(g.nVar).toBe(4);
    expect(rows(g.eqStart, g.eqAdj)).toEqual([[0, 1, 3], [], [2], [1]]);
    expect(rows(g.varStart, g.varAdj)).toEqual([[0], [0, 3], [2], [0]]);
  });

  it('transpose agrees with the rows on random graphs', () => {
    const rand = rng(7);
    for (let t = 0; t < 50; t++) {
      const nEq = 1 + randInt(rand, 30);
      const nVar = 1 + randInt(rand, 30);
      const lists = randomLists(rand, nEq, nVar, 0.2).map((r) => [...r, ...r].reverse());
      const g = bipartiteFromLists(nVar, lists);
      const pairs = new Set(lists.flatMap((r, e) => r.map((v) => `${e},${v}`)));
      const fromVars = rows(g.varStart, g.varAdj).flatMap((r, v) => r.map((e) => `${e},${v}`));
      expect(new Set(fromVars)).toEqual(pairs);
      expect(fromVars.length).toBe(pairs.size);
      for (const r of rows(g.eqStart, g.eqAdj)) expect(r).toEqual([...r].sort((a, b) => a - b));
      for (const r of rows(g.varStart, g.varAdj)) expect(r).toEqual([...r].sort((a, b) => a - b));
    }
  });

  it('rejects out-of-range and non-integer variable ids', () => {
    expect(() => bipartiteFromLists(2, [[2]])).toThrow(RangeError);
    expect(() => bipartiteFromLists(2, [[-1]])).toThrow(RangeError);
    expect(() => bipartiteFromLists(2, [[0.5]])).toThrow(RangeError);
  });
});

describe('subgraph', () => {
  it('keeps exactly the induced incidences under local ids', () => {
    // eq0: x0 x1 x2, eq1: x1, eq2: x2 x3, eq3: x0 x3
    const g = bipartiteFromLists(4, [[0, 1, 2], [1], [2, 3], [0, 3]]);
    const s = subgraph(g, [3, 0], [3, 0, 2]);
    expect(Array.from(s.eqs)).toEqual([3, 0]);
    expect(Array.from(s.vars)).toEqual([3, 0, 2]);
    // local eq0 = global eq3 {x0, x3} -> local {1, 0}; local eq1 = global eq0 {x0, x2} -> local {1, 2}
    expect(rows(s.graph.eqStart, s.graph.eqAdj)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(rows(s.graph.varStart, s.graph.varAdj)).toEqual([[0], [0, 1], [1]]);
  });

  it('matches a direct filter on random graphs (small and large id sets)', () => {
    const rand = rng(11);
    for (let t = 0; t < 40; t++) {
      const n = 5 + randInt(rand, 60);
      const lists = randomLists(rand, n, n, 0.1);
      const g = bipartiteFromLists(n, lists);
      const eqs = Array.from({ length: n }, (_, i) => i).filter(() => rand() < (t % 2 ? 0.05 : 0.6));
      const vars = Array.from({ length: n }, (_, i) => i)
        .filter(() => rand() < (t % 2 ? 0.05 : 0.6))
        .reverse();
      const s = subgraph(g, eqs, vars);
      const expected = eqs.map((e) =>
        lists[e]
          .filter((v) => vars.includes(v))
          .map((v) => vars.indexOf(v))
          .sort((a, b) => a - b),
      );
      expect(rows(s.graph.eqStart, s.graph.eqAdj)).toEqual(expected.map((r) => [...new Set(r)]));
    }
  });

  it('rejects repeated ids', () => {
    const g = bipartiteFromLists(3, [[0], [1], [2]]);
    expect(() => subgraph(g, [0, 1], [1, 1])).toThrow(/twice/);
    expect(() => subgraph(g, [2, 2], [1])).toThrow(/twice/);
  });
});

describe('printIncidence', () => {
  it('draws the relaxing-paper example with matched markers', () => {
    // h1(z1, z3), h2(z2), h3(z1, z2); matching h1->z3, h2->z2, h3->z1
    const g = bipartiteFromLists(3, [[0, 2], [1], [0, 1]]);
    const text = printIncidence(g, ['h1', 'h2', 'h3'], ['z1', 'z2', 'z3'], Int32Array.from([2, 1, 0]));
    expect(text).toBe(['    z1  z2  z3', 'h1   1   . [1]', 'h2   . [1]   .', 'h3 [1]   1   .'].join('\n'));
  });

  it('widens columns for long names and omits markers without a matching', () => {
    const g = bipartiteFromLists(2, [[0, 1], [1]]);
    const text = printIncidence(g, ['eqA', 'b'], ['omega', 'x'], undefined);
    expect(text).toBe(['    omega     x', 'eqA     1     1', 'b       .     1'].join('\n'));
  });
});
