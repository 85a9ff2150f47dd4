import { describe, expect, it } from 'vitest';
import { bipartiteFromLists } from '../../src/structure/graph.ts';
import { maximumMatching } from '../../src/structure/matching.ts';
import { singularParts } from '../../src/structure/singularity.ts';
import { oracleMatching, randInt, randomLists, rng } from './helpers.ts';

const ids = (a: Int32Array) => Array.from(a);

describe('singularParts', () => {
  it('names the over- and under-determined parts of a hand-built singular system', () => {
    // vars x=0, y=1, z=2; e0: f(x)=0, e1: g(x)=0, e2: h(y, z)=0
    const g = bipartiteFromLists(3, [[0], [0], [1, 2]]);
    const p = singularParts(g, maximumMatching(g));
    expect(ids(p.overEqs)).toEqual([0, 1]);
    expect(ids(p.overVars)).toEqual([0]);
    expect(ids(p.underEqs)).toEqual([2]);
    expect(ids(p.underVars)).toEqual([1, 2]);
  });

  it('is empty for a nonsingular system', () => {
    const g = bipartiteFromLists(3, [[0, 2], [1], [0, 1]]);
    const p = singularParts(g, maximumMatching(g));
    expect([p.overEqs, p.overVars, p.underEqs, p.underVars].map((a) => a.length)).toEqual([0, 0, 0, 0]);
  });

  it('does not depend on which maximum matching is used, and the parts have the right surplus', () => {
    const rand = rng(5);
    for (let t = 0; t < 300; t++) {
      const nEq = 1 + randInt(rand, 40);
      const nVar = 1 + randInt(rand, 40);
      const g = bipartiteFromLists(nVar, randomLists(rand, nEq, nVar, (0.5 + rand() * 2) / nVar));
      const m = maximumMatching(g);
      const other = oracleMatching(g); // different tie-breaking, same size
      const a = singularParts(g, m);
      const b = singularParts(g, other);
      expect([a.overEqs, a.overVars, a.underEqs, a.underVars].map(ids)).toEqual([b.overEqs, b.overVars, b.underEqs, b.underVars].map(ids));
      expect(a.overEqs.length - a.overVars.length).toBe(nEq - m.size);
      expect(a.underVars.length - a.underEqs.length).toBe(nVar - m.size);
      // the two parts are disjoint
      expect(ids(a.overEqs).filter((e) => ids(a.underEqs).includes(e))).toEqual([]);
      expect(ids(a.overVars).filter((v) => ids(a.underVars).includes(v))).toEqual([]);
    }
  });
});
