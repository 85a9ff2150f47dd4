// structure/graph: the bipartite incidence graph (equations x variables) that
// every structural pass works on, its construction, induced subgraphs, and a
// readable incidence-matrix printout.
//
// Glossary
//   eq, var       integer ids: equations 0..nEq-1, variables 0..nVar-1
//   incidence     an (eq, var) pair: the variable occurs in the equation
//   row           the sorted, duplicate-free variable list of one equation
//   CSR           compressed sparse rows: the neighbours of row r are
//                 adj[start[r] .. start[r+1]); start has one entry more than rows
//   transpose     the same incidences seen from the variables (varStart/varAdj)
//   local/global  ids inside a subgraph vs. ids in the graph it was cut from
//   UNASSIGNED    -1, the single sentinel for "no partner / not visited"

export const UNASSIGNED = -1;

/** Bipartite incidence graph in CSR form, both directions. Equations 0..nEq-1, variables 0..nVar-1. */
export interface Bipartite {
  nEq: number;
  nVar: number;
  eqStart: Int32Array;
  eqAdj: Int32Array;
  varStart: Int32Array;
  varAdj: Int32Array;
}

// (nVar, variable list per equation) => Bipartite with sorted, duplicate-free rows
export function bipartiteFromLists(nVar: number, eqVars: ArrayLike<number>[]): Bipartite {
  const nEq = eqVars.length;
  const start = new Int32Array(nEq + 1);
  for (let e = 0; e < nEq; e++) start[e + 1] = start[e] + eqVars[e].length;
  const adj = new Int32Array(start[nEq]);
  for (let e = 0; e < nEq; e++) {
    const row = eqVars[e];
    const at = start[e];
    for (let k = 0; k < row.length; k++) adj[at + k] = checkId(row[k], nVar, 'variable');
  }
  return bipartiteFromCsr(nVar, start, adj);
}

// (nVar, equation rows in CSR, unsorted and possibly repeated) => Bipartite; inputs are not modified
export function bipartiteFromCsr(nVar: number, start: ArrayLike<number>, adj: ArrayLike<number>): Bipartite {
  if (!Number.isInteger(nVar) || nVar < 0) throw new RangeError(`nVar must be a non-negative integer, got ${nVar}`);
  const nEq = start.length - 1;
  if (nEq < 0) throw new RangeError('CSR start array must have at least one entry');
  const rows = Int32Array.from(adj, (v) => checkId(v, nVar, 'variable'));
  const { eqStart, eqAdj } = sortDedupeRows(nEq, start, rows);
  const { varStart, varAdj } = transpose(nEq, nVar, eqStart, eqAdj);
  return { nEq, nVar, eqStart, eqAdj, varStart, varAdj };
}

// (id, bound, what) => id, or RangeError when id is not an integer in 0..bound-1
function checkId(id: number, bound: number, what: string): number {
  if (!Number.isInteger(id) || id < 0 || id >= bound) {
    throw new RangeError(`${what} id ${id} out of range 0..${bound - 1}`);
  }
  return id;
}

// (nEq, start, rows) => rows sorted ascending and deduplicated, compacted into a fresh CSR; `rows` is sorted in place
function sortDedupeRows(nEq: number, start: ArrayLike<number>, rows: Int32Array) {
  const eqStart = new Int32Array(nEq + 1);
  let w = 0;
  for (let e = 0; e < nEq; e++) {
    const a = start[e];
    const b = start[e + 1];
    if (!(a <= b) || b > rows.length) throw new RangeError(`CSR start array is not monotone at row ${e}`);
    sortRange(rows, a, b);
    for (let k = a; k < b; k++) {
      if (k === a || rows[k] !== rows[k - 1]) rows[w++] = rows[k];
    }
    eqStart[e + 1] = w;
  }
  return { eqStart, eqAdj: rows.slice(0, w) };
}

// (array, a, b) => array[a..b) sorted ascending in place; insertion sort for short rows
function sortRange(x: Int32Array, a: number, b: number): void {
  if (b - a > 16) {
    x.subarray(a, b).sort();
    return;
  }
  for (let i = a + 1; i < b; i++) {
    const v = x[i];
    let j = i - 1;
    while (j >= a && x[j] > v) {
      x[j + 1] = x[j];
      j--;
    }
    x[j + 1] = v;
  }
}

