// structure/tearing: breaking one algebraic loop (a BLT block) into a few tear
// variables z, the same number of residue equations h, and a causal sequence
// that computes every other variable y explicitly from z.
//
// Glossary
//   block       one BLT block as a local square Bipartite (local ids 0..n-1)
//   solvable    solvable(eq, v): eq can be solved explicitly for v; only such incidences
//               may compute a non-tear variable
//   tear var z  a variable treated as known (iterated on by the solver)
//   residue h   an equation left over once everything else is computed; h(z) = 0 is solved for z
//   causal      assignEqs[k] computes assignVars[k] from tear vars and assignVars[0..k)
//   sequence    (lower triangular with solvable diagonal)
//   known       a variable that is torn or already assigned
//   unknowns    per-equation count of variables not yet known
//   ready       equations with exactly one unknown, taken lowest id first

import { type Bipartite, UNASSIGNED, bipartiteFromCsr, subgraph } from './graph.ts';
import { type Matching, maximumMatching } from './matching.ts';
import { bltBlocks } from './blt.ts';
import { singularParts } from './singularity.ts';

export interface TearingResult {
  tearVars: Int32Array;
  residueEqs: Int32Array;
  /** the causal sequence computing the other variables, in order */
  assignEqs: Int32Array;
  assignVars: Int32Array;
}

/** what is left coupled */
export interface TearingLoop {
  eqs: Int32Array;
  vars: Int32Array;
}

export type TearingProblem = TearingLoop & { kind: 'loop' | 'unmatched' | 'count-mismatch' };

type Solvable = (eq: number, v: number) => boolean;

// (block, solvable, tearVars, residueEqs) => causal sequence, or the loops the hints leave.
// Matching over the solvable incidences of (E\h) x (V\z) picks who computes what; BLT over *all* incidences
// of (E\h) x (V\z) then checks that the sequence is triangular (a non-solvable occurrence is still a dependency).
export function tearWithHints(
  block: Bipartite,
  solvable: Solvable,
  tearVars: ArrayLike<number>,
  residueEqs: ArrayLike<number>,
): { ok: true; result: TearingResult } | { ok: false; problems: TearingProblem[] } {
  const z = marksOf(tearVars, block.nVar, 'tear variable');
  const h = marksOf(residueEqs, block.nEq, 'residue equation');
  if (tearVars.length !== residueEqs.length || block.nEq !== block.nVar) {
    const problem = { kind: 'count-mismatch' as const, eqs: Int32Array.from(residueEqs), vars: Int32Array.from(tearVars) };
    return { ok: false, problems: [problem] };
  }
  const rest = subgraph(block, unmarked(h), unmarked(z));
  const causal = solvableOnly(rest.graph, (e, v) => solvable(rest.eqs[e], rest.vars[v]));
  const m = maximumMatching(causal);
  if (m.size < rest.eqs.length) return { ok: false, problems: unmatchedProblems(causal, m, rest) };
  const blt = bltBlocks(rest.graph, m);
  const loops = loopProblems(blt.order, blt.blockStart, m, rest);
  if (loops.length > 0) return { ok: false, problems: loops };
  const assignEqs = blt.order.map((e) => rest.eqs[e]);
  const assignVars = blt.order.map((e) => rest.vars[m.eqToVar[e]]);
  const result = { tearVars: Int32Array.from(tearVars), residueEqs: Int32Array.from(residueEqs), assignEqs, assignVars };
  return { ok: true, result };
}

// (ids, bound, what) => 0/1 membership marks; RangeError on out-of-range or repeated ids
function marksOf(ids: ArrayLike<number>, bound: number, what: string): Uint8Array {
  const marks = new Uint8Array(bound);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id >= bound) throw new RangeError(`${what} ${id} out of range 0..${bound - 1}`);
    if (marks[id]) throw new RangeError(`${what} ${id} listed twice`);
    marks[id] = 1;
  }
  return marks;
}

// (marks) => ascending ids not marked
function unmarked(marks: Uint8Array): Int32Array {
  const ids: number[] = [];
  for (let i = 0; i < marks.length; i++) if (!marks[i]) ids.push(i);
  return Int32Array.from(ids);
}

