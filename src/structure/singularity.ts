// structure/singularity: which equations and variables make a system
// structurally singular (the coarse Dulmage-Mendelsohn decomposition).
//
// Glossary
//   maximum matching  a matching no augmenting path can grow (see matching.ts)
//   alternating reach from a free node: step to any neighbour across the graph, then back along
//                     that neighbour's matching edge, and so on
//   over-determined   free eqs and their alternating reach: more equations than variables
//                     (|overEqs| - |overVars| = number of free eqs)
//   under-determined  free vars and their alternating reach: more variables than equations
//                     (|underVars| - |underEqs| = number of free vars)
// For a maximum matching both parts are independent of which maximum matching was chosen.

import { type Bipartite, UNASSIGNED } from './graph.ts';
import type { Matching } from './matching.ts';

export interface SingularParts {
  overEqs: Int32Array;
  overVars: Int32Array;
  underEqs: Int32Array;
  underVars: Int32Array;
}

// (graph, maximum matching) => over- and under-determined parts, each id list ascending
export function singularParts(g: Bipartite, m: Matching): SingularParts {
  const over = alternatingReach(g.nEq, g.nVar, g.eqStart, g.eqAdj, m.eqToVar, m.varToEq);
  const under = alternatingReach(g.nVar, g.nEq, g.varStart, g.varAdj, m.varToEq, m.eqToVar);
  return { overEqs: over.from, overVars: over.to, underEqs: under.to, underVars: under.from };
}

// (side A with CSR rows into side B, matching both ways) => A and B nodes reachable from free A nodes by
// A -> any B neighbour -> its matched A partner -> ...; breadth-first with an explicit queue
function alternatingReach(
  nA: number,
  nB: number,
  start: Int32Array,
  adj: Int32Array,
  aToB: Int32Array,
  bToA: Int32Array,
): { from: Int32Array; to: Int32Array } {
  const seenA = new Uint8Array(nA);
  const seenB = new Uint8Array(nB);
  const queue = new Int32Array(nA);
  let tail = 0;
  for (let a = 0; a < nA; a++) {
    if (aToB[a] === UNASSIGNED) {
      seenA[a] = 1;
      queue[tail++] = a;
    }
  }
  for (let head = 0; head < tail; head++) {
    const a = queue[head];
    for (let k = start[a]; k < start[a + 1]; k++) {
      const b = adj[k];
      if (seenB[b]) continue;
      seenB[b] = 1;
      const next = bToA[b];
      if (next !== UNASSIGNED && !seenA[next]) {
        seenA[next] = 1;
        queue[tail++] = next;
      }
    }
  }
  return { from: idsOf(seenA), to: idsOf(seenB) };
}

// (0/1 marks) => ascending ids of the marked entries
function idsOf(marks: Uint8Array): Int32Array {
  let n = 0;
  for (let i = 0; i < marks.length; i++) n += marks[i];
  const ids = new Int32Array(n);
  let w = 0;
  for (let i = 0; i < marks.length; i++) if (marks[i]) ids[w++] = i;
  return ids;
}
