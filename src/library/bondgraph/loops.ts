// The section-4 heuristic of the bond graph paper: find the algebraic loops
// between resistive ports and pick a few ports whose residual sinks break
// them all.
//
//   (bond graph sketch) => causality (SCAP) => algebraic loop matrix (Table 1)
//   (loop matrix) => ports to cut: repeatedly remove the row and column with the
//                    most entries (first on ties) until no entry is left
//
// Glossary
//   sketch      elements (Se, Sf, C, I, R one-ports; 0/1 junctions) and bonds between them
//   effortFrom  per bond, the node that computes its effort (causal stroke at the other end)
//   strong bond at a 0-junction the one bond bringing the effort in; at a 1-junction
//               the one bond bringing the flow in (effortFrom = the junction)
//   resistive   R computes e from f (effortFrom = R); conductive: f from e
//   ZCP         causal one-way path from an R's output to another R's input,
//               through junctions only; an entry (i, j) of the loop matrix
// Causality: sources and integral storages first, then the first unassigned R
// is made resistive, propagating after each step (SCAP, [10] of the paper).

/** a bond graph element's kind: sources, storages, resistor and junctions */
export type SketchKind = 'Se' | 'Sf' | 'C' | 'I' | 'R' | '0' | '1';

/** a bond graph's elements and bonds, for the causality and tearing analysis (no equations) */
export interface BondGraphSketch {
  /** its elements, each named once */
  readonly elements: readonly {
    /** the name bonds refer to */
    readonly name: string;
    /** which element it is */
    readonly kind: SketchKind;
  }[];
  /** bonds between elements by name; orientation does not matter for causality */
  readonly bonds: readonly (readonly [string, string])[];
}

/** the algebraic loop matrix: which resistive ports a causal path links */
export interface LoopMatrix {
  /** resistive ports (R elements) in declaration order: row/column k is ports[k] */
  readonly ports: readonly string[];
  /** symmetric; entries[i][j] when a causal path links ports i and j */
  readonly entries: readonly (readonly boolean[])[];
}

const UNSET = -1;

// (sketch) => bond ends as node indices and each node's incident bonds
function index(g: BondGraphSketch): { ends: [number, number][]; incident: number[][] } {
  const id = new Map(g.elements.map((e, k) => [e.name, k]));
  const node = (n: string) => {
    const k = id.get(n);
    if (k === undefined) throw new Error(`bond to unknown element ${n}`);
    return k;
  };
  const ends = g.bonds.map(([a, b]) => [node(a), node(b)] as [number, number]);
  const incident: number[][] = g.elements.map(() => []);
  ends.forEach(([a, b], k) => (incident[a].push(k), incident[b].push(k)));
  g.elements.forEach((e, k) => {
    if (e.kind !== '0' && e.kind !== '1' && incident[k].length !== 1) throw new Error(`${e.name} must have exactly one bond`);
  });
  return { ends, incident };
}

