import { describe, expect, it } from 'vitest';
import { type Bipartite, bipartiteFromLists, subgraph } from '../../src/structure/graph.ts';
import { maximumMatching } from '../../src/structure/matching.ts';
import { bltBlocks } from '../../src/structure/blt.ts';
import { tearHeuristic, tearWithHints } from '../../src/structure/tearing.ts';
import { causalViolations, randInt, randomPerfect, rng } from './helpers.ts';

const all = () => true;
const plain = (p: { kind: string; eqs: Int32Array; vars: Int32Array }) => ({
  kind: p.kind,
  eqs: Array.from(p.eqs),
  vars: Array.from(p.vars),
});

// Relaxing paper eq. 3, vars a1=0, a2=1, tau1=2, tau2=3:
//   eq0: J1*a1 + tau1 = tin   eq1: J2*a2 - tau2 = 0   eq2: -a1 + i*a2 = 0   eq3: i*tau1 - tau2 = 0
const driveTrain = bipartiteFromLists(4, [
  [0, 2],
  [1, 3],
  [0, 1],
  [2, 3],
]);

describe('tearWithHints', () => {
  it('tears the drive-train loop with a2 and the J2 equation', () => {
    const r = tearWithHints(driveTrain, all, [1], [1]);
    if (!r.ok) throw new Error(JSON.stringify(r.problems.map(plain)));
    expect(Array.from(r.result.tearVars)).toEqual([1]);
    expect(Array.from(r.result.residueEqs)).toEqual([1]);
    expect(causalViolations(driveTrain, all, r.result)).toEqual([]);
    // a1 = i*a2; tau1 = tin - J1*a1; tau2 = i*tau1
    expect(Array.from(r.result.assignEqs)).toEqual([2, 0, 3]);
    expect(Array.from(r.result.assignVars)).toEqual([0, 2, 3]);
  });

  it('reports the whole drive-train loop when nothing is torn', () => {
    const r = tearWithHints(driveTrain, all, [], []);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map(plain)).toEqual([{ kind: 'loop', eqs: [0, 1, 2, 3], vars: [0, 1, 2, 3] }]);
  });

  it('reports the loop that one tear variable leaves in a two-loop block', () => {
    // loop A: e0(x0, x1), e1(x0, x1, x3); loop B: e2(x0, x2, x3), e3(x2, x3); coupled through x0 and x3
    const g = bipartiteFromLists(4, [
      [0, 1],
      [0, 1, 3],
      [0, 2, 3],
      [2, 3],
    ]);
    const r = tearWithHints(g, all, [0], [1]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map(plain)).toEqual([{ kind: 'loop', eqs: [2, 3], vars: [2, 3] }]);
    const fixed = tearWithHints(g, all, [0, 2], [1, 3]);
    expect(fixed.ok).toBe(true);
  });

  it('treats a non-solvable occurrence as a dependency but never as a way to compute', () => {
    // e0(x0, x1), e1(x1); e0 cannot be solved for x1 (say x1 appears inside sin()): e1 computes x1, then e0 x0
    const g = bipartiteFromLists(2, [[0, 1], [1]]);
    const solvable = (e: number, v: number) => !(e === 0 && v === 1);
    const r = tearWithHints(g, solvable, [], []);
    if (!r.ok) throw new Error('expected ok');
    expect(Array.from(r.result.assignEqs)).toEqual([1, 0]);
    expect(Array.from(r.result.assignVars)).toEqual([1, 0]);
  });

  it('reports equations and variables left unmatched by the solvable incidences', () => {
    // as the good drive-train hints, but eq2 (-a1 + i*a2 = 0) declared not solvable for a1
    const solvable = (e: number, v: number) => !(e === 2 && v === 0);
    const r = tearWithHints(driveTrain, solvable, [1], [1]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map(plain)).toEqual([
      { kind: 'unmatched', eqs: [2], vars: [] }, // eq2 has nothing left it can compute
      { kind: 'unmatched', eqs: [0, 3], vars: [0, 2, 3] }, // a1, tau1, tau2 from only eq0 and eq3
    ]);
  });

  it('reports a count mismatch', () => {
    const r = tearWithHints(driveTrain, all, [1], []);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map(plain)).toEqual([{ kind: 'count-mismatch', eqs: [], vars: [1] }]);
  });

  it('rejects out-of-range or repeated hints', () => {
    expect(() => tearWithHints(driveTrain, all, [4], [0])).toThrow(RangeError);
    expect(() => tearWithHints(driveTrain, all, [1, 1], [0, 1])).toThrow(/twice/);
  });
});

