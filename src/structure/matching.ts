// structure/matching: maximum-cardinality bipartite matching (which equation
// computes which variable), by Hopcroft-Karp after a greedy start.
//
// Glossary
//   matching      incidences no two of which share an eq or a var;
//                 eqToVar / varToEq are its two views, UNASSIGNED = no partner
//   free          an eq or var without partner
//   augmenting    an alternating path free eq -> var -> its eq -> var ... -> free var;
//   path          flipping it grows the matching by one
//   layer (dist)  BFS distance, counted in eqs, from the free eqs along alternating paths
//   phase         one BFS layering + a maximal set of disjoint shortest augmenting paths
//   cursor        per-eq position in its row: each edge is tried at most once per phase
//   dead          an eq whose layer was set to INF: no augmenting path through it this phase

import { type Bipartite, UNASSIGNED } from './graph.ts';

export interface Matching {
  eqToVar: Int32Array;
  varToEq: Int32Array;
  size: number;
}

const INF = 0x7fffffff;

/** per-phase scratch arrays, allocated once per call */
interface Work {
  dist: Int32Array;
  queue: Int32Array;
  cursor: Int32Array;
  stackEq: Int32Array;
  stackVar: Int32Array;
}

// (graph) => maximum matching; O(E sqrt(V)) worst case, near-linear on sparse graphs; no recursion
export function maximumMatching(g: Bipartite): Matching {
  const eqToVar = new Int32Array(g.nEq).fill(UNASSIGNED);
  const varToEq = new Int32Array(g.nVar).fill(UNASSIGNED);
  const m: Matching = { eqToVar, varToEq, size: greedy(g, eqToVar, varToEq) };
  const n = g.nEq;
  const work: Work = {
    dist: new Int32Array(n),
    queue: new Int32Array(n),
    cursor: new Int32Array(n),
    stackEq: new Int32Array(n + 1),
    stackVar: new Int32Array(n + 1),
  };
  const most = Math.min(g.nEq, g.nVar);
  while (m.size < most) {
    const limit = layer(g, m, work);
    if (limit === INF) break;
    const found = phase(g, m, work);
    if (found === 0) break;
    m.size += found;
  }
  return m;
}

// (graph) => size of a greedy matching written into eqToVar/varToEq: each eq, in id order, takes its lowest free var
function greedy(g: Bipartite, eqToVar: Int32Array, varToEq: Int32Array): number {
  let size = 0;
  for (let e = 0; e < g.nEq; e++) {
    for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) {
      const v = g.eqAdj[k];
      if (varToEq[v] === UNASSIGNED) {
        eqToVar[e] = v;
        varToEq[v] = e;
        size++;
        break;
      }
    }
  }
  return size;
}

// (graph, matching) => work.dist = BFS layers from the free eqs; returns the length (in eqs) of the
// shortest augmenting path, INF when there is none
function layer(g: Bipartite, m: Matching, work: Work): number {
  const { dist, queue } = work;
  let tail = 0;
  for (let e = 0; e < g.nEq; e++) {
    if (m.eqToVar[e] === UNASSIGNED) {
      dist[e] = 0;
      queue[tail++] = e;
    } else dist[e] = INF;
  }
  let limit = INF;
  for (let head = 0; head < tail; head++) {
    const e = queue[head];
    if (dist[e] + 1 >= limit) continue;
    for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) {
      const next = m.varToEq[g.eqAdj[k]];
      if (next === UNASSIGNED) limit = Math.min(limit, dist[e] + 1);
      else if (dist[next] === INF) {
        dist[next] = dist[e] + 1;
        queue[tail++] = next;
      }
    }
  }
  return limit;
}

// (graph, matching, layers) => number of augmentations along disjoint layered paths, applied to the matching
function phase(g: Bipartite, m: Matching, work: Work): number {
  work.cursor.set(g.eqStart.subarray(0, g.nEq));
  let found = 0;
  for (let root = 0; root < g.nEq; root++) {
    if (m.eqToVar[root] === UNASSIGNED && work.dist[root] === 0 && augmentFrom(root, g, m, work)) found++;
  }
  return found;
}

// (root, graph, matching, layers) => true and the matching flipped along one layered path from root,
// or false with every eq that proved useless marked dead. Iterative DFS over an explicit stack.
function augmentFrom(root: number, g: Bipartite, m: Matching, work: Work): boolean {
  const { dist, cursor, stackEq, stackVar } = work;
  let top = 0;
  stackEq[0] = root;
  while (top >= 0) {
    const e = stackEq[top];
    const end = g.eqStart[e + 1];
    let descended = false;
    while (cursor[e] < end) {
      const v = g.eqAdj[cursor[e]++];
      const next = m.varToEq[v];
      if (next === UNASSIGNED) {
        flip(m, work, top, v);
        return true;
      }
      if (dist[next] === dist[e] + 1) {
        stackVar[top] = v;
        stackEq[++top] = next;
        descended = true;
        break;
      }
    }
    if (!descended) {
      dist[e] = INF;
      top--;
    }
  }
  return false;
}

// (matching, stack of path eqs 0..top and the vars between them, free var) => matching flipped along the path;
// the path's eqs are marked dead so that paths found in one phase stay vertex-disjoint
function flip(m: Matching, work: Work, top: number, freeVar: number): void {
  for (let k = top; k >= 0; k--) {
    const e = work.stackEq[k];
    const v = k === top ? freeVar : work.stackVar[k];
    m.eqToVar[e] = v;
    m.varToEq[v] = e;
    work.dist[e] = INF;
  }
}
