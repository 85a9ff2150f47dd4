// structure/matching: maximum-cardinality bipartite matching (which equation
// computes which variable): a greedy start, then push-relabel with FIFO order,
// double pushes and periodic global relabeling (Goldberg & Kennedy 1995;
// Kaya, Langguth, Manne & Ucar 2013).
//
// Why not Hopcroft-Karp: long chains and rings of equations (a ring of k
// equations needs augmenting paths of length ~k) force it through many phases,
// each costing a full sweep of the graph: 1.8 s at 1e5 and 167 s at 1e6
// equations on bench/structure.ts, versus ~0.2 s and ~7 s here.
//
// Glossary
//   matching      incidences no two of which share an eq or a var;
//                 eqToVar / varToEq are its two views, UNASSIGNED = no partner
//   free          an eq or var without partner
//   alternating   var u -> the eq matched to u -> another var of that eq -> ...;
//   path          one from an eq to a free var lets the eq be matched (augmenting path)
//   label         per var, a lower bound on the number of vars on an alternating path to a
//                 free var (free vars: 0); >= nVar means no such path exists (UNREACHABLE)
//   active        a free eq waiting in the FIFO queue to be matched
//   double push   an active eq takes its lowest-labelled var; the eq that held the var becomes
//                 active; the var is relabelled to (second-lowest label in the row) + 1
//   global        a breadth-first search from the free vars that sets every label exactly;
//   relabel       run at the start and after every nEq pushes
// Invariant: for a var u matched to eq f, label[u] <= label[w] + 1 for every var w of f. Hence an
// eq whose vars are all UNREACHABLE has no augmenting path, now or later, and is dropped; when the
// queue is empty no augmenting path is left and the matching is maximum (Berge).

import { type Bipartite, UNASSIGNED } from './graph.ts';

export interface Matching {
  eqToVar: Int32Array;
  varToEq: Int32Array;
  size: number;
}

// (graph) => maximum matching; deterministic, iterative, near-linear on sparse systems in practice
export function maximumMatching(g: Bipartite): Matching {
  const eqToVar = new Int32Array(g.nEq).fill(UNASSIGNED);
  const varToEq = new Int32Array(g.nVar).fill(UNASSIGNED);
  const m: Matching = { eqToVar, varToEq, size: greedy(g, eqToVar, varToEq) };
  if (m.size < Math.min(g.nEq, g.nVar)) pushRelabel(g, m);
  return m;
}

/**
 * (graph, matching of a graph with the same equations and fewer or as many vars) => maximum
 * matching grown from it. Push-relabel only moves a matched var to another eq, it never frees
 * it, so every var matched in `start` stays matched: sorting uses this to match the inputs an
 * equation defines only where the unknowns alone leave equations over (sort.ts).
 */
export function growMatching(g: Bipartite, start: Matching): Matching {
  const eqToVar = Int32Array.from(start.eqToVar);
  const varToEq = new Int32Array(g.nVar).fill(UNASSIGNED);
  varToEq.set(start.varToEq.subarray(0, Math.min(start.varToEq.length, g.nVar)));
  const m: Matching = { eqToVar, varToEq, size: start.size };
  if (m.size < Math.min(g.nEq, g.nVar)) pushRelabel(g, m);
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

/** FIFO ring buffer of active eqs; each free eq is in it at most once */
interface Queue {
  items: Int32Array;
  head: number;
  count: number;
}

// (graph, matching) => matching grown to maximum
function pushRelabel(g: Bipartite, m: Matching): void {
  const label = new Int32Array(g.nVar);
  const scratch = new Int32Array(g.nVar);
  const queue: Queue = { items: new Int32Array(Math.max(g.nEq, 1)), head: 0, count: 0 };
  for (let e = 0; e < g.nEq; e++) if (m.eqToVar[e] === UNASSIGNED) enqueue(queue, e);
  globalRelabel(g, m, label, scratch);
  let sinceRelabel = 0;
  while (queue.count > 0) {
    if (sinceRelabel >= g.nEq) {
      globalRelabel(g, m, label, scratch);
      sinceRelabel = 0;
    }
    if (doublePush(dequeue(queue), g, m, label, queue)) sinceRelabel++;
  }
}

// (active eq, graph, matching, labels) => eq matched to its lowest-labelled var (ties: lowest id), the var's
// previous eq re-queued, the var relabelled; false (eq dropped) when every var of the eq is unreachable
function doublePush(e: number, g: Bipartite, m: Matching, label: Int32Array, queue: Queue): boolean {
  const unreachable = g.nVar;
  let best = UNASSIGNED;
  let low1 = unreachable;
  let low2 = unreachable;
  for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) {
    const l = label[g.eqAdj[k]];
    if (l < low1) {
      low2 = low1;
      low1 = l;
      best = g.eqAdj[k];
    } else if (l < low2) low2 = l;
  }
  if (low1 >= unreachable) return false;
  const previous = m.varToEq[best];
  m.eqToVar[e] = best;
  m.varToEq[best] = e;
  label[best] = Math.min(unreachable, low2 + 1);
  if (previous === UNASSIGNED) m.size++;
  else {
    m.eqToVar[previous] = UNASSIGNED;
    enqueue(queue, previous);
  }
  return true;
}

// (graph, matching) => exact labels: breadth-first from the free vars backwards along alternating paths
function globalRelabel(g: Bipartite, m: Matching, label: Int32Array, queue: Int32Array): void {
  label.fill(g.nVar);
  let tail = 0;
  for (let v = 0; v < g.nVar; v++) {
    if (m.varToEq[v] === UNASSIGNED) {
      label[v] = 0;
      queue[tail++] = v;
    }
  }
  for (let head = 0; head < tail; head++) {
    const w = queue[head];
    for (let k = g.varStart[w]; k < g.varStart[w + 1]; k++) {
      const u = m.eqToVar[g.varAdj[k]];
      if (u !== UNASSIGNED && label[u] === g.nVar) {
        label[u] = label[w] + 1;
        queue[tail++] = u;
      }
    }
  }
}

// (queue, eq) => eq appended
function enqueue(q: Queue, e: number): void {
  let at = q.head + q.count;
  if (at >= q.items.length) at -= q.items.length;
  q.items[at] = e;
  q.count++;
}

// (queue) => first eq, removed
function dequeue(q: Queue): number {
  const e = q.items[q.head];
  q.head = q.head + 1 === q.items.length ? 0 : q.head + 1;
  q.count--;
  return e;
}