// (graph, keep(eq, var)) => same ids, only the incidences kept
function solvableOnly(g: Bipartite, keep: Solvable): Bipartite {
  const start = new Int32Array(g.nEq + 1);
  const adj: number[] = [];
  for (let e = 0; e < g.nEq; e++) {
    for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) if (keep(e, g.eqAdj[k])) adj.push(g.eqAdj[k]);
    start[e + 1] = adj.length;
  }
  return bipartiteFromCsr(g.nVar, start, adj);
}

/** local -> block id maps of the remaining system */
interface Rest {
  eqs: Int32Array;
  vars: Int32Array;
}

// (solvable graph, non-perfect maximum matching, rest) => over- and under-determined parts as 'unmatched', in block ids
function unmatchedProblems(causal: Bipartite, m: Matching, rest: Rest): TearingProblem[] {
  const p = singularParts(causal, m);
  const parts = [
    { eqs: p.overEqs, vars: p.overVars },
    { eqs: p.underEqs, vars: p.underVars },
  ];
  return parts
    .filter((q) => q.eqs.length + q.vars.length > 0)
    .map((q) => ({ kind: 'unmatched' as const, eqs: q.eqs.map((e) => rest.eqs[e]), vars: q.vars.map((v) => rest.vars[v]) }));
}

// (BLT, matching, rest) => every block larger than one as a 'loop', in block ids, each id list ascending
function loopProblems(order: Int32Array, blockStart: Int32Array, m: Matching, rest: Rest): TearingProblem[] {
  const loops: TearingProblem[] = [];
  for (let b = 0; b + 1 < blockStart.length; b++) {
    const eqs = order.subarray(blockStart[b], blockStart[b + 1]);
    if (eqs.length < 2) continue;
    const vars = eqs.map((e) => rest.vars[m.eqToVar[e]]).sort();
    loops.push({ kind: 'loop', eqs: eqs.map((e) => rest.eqs[e]), vars });
  }
  return loops;
}

/** mutable state of the greedy causalisation */
interface Causal {
  unknowns: Int32Array;
  known: Uint8Array;
  eqState: Uint8Array;
  ready: IdHeap;
  assignEqs: number[];
  assignVars: number[];
  residue: number[];
  tear: number[];
}

const OPEN = 0;
const ASSIGNED = 1;
const RESIDUE = 2;

// (square block, solvable) => tear vars, residue eqs (both ascending) and causal sequence.
// Greedy causalisation: assign ready equations (lowest id first) while possible; when stuck, tear the
// unknown variable occurring in the most not-yet-assigned equations (ties: lowest id). An equation that
// contains an unknown can only be assigned to that very variable, so for unknown variables this count is
// their static degree: one degree ordering replaces a priority queue. Equations whose unknowns run out
// become residues; since every eq ends assigned or residue and every var assigned or torn, a square block
// always yields |tearVars| == |residueEqs|.
//
// torn: variables torn before anything else. The tearing paper's loop closure names the tearing
// variables (q, qd of the tree joints) but not their residue equations ("select as tearing
// variables those that residue() has been used on"); sorting may also split a loop over several
// smaller blocks. Each block tears its own named variables, its residues are whatever is left,
// and the greedy rule tears more only if they do not suffice.
export function tearHeuristic(block: Bipartite, solvable: Solvable, torn: ArrayLike<number> = []): TearingResult {
  if (block.nEq !== block.nVar) {
    throw new RangeError(`tearHeuristic needs a square block, got ${block.nEq} equations and ${block.nVar} variables`);
  }
  const s = initCausal(block);
  marksOf(torn, block.nVar, 'torn variable');
  for (let i = 0; i < torn.length; i++) {
    s.tear.push(torn[i]);
    makeKnown(torn[i], block, s);
  }
  const byDegree = varsByDegree(block);
  let next = 0;
  for (;;) {
    propagate(block, solvable, s);
    while (next < byDegree.length && s.known[byDegree[next]]) next++;
    if (next === byDegree.length) break;
    s.tear.push(byDegree[next]);
    makeKnown(byDegree[next], block, s);
  }
  return {
    tearVars: Int32Array.from(s.tear).sort(),
    residueEqs: Int32Array.from(s.residue).sort(),
    assignEqs: Int32Array.from(s.assignEqs),
    assignVars: Int32Array.from(s.assignVars),
  };
}