// (equation CSR) => variable CSR; rows come out ascending because equations are visited in id order
function transpose(nEq: number, nVar: number, eqStart: Int32Array, eqAdj: Int32Array) {
  const varStart = new Int32Array(nVar + 1);
  for (let k = 0; k < eqAdj.length; k++) varStart[eqAdj[k] + 1]++;
  for (let v = 0; v < nVar; v++) varStart[v + 1] += varStart[v];
  const fill = varStart.slice(0, nVar);
  const varAdj = new Int32Array(eqAdj.length);
  for (let e = 0; e < nEq; e++) {
    for (let k = eqStart[e]; k < eqStart[e + 1]; k++) varAdj[fill[eqAdj[k]]++] = e;
  }
  return { varStart, varAdj };
}

// (graph, global eqs, global vars) => induced subgraph with local ids = positions in eqs/vars, plus the local->global maps
export function subgraph(g: Bipartite, eqs: ArrayLike<number>, vars: ArrayLike<number>): { graph: Bipartite; eqs: Int32Array; vars: Int32Array } {
  const eqIds = Int32Array.from(eqs, (e) => checkId(e, g.nEq, 'equation'));
  const varIds = Int32Array.from(vars, (v) => checkId(v, g.nVar, 'variable'));
  localIndex(eqIds, g.nEq, 'equation');
  const toLocal = localIndex(varIds, g.nVar, 'variable');
  const start = new Int32Array(eqIds.length + 1);
  const adj: number[] = [];
  for (let i = 0; i < eqIds.length; i++) {
    const e = eqIds[i];
    for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) {
      const lv = toLocal(g.eqAdj[k]);
      if (lv !== UNASSIGNED) adj.push(lv);
    }
    start[i + 1] = adj.length;
  }
  return { graph: bipartiteFromCsr(varIds.length, start, adj), eqs: eqIds, vars: varIds };
}

// (global ids, id bound) => global->local lookup (UNASSIGNED when absent); RangeError on duplicates.
// Small id sets use a Map so that cutting many small blocks from a big graph stays linear overall.
function localIndex(ids: Int32Array, bound: number, what: string): (id: number) => number {
  const dup = (id: number) => new RangeError(`${what} id ${id} listed twice`);
  if (ids.length * 16 < bound) {
    const map = new Map<number, number>();
    ids.forEach((id, i) => {
      if (map.has(id)) throw dup(id);
      map.set(id, i);
    });
    return (id) => map.get(id) ?? UNASSIGNED;
  }
  const table = new Int32Array(bound).fill(UNASSIGNED);
  ids.forEach((id, i) => {
    if (table[id] !== UNASSIGNED) throw dup(id);
    table[id] = i;
  });
  return (id) => table[id];
}

// (graph, names, optional matching) => incidence matrix text: rows = equations, columns = variables,
// '1' incidence, '[1]' matched incidence, '.' none. Missing names print as e<id> / v<id>.
export function printIncidence(g: Bipartite, eqNames: string[], varNames: string[], eqToVar?: Int32Array): string {
  const rowName = (e: number) => eqNames[e] ?? `e${e}`;
  const colName = (v: number) => varNames[v] ?? `v${v}`;
  let labelWidth = 0;
  for (let e = 0; e < g.nEq; e++) labelWidth = Math.max(labelWidth, rowName(e).length);
  let cellWidth = 3;
  for (let v = 0; v < g.nVar; v++) cellWidth = Math.max(cellWidth, colName(v).length);
  const line = (label: string, cells: string[]) => (label.padEnd(labelWidth) + cells.map((c) => ' ' + c.padStart(cellWidth)).join('')).trimEnd();
  const lines = [
    line(
      '',
      Array.from({ length: g.nVar }, (_, v) => colName(v)),
    ),
  ];
  for (let e = 0; e < g.nEq; e++) {
    const cells = new Array<string>(g.nVar).fill('.');
    for (let k = g.eqStart[e]; k < g.eqStart[e + 1]; k++) {
      const v = g.eqAdj[k];
      cells[v] = eqToVar !== undefined && eqToVar[e] === v ? '[1]' : '1';
    }
    lines.push(line(rowName(e), cells));
  }
  return lines.join('\n');
}