// Borutzky & Cellier eq. 6, unknowns e1..e5 = 0..4, f1 = 5, f3 = 6, f5 = 7
const bondGraph = bipartiteFromLists(8, [
  [0, 5], // e1 = R1 f1
  [1, 5, 6], // e2 = R2 (f1 - f3)
  [2, 6], // e3 = R3 f3
  [3, 6, 7], // e4 = R4 (f3 - f5)
  [4, 7], // e5 = R5 f5
  [0, 1], // E = e1 + e2
  [1, 2, 3], // 0 = e2 - e3 - e4
  [3, 4], // eC = e4 - e5
]);

describe('tearHeuristic', () => {
  it('tears the Borutzky-Cellier bond-graph system with at most 3 (here: one) tear variables', () => {
    const r = tearHeuristic(bondGraph, all);
    expect(r.tearVars.length).toBeLessThanOrEqual(3);
    expect(causalViolations(bondGraph, all, r)).toEqual([]);
    expect(tearWithHints(bondGraph, all, r.tearVars, r.residueEqs).ok).toBe(true);
    // by hand: degrees 3 for e2, e4, f3 -> tear e2 (lowest id); propagation then reaches every unknown
    // and leaves eC = e4 - e5 as the residue
    expect(Array.from(r.tearVars)).toEqual([1]);
    expect(Array.from(r.residueEqs)).toEqual([7]);
  });

  it('tears the drive train with one variable', () => {
    const r = tearHeuristic(driveTrain, all);
    expect(r.tearVars.length).toBe(1);
    expect(tearWithHints(driveTrain, all, r.tearVars, r.residueEqs).ok).toBe(true);
  });

  it('always validates through tearWithHints on random sparse nonsingular blocks', () => {
    const rand = rng(9);
    let blocks = 0;
    for (let t = 0; t < 150; t++) {
      const g = randomPerfect(rand, 2 + randInt(rand, 120), 1 + randInt(rand, 2));
      const m = maximumMatching(g);
      const blt = bltBlocks(g, m);
      const share = t % 3 === 0 ? 1 : 0.6 + 0.3 * rand();
      const salt = randInt(rand, 1 << 30);
      for (let b = 0; b + 1 < blt.blockStart.length; b++) {
        const eqs = blt.order.subarray(blt.blockStart[b], blt.blockStart[b + 1]);
        if (eqs.length < 2) continue;
        const block = subgraph(
          g,
          eqs,
          eqs.map((e) => m.eqToVar[e]),
        ).graph;
        checkHeuristic(block, hashedSolvable(salt, share));
        blocks++;
      }
      checkHeuristic(g, hashedSolvable(salt, share)); // whole (reducible) systems too
    }
    expect(blocks).toBeGreaterThan(100);
  });

  it('copes with empty equations, non-square input and a 200000-equation loop', () => {
    const r = tearHeuristic(bipartiteFromLists(2, [[], [0, 1]]), all);
    expect(r.tearVars.length).toBe(r.residueEqs.length);
    expect(() => tearHeuristic(bipartiteFromLists(2, [[0, 1]]), all)).toThrow(RangeError);
    const n = 200_000;
    const cycle = bipartiteFromLists(
      n,
      Array.from({ length: n }, (_, i) => [i, (i + 1) % n]),
    );
    const big = tearHeuristic(cycle, all);
    expect(big.tearVars.length).toBe(1);
    expect(tearWithHints(cycle, all, big.tearVars, big.residueEqs).ok).toBe(true);
  });
});

// (salt, share) => deterministic pseudo-random solvable predicate with about `share` solvable incidences
function hashedSolvable(salt: number, share: number): (e: number, v: number) => boolean {
  return (e, v) => {
    let h = Math.imul(e ^ salt, 0x9e3779b1) ^ Math.imul(v + 0x7f4a7c15, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    return ((h ^ (h >>> 13)) >>> 0) / 4294967296 < share;
  };
}

// (block, solvable) => assertions that the heuristic's tearing is valid and never larger than the block
function checkHeuristic(block: Bipartite, solvable: (e: number, v: number) => boolean): void {
  const r = tearHeuristic(block, solvable);
  expect(r.tearVars.length).toBe(r.residueEqs.length);
  expect(r.tearVars.length).toBeLessThanOrEqual(block.nVar);
  expect(causalViolations(block, solvable, r)).toEqual([]);
  const check = tearWithHints(block, solvable, r.tearVars, r.residueEqs);
  if (!check.ok) throw new Error(`heuristic tearing rejected: ${JSON.stringify(check.problems)}`);
  expect(Array.from(check.result.assignVars).sort((a, b) => a - b)).toEqual(Array.from(r.assignVars).sort((a, b) => a - b));
}
