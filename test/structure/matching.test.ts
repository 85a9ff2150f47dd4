import { describe, expect, it } from 'vitest';
import { bipartiteFromLists } from '../../src/structure/graph.ts';
import { maximumMatching } from '../../src/structure/matching.ts';
import { bruteForceMatchingSize, matchingViolations, oracleMatching, randInt, randomLists, randomPerfect, rng } from './helpers.ts';

describe('maximumMatching', () => {
  it('equals exhaustive search on many tiny random graphs', () => {
    const rand = rng(1);
    for (let t = 0; t < 400; t++) {
      const nEq = randInt(rand, 9);
      const nVar = randInt(rand, 9);
      const g = bipartiteFromLists(nVar, randomLists(rand, nEq, nVar, 0.1 + rand() * 0.4));
      const m = maximumMatching(g);
      expect(matchingViolations(g, m)).toEqual([]);
      expect(m.size).toBe(bruteForceMatchingSize(g));
    }
  });

  it('equals a simple augmenting-path matching on seeded random small graphs', () => {
    const rand = rng(2);
    for (let t = 0; t < 300; t++) {
      const nEq = 1 + randInt(rand, 80);
      const nVar = 1 + randInt(rand, 80);
      const degree = 0.5 + rand() * 3;
      const g = bipartiteFromLists(nVar, randomLists(rand, nEq, nVar, degree / nVar));
      const m = maximumMatching(g);
      expect(matchingViolations(g, m)).toEqual([]);
      expect(m.size).toBe(oracleMatching(g).size);
    }
  });

  it('equals the augmenting-path oracle on medium over- and under-determined systems', () => {
    const rand = rng(12);
    for (const [nEq, nVar] of [
      [3000, 2500],
      [2500, 3000],
      [3000, 3000],
    ]) {
      const g = bipartiteFromLists(nVar, randomLists(rand, nEq, nVar, 2.2 / nVar));
      const m = maximumMatching(g);
      expect(matchingViolations(g, m)).toEqual([]);
      expect(m.size).toBe(oracleMatching(g).size);
    }
  });

  it('finds the perfect matching of random graphs built around a permutation', () => {
    const rand = rng(3);
    for (let t = 0; t < 50; t++) {
      const n = 1 + randInt(rand, 500);
      const g = randomPerfect(rand, n, randInt(rand, 4));
      const m = maximumMatching(g);
      expect(matchingViolations(g, m)).toEqual([]);
      expect(m.size).toBe(n);
    }
  });

  it('is deterministic', () => {
    const g = randomPerfect(rng(4), 300, 3);
    const a = maximumMatching(g);
    const b = maximumMatching(g);
    expect(Array.from(a.eqToVar)).toEqual(Array.from(b.eqToVar));
  });

  it('repairs a greedy start that needs one augmenting path through 200000 equations', () => {
    // eq i: {x_i, x_{i+1}}, last eq: {x_0}. Greedy gives eq i -> x_i and strands the last eq;
    // the only fix is one augmenting path through every equation.
    const n = 200_000;
    const lists = Array.from({ length: n }, (_, i) => (i === n - 1 ? [0] : [i, i + 1]));
    const g = bipartiteFromLists(n, lists);
    const m = maximumMatching(g);
    expect(m.size).toBe(n);
    expect(m.eqToVar[n - 1]).toBe(0);
    expect(m.eqToVar[0]).toBe(1);
    expect(matchingViolations(g, m)).toEqual([]);
  });

  it('handles empty graphs', () => {
    expect(maximumMatching(bipartiteFromLists(0, [])).size).toBe(0);
    expect(maximumMatching(bipartiteFromLists(3, [[], []])).size).toBe(0);
  });
});
