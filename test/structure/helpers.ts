// Shared test helpers for the structural passes: a seeded RNG, random graph
// generators and independent (deliberately simple) oracles.
//
// Glossary
//   oracle      a slow but obviously correct reference implementation
//   perfect     a graph built around a random permutation, so a perfect matching exists

import { type Bipartite, UNASSIGNED, bipartiteFromLists } from '../../src/structure/graph.ts';
import type { Matching } from '../../src/structure/matching.ts';
import type { TearingResult } from '../../src/structure/tearing.ts';

// (seed) => deterministic uniform generator on [0, 1) (mulberry32)
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// (rand, n) => integer in 0..n-1
export function randInt(rand: () => number, n: number): number {
  return Math.floor(rand() * n);
}

// (rand, n) => random permutation of 0..n-1 (Fisher-Yates)
export function permutation(rand: () => number, n: number): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randInt(rand, i + 1);
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

// (rand, nEq, nVar, density) => random lists, each incidence present with probability density
export function randomLists(rand: () => number, nEq: number, nVar: number, density: number): number[][] {
  return Array.from({ length: nEq }, () => {
    const row: number[] = [];
    for (let v = 0; v < nVar; v++) if (rand() < density) row.push(v);
    return row;
  });
}

// (rand, n, extras) => square graph with a perfect matching: eq i holds var perm[i] plus `extras` random vars
export function randomPerfect(rand: () => number, n: number, extras: number): Bipartite {
  const perm = permutation(rand, n);
  const lists = perm.map((v) => {
    const row = [v];
    for (let k = 0; k < extras; k++) row.push(randInt(rand, n));
    return row;
  });
  return bipartiteFromLists(n, lists);
}

// (graph) => maximum matching by plain augmenting-path search, one BFS per equation (O(V E) oracle)
export function oracleMatching(g: Bipartite): Matching {
  const eqToVar = new Int32Array(g.nEq).fill(UNASSIGNED);
  const varToEq = new Int32Array(g.nVar).fill(UNASSIGNED);
  let size = 0;
  for (let root = g.nEq - 1; root >= 0; root--) {
    // BFS over vars; parentEq[v] = the eq from which v was reached
    const parentEq = new Int32Array(g.nVar).fill(UNASSIGNED);
    const queue = [root];
    let free = UNASSIGNED;
    for (let head = 0; head < queue.length && free === UNASSIGNED; head++) {
      const e = queue[head];
      for (let k = g.eqStart[e + 1] - 1; k >= g.eqStart[e]; k--) {
        const v = g.eqAdj[k];
        if (parentEq[v] !== UNASSIGNED) continue;
        parentEq[v] = e;
        if (varToEq[v] === UNASSIGNED) {
          free = v;
          break;
        }
        queue.push(varToEq[v]);
      }
    }
    if (free === UNASSIGNED) continue;
    for (let v = free; v !== UNASSIGNED;) {
      const e = parentEq[v];
      const prev = eqToVar[e];
      eqToVar[e] = v;
      varToEq[v] = e;
      v = prev;
    }
    size++;
  }
  return { eqToVar, varToEq, size };
}

// (graph) => maximum matching size by exhaustive DP over subsets of used variables (nVar <= ~12)
export function bruteForceMatchingSize(g: Bipartite): number {
  let best = new Map<number, number>([[0, 0]]);
  for (let e = 0; e < g.nEq; e++) {
    const next = new Map(best);
    for (const [mask, size] of best) {
      for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) {
        const bit = 1 << g.eqAdj[k];
        if (mask & bit) continue;
        next.set(mask | bit, Math.max(next.get(mask | bit) ?? 0, size + 1));
      }
    }
    best = next;
  }
  return Math.max(...best.values());
}

// (graph, matching) => list of violations (empty when valid and consistent)
export function matchingViolations(g: Bipartite, m: Matching): string[] {
  const bad: string[] = [];
  let size = 0;
  for (let e = 0; e < g.nEq; e++) {
    const v = m.eqToVar[e];
    if (v === UNASSIGNED) continue;
    size++;
    const row = Array.from(g.eqAdj.subarray(g.eqStart[e], g.eqStart[e + 1]));
    if (!row.includes(v)) bad.push(`eq ${e} matched to var ${v} it does not contain`);
    if (m.varToEq[v] !== e) bad.push(`var ${v} does not point back to eq ${e}`);
  }
  for (let v = 0; v < g.nVar; v++) {
    const e = m.varToEq[v];
    if (e !== UNASSIGNED && m.eqToVar[e] !== v) bad.push(`eq ${e} does not point back to var ${v}`);
  }
  if (size !== m.size) bad.push(`size ${m.size} but ${size} matched eqs`);
  return bad;
}

// (block, solvable, result) => list of violations of the causal-sequence contract (empty when valid)
export function causalViolations(g: Bipartite, solvable: (eq: number, v: number) => boolean, r: TearingResult): string[] {
  const bad: string[] = [];
  const known = new Uint8Array(g.nVar);
  const usedEq = new Uint8Array(g.nEq);
  for (const v of r.tearVars) known[v]++;
  for (const e of r.residueEqs) usedEq[e]++;
  if (r.tearVars.length !== r.residueEqs.length) bad.push('|tearVars| != |residueEqs|');
  r.assignEqs.forEach((e, k) => {
    const v = r.assignVars[k];
    usedEq[e]++;
    if (known[v]) bad.push(`var ${v} computed twice`);
    for (let j = g.eqStart[e]; j < g.eqStart[e + 1]; j++) {
      const u = g.eqAdj[j];
      if (u !== v && !known[u]) bad.push(`eq ${e} uses var ${u} before it is known`);
    }
    if (!Array.from(g.eqAdj.subarray(g.eqStart[e], g.eqStart[e + 1])).includes(v)) bad.push(`eq ${e} lacks var ${v}`);
    else if (!solvable(e, v)) bad.push(`eq ${e} not solvable for var ${v}`);
    known[v] = 1;
  });
  for (let v = 0; v < g.nVar; v++) if (known[v] !== 1) bad.push(`var ${v} known ${known[v]} times`);
  for (let e = 0; e < g.nEq; e++) if (usedEq[e] !== 1) bad.push(`eq ${e} used ${usedEq[e]} times`);
  return bad;
}
