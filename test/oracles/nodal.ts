// Oracle: numeric nodal analysis of a resistor network with ideal voltage
// sources to ground, independent of the compiler. Kirchhoff's current law at
// every node whose potential is not fixed gives G v = I (G the nodal
// conductance matrix), solved by dense Gaussian elimination.
import { solveDense } from './gauss.ts';

export interface ResistorBranch {
  readonly name: string;
  /** node the current enters the resistor from (p) */
  readonly p: string;
  /** node the current leaves the resistor to (n) */
  readonly n: string;
  readonly R: number;
}

export interface NodalSolution {
  /** node potentials, fixed ones included */
  readonly v: ReadonlyMap<string, number>;
  /** current from p to n through each resistor */
  readonly i: ReadonlyMap<string, number>;
}

// (resistors, fixed node potentials (ground = 0 and sources)) => potentials and branch currents
export function nodalAnalysis(resistors: readonly ResistorBranch[], fixed: Readonly<Record<string, number>>): NodalSolution {
  const nodes = [...new Set(resistors.flatMap((r) => [r.p, r.n]))].filter((n) => !(n in fixed));
  const k = new Map(nodes.map((n, j) => [n, j]));
  const G = nodes.map(() => nodes.map(() => 0));
  const I = nodes.map(() => 0);
  for (const r of resistors) {
    const g = 1 / r.R;
    const a = k.get(r.p),
      b = k.get(r.n);
    if (a !== undefined) {
      G[a][a] += g;
      if (b !== undefined) G[a][b] -= g;
      else I[a] += g * fixed[r.n];
    }
    if (b !== undefined) {
      G[b][b] += g;
      if (a !== undefined) G[b][a] -= g;
      else I[b] += g * fixed[r.p];
    }
  }
  const x = solveDense(G, I);
  const v = new Map<string, number>(Object.entries(fixed));
  nodes.forEach((n, j) => v.set(n, x[j]));
  const i = new Map(resistors.map((r) => [r.name, (v.get(r.p)! - v.get(r.n)!) / r.R]));
  return { v, i };
}