/** (sketch) => effortFrom per bond, by the sequential causality assignment procedure */
export function assignCausality(g: BondGraphSketch): Int32Array {
  const { ends, incident } = index(g);
  const effortFrom = new Int32Array(ends.length).fill(UNSET);
  const other = (b: number, n: number) => (ends[b][0] === n ? ends[b][1] : ends[b][0]);
  const set = (b: number, from: number) => {
    if (effortFrom[b] !== UNSET && effortFrom[b] !== from) throw new Error(`causal conflict on bond ${g.bonds[b].join('-')}`);
    effortFrom[b] = from;
  };
  const isStrong = (j: number, b: number) => (g.elements[j].kind === '0' ? effortFrom[b] !== j : effortFrom[b] === j);
  const setStrong = (j: number, b: number, strong: boolean) => {
    const zero = g.elements[j].kind === '0';
    set(b, strong === zero ? other(b, j) : j);
  };
  const propagate = () => {
    for (let changed = true; changed;) {
      changed = false;
      g.elements.forEach((e, j) => {
        if (e.kind !== '0' && e.kind !== '1') return;
        const open = incident[j].filter((b) => effortFrom[b] === UNSET);
        const strong = incident[j].filter((b) => effortFrom[b] !== UNSET && isStrong(j, b));
        if (strong.length > 1) throw new Error(`causal conflict at junction ${e.name}`);
        if (open.length === 0) return;
        if (strong.length === 1) open.forEach((b) => setStrong(j, b, false));
        else if (open.length === 1) setStrong(j, open[0], true);
        else return;
        changed = true;
      });
    }
  };
  const oneports = (kinds: SketchKind[]) => g.elements.map((e, k) => [e, k] as const).filter(([e]) => kinds.includes(e.kind));
  for (const [e, k] of oneports(['Se', 'Sf', 'C', 'I'])) {
    const b = incident[k][0];
    set(b, e.kind === 'Se' || e.kind === 'C' ? k : other(b, k));
    propagate();
  }
  for (const [, k] of oneports(['R'])) {
    const b = incident[k][0];
    if (effortFrom[b] === UNSET) (set(b, k), propagate()); // resistive: e = R f
  }
  ends.forEach(([a], b) => {
    if (effortFrom[b] === UNSET) (set(b, a), propagate()); // left-over causal cycles
  });
  return effortFrom;
}

/** (sketch) => algebraic loop matrix over the R ports (Table 1 for fig. 1) */
export function algebraicLoopMatrix(g: BondGraphSketch): LoopMatrix {
  const { incident } = index(g);
  const effortFrom = assignCausality(g);
  // signals: 2b = effort of bond b, 2b+1 = flow; edges input -> output through junctions
  const next: number[][] = Array.from({ length: 2 * effortFrom.length }, () => []);
  g.elements.forEach((e, j) => {
    if (e.kind !== '0' && e.kind !== '1') return;
    const s = incident[j].find((b) => (e.kind === '0' ? effortFrom[b] !== j : effortFrom[b] === j))!;
    for (const b of incident[j]) {
      if (b === s) continue;
      if (e.kind === '0') (next[2 * s].push(2 * b), next[2 * b + 1].push(2 * s + 1));
      else (next[2 * s + 1].push(2 * b + 1), next[2 * b].push(2 * s));
    }
  });
  const rs = g.elements.map((e, k) => [e, k] as const).filter(([e]) => e.kind === 'R');
  const bondOf = (k: number) => incident[k][0];
  const output = (k: number) => 2 * bondOf(k) + (effortFrom[bondOf(k)] === k ? 0 : 1);
  const inputOf = new Map(rs.map(([, k], i) => [output(k) ^ 1, i]));
  const entries = rs.map(() => rs.map(() => false));
  rs.forEach(([, k], i) => {
    const seen = new Uint8Array(next.length);
    const stack = [output(k)];
    while (stack.length) {
      const sig = stack.pop()!;
      const j = inputOf.get(sig);
      if (j !== undefined && j !== i) entries[i][j] = entries[j][i] = true;
      for (const t of next[sig]) if (!seen[t]) ((seen[t] = 1), stack.push(t));
    }
  });
  return { ports: rs.map(([e]) => e.name), entries };
}

/** (loop matrix entries) => row indices chosen, in order: most entries first, first on ties */
export function selectTearPorts(entries: readonly (readonly boolean[])[]): number[] {
  const n = entries.length;
  const removed = new Uint8Array(n);
  const count = (i: number) => entries[i].filter((x, j) => x && !removed[j]).length;
  const chosen: number[] = [];
  for (;;) {
    let best = -1,
      most = 0;
    for (let i = 0; i < n; i++) {
      if (removed[i]) continue;
      const c = count(i);
      if (c > most) ((best = i), (most = c));
    }
    if (best < 0) return chosen;
    removed[best] = 1;
    chosen.push(best);
  }
}

/** (sketch) => names of the R ports at which residual sinks break every algebraic loop */
export function tearPorts(g: BondGraphSketch): string[] {
  const m = algebraicLoopMatrix(g);
  return selectTearPorts(m.entries).map((i) => m.ports[i]);
}