// (block) => causalisation state with every variable unknown; empty equations are residues at once
function initCausal(g: Bipartite): Causal {
  const s: Causal = {
    unknowns: new Int32Array(g.nEq),
    known: new Uint8Array(g.nVar),
    eqState: new Uint8Array(g.nEq),
    ready: new IdHeap(g.nEq),
    assignEqs: [],
    assignVars: [],
    residue: [],
    tear: [],
  };
  for (let e = 0; e < g.nEq; e++) {
    s.unknowns[e] = g.eqStart[e + 1] - g.eqStart[e];
    if (s.unknowns[e] === 1) s.ready.push(e);
    else if (s.unknowns[e] === 0) settleResidue(e, s);
  }
  return s;
}

// (block) => variables by degree descending, ties by id ascending (counting sort, linear)
function varsByDegree(g: Bipartite): Int32Array {
  let maxDeg = 0;
  for (let v = 0; v < g.nVar; v++) maxDeg = Math.max(maxDeg, g.varStart[v + 1] - g.varStart[v]);
  const slot = new Int32Array(maxDeg + 2);
  for (let v = 0; v < g.nVar; v++) slot[maxDeg - (g.varStart[v + 1] - g.varStart[v]) + 1]++;
  for (let d = 0; d <= maxDeg; d++) slot[d + 1] += slot[d];
  const out = new Int32Array(g.nVar);
  for (let v = 0; v < g.nVar; v++) out[slot[maxDeg - (g.varStart[v + 1] - g.varStart[v])]++] = v;
  return out;
}

// (block, solvable, state) => every ready equation that is solvable for its last unknown assigned, lowest id first
function propagate(g: Bipartite, solvable: Solvable, s: Causal): void {
  while (s.ready.size > 0) {
    const e = s.ready.pop();
    if (s.eqState[e] !== OPEN || s.unknowns[e] !== 1) continue;
    const v = lastUnknown(g, e, s.known);
    if (!solvable(e, v)) continue;
    s.eqState[e] = ASSIGNED;
    s.assignEqs.push(e);
    s.assignVars.push(v);
    makeKnown(v, g, s);
  }
}

// (block, eq, known marks) => the eq's only unknown variable
function lastUnknown(g: Bipartite, e: number, known: Uint8Array): number {
  for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) if (!known[g.eqAdj[k]]) return g.eqAdj[k];
  return UNASSIGNED;
}

// (var, block, state) => var known; open equations containing it lose an unknown and may become ready or residue
function makeKnown(v: number, g: Bipartite, s: Causal): void {
  s.known[v] = 1;
  for (let k = g.varStart[v]; k < g.varStart[v + 1]; k++) {
    const e = g.varAdj[k];
    if (s.eqState[e] !== OPEN) continue;
    const left = --s.unknowns[e];
    if (left === 1) s.ready.push(e);
    else if (left === 0) settleResidue(e, s);
  }
}

// (eq, state) => eq recorded as residue
function settleResidue(e: number, s: Causal): void {
  s.eqState[e] = RESIDUE;
  s.residue.push(e);
}

/** binary min-heap of non-negative integer ids with fixed capacity */
class IdHeap {
  private readonly heap: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.heap = new Int32Array(capacity);
  }
  // (id) => id inserted
  push(id: number): void {
    const h = this.heap;
    let i = this.size++;
    while (i > 0 && h[(i - 1) >> 1] > id) {
      h[i] = h[(i - 1) >> 1];
      i = (i - 1) >> 1;
    }
    h[i] = id;
  }
  // () => smallest id, removed
  pop(): number {
    const h = this.heap;
    const top = h[0];
    const last = h[--this.size];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && h[c + 1] < h[c]) c++;
      if (h[c] >= last) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = last;
    return top;
  }
}
