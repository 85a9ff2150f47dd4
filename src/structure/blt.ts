// structure/blt: block-lower-triangular ordering of a square system: the
// strongly connected components (algebraic loops) of the equation dependency
// graph, in solve order.
//
// Glossary
//   dependency    eq i -> eq j when eq i contains var v and v is matched to eq j:
//                 i needs v, which j computes, so j's block is solved first
//   block         a strongly connected component of that graph: equations that must be
//                 solved together (size 1 = explicit assignment, larger = algebraic loop)
//   solve order   every block after all blocks it depends on
//   Tarjan        index = DFS discovery number, low = smallest index reachable through the
//                 DFS subtree plus one back/cross edge into the open component stack;
//                 a node with low == index closes a component
//   cursor        per-eq position in its row, so the DFS resumes where it left off

import { type Bipartite, UNASSIGNED } from './graph.ts';
import type { Matching } from './matching.ts';

export interface Blt {
  /** equations in solve order */
  order: Int32Array;
  /** length nBlocks+1, block b = order[blockStart[b]..blockStart[b+1]) */
  blockStart: Int32Array;
}

// (graph, perfect matching) => blocks in BLT (solve) order, each block's equations ascending
export function bltBlocks(g: Bipartite, m: Matching): Blt {
  requirePerfect(g, m);
  const order = new Int32Array(g.nEq);
  const starts: number[] = [0];
  const tarjan = newTarjan(g.nEq);
  for (let root = 0; root < g.nEq; root++) {
    if (tarjan.index[root] === UNASSIGNED) strongComponents(root, g, m.varToEq, tarjan, order, starts);
  }
  const blockStart = Int32Array.from(starts);
  for (let b = 0; b + 1 < blockStart.length; b++) {
    if (blockStart[b + 1] - blockStart[b] > 1) order.subarray(blockStart[b], blockStart[b + 1]).sort();
  }
  return { order, blockStart };
}

// (graph, matching) => nothing, or RangeError unless the matching is perfect on a square graph
function requirePerfect(g: Bipartite, m: Matching): void {
  if (g.nEq !== g.nVar || m.size !== g.nEq || m.eqToVar.length !== g.nEq || m.varToEq.length !== g.nVar) {
    throw new RangeError(`bltBlocks needs a perfect matching on a square system; got ${g.nEq} equations, ` + `${g.nVar} variables, matching size ${m.size}`);
  }
}

/** Tarjan state shared across DFS roots */
interface Tarjan {
  index: Int32Array;
  low: Int32Array;
  onStack: Uint8Array;
  cursor: Int32Array;
  callStack: Int32Array;
  sccStack: Int32Array;
  counter: number;
  sccTop: number;
  written: number;
}

// (n) => fresh Tarjan state, every eq unvisited
function newTarjan(n: number): Tarjan {
  return {
    index: new Int32Array(n).fill(UNASSIGNED),
    low: new Int32Array(n),
    onStack: new Uint8Array(n),
    cursor: new Int32Array(n),
    callStack: new Int32Array(n),
    sccStack: new Int32Array(n),
    counter: 0,
    sccTop: 0,
    written: 0,
  };
}

// (root, graph, varToEq, state) => components reachable from root appended to order/starts, dependencies first.
// Iterative DFS: the call stack holds eqs, each eq's cursor remembers the next edge to try.
function strongComponents(root: number, g: Bipartite, varToEq: Int32Array, t: Tarjan, order: Int32Array, starts: number[]): void {
  let top = 0;
  t.callStack[0] = root;
  discover(root, g, t);
  while (top >= 0) {
    const e = t.callStack[top];
    if (t.cursor[e] < g.eqStart[e + 1]) {
      const next = varToEq[g.eqAdj[t.cursor[e]++]];
      if (t.index[next] === UNASSIGNED) {
        discover(next, g, t);
        t.callStack[++top] = next;
      } else if (t.onStack[next]) t.low[e] = Math.min(t.low[e], t.index[next]);
      continue;
    }
    top--;
    if (t.low[e] === t.index[e]) closeComponent(e, t, order, starts);
    if (top >= 0) {
      const parent = t.callStack[top];
      t.low[parent] = Math.min(t.low[parent], t.low[e]);
    }
  }
}

// (eq, state) => eq numbered, pushed on the component stack, cursor at its first edge
function discover(e: number, g: Bipartite, t: Tarjan): void {
  t.index[e] = t.low[e] = t.counter++;
  t.onStack[e] = 1;
  t.sccStack[t.sccTop++] = e;
  t.cursor[e] = g.eqStart[e];
}

// (component root, state) => the component (stack down to root) appended to order as one block
function closeComponent(rootEq: number, t: Tarjan, order: Int32Array, starts: number[]): void {
  let e: number;
  do {
    e = t.sccStack[--t.sccTop];
    t.onStack[e] = 0;
    order[t.written++] = e;
  } while (e !== rootEq);
  starts.push(t.written);
}
