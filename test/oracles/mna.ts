// Oracle: numeric modified nodal analysis (MNA; Ho, Ruehli & Brennan 1974,
// relaxing paper section 6) of a network of resistors and voltage-defined
// branches, independent of the compiler. Capacitors whose voltages are known
// (the states) are voltage-defined branches, like ideal sources, so one MNA
// solve gives the capacitor currents and with them der(u) = i / C.
//
// Unknowns: the potentials v of the nodes other than ground and the currents
// i_E through the voltage-defined branches (p to n through the branch).
//   [ G   B ] [ v   ]   [ 0 ]     G  nodal conductance matrix (KCL, currents leaving a node)
//   [ B^T 0 ] [ i_E ] = [ E ]     B  +1 at (p, branch), -1 at (n, branch); E the branch voltages
// solved by dense Gaussian elimination with partial pivoting (the zero block needs it).
import { solveDense } from './gauss.ts';

export interface Resistance {
  readonly name: string;
  /** node the current enters from */
  readonly p: string;
  /** node the current leaves to */
  readonly n: string;
  readonly R: number;
}

export interface VoltageBranch {
  readonly name: string;
  readonly p: string;
  readonly n: string;
  /** v(p) - v(n) */
  readonly E: number;
}

export interface Network {
  readonly resistors: readonly Resistance[];
  readonly branches: readonly VoltageBranch[];
  /** the reference node, v = 0 */
  readonly ground: string;
}

export interface MnaSolution {
  /** node potentials, ground included */
  readonly v: ReadonlyMap<string, number>;
  /** current from p to n through every resistor and voltage-defined branch */
  readonly i: ReadonlyMap<string, number>;
}

// (network) => node potentials and branch currents; throws if the MNA matrix is singular
export function mna(net: Network): MnaSolution {
  const nodes = [...new Set([...net.resistors, ...net.branches].flatMap((b) => [b.p, b.n]))].filter((x) => x !== net.ground);
  const row = new Map(nodes.map((x, k) => [x, k]));
  const size = nodes.length + net.branches.length;
  const A = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const rhs = new Array<number>(size).fill(0);
  for (const r of net.resistors) {
    const g = 1 / r.R,
      a = row.get(r.p),
      b = row.get(r.n);
    if (a !== undefined) A[a][a] += g;
    if (b !== undefined) A[b][b] += g;
    if (a !== undefined && b !== undefined) {
      A[a][b] -= g;
      A[b][a] -= g;
    }
  }
  net.branches.forEach((e, j) => {
    const col = nodes.length + j,
      a = row.get(e.p),
      b = row.get(e.n);
    if (a !== undefined) A[a][col] = A[col][a] = 1;
    if (b !== undefined) A[b][col] = A[col][b] = -1;
    rhs[col] = e.E;
  });
  const x = solveDense(A, rhs);
  const v = new Map<string, number>([[net.ground, 0]]);
  nodes.forEach((node, k) => v.set(node, x[k]));
  const i = new Map<string, number>();
  for (const r of net.resistors) i.set(r.name, (v.get(r.p)! - v.get(r.n)!) / r.R);
  net.branches.forEach((e, j) => i.set(e.name, x[nodes.length + j]));
  return { v, i };
}

// the RC ladder of mechanisms/rcladder.ts: source V at node n0, R_k from n(k-1) to
// n_k, C_k from n_k to ground; (R, C per stage, V, capacitor voltages u) => der(u)
export function rcLadderDerivatives(R: readonly number[], C: readonly number[], V: number, u: readonly number[]): number[] {
  const n = u.length;
  const { i } = mna({
    ground: 'gnd',
    resistors: u.map((_, k) => ({ name: `R${k + 1}`, p: `n${k}`, n: `n${k + 1}`, R: R[k] })),
    branches: [{ name: 'V', p: 'n0', n: 'gnd', E: V }, ...u.map((uk, k) => ({ name: `C${k + 1}`, p: `n${k + 1}`, n: 'gnd', E: uk }))],
  });
  return Array.from({ length: n }, (_, k) => i.get(`C${k + 1}`)! / C[k]);
}

export interface ExcerptParameters {
  V1: number;
  V3: number;
  R1: number;
  R2: number;
  R3: number;
  C: number;
}

// the completed fig. 2 excerpt of mechanisms/mnaexcerpt.ts at capacitor voltage u = v2 - v4:
// (parameters, u) => potentials, currents, der(u)
export function excerptSolution(p: ExcerptParameters, u: number): MnaSolution & { du: number } {
  const s = mna({
    ground: 'gnd',
    resistors: [
      { name: 'R1', p: 'n1', n: 'n4', R: p.R1 },
      { name: 'R2', p: 'n2', n: 'gnd', R: p.R2 },
      { name: 'R3', p: 'n3', n: 'n4', R: p.R3 },
    ],
    branches: [
      { name: 'V1', p: 'n1', n: 'gnd', E: p.V1 },
      { name: 'V3', p: 'n3', n: 'gnd', E: p.V3 },
      { name: 'C', p: 'n2', n: 'n4', E: u },
    ],
  });
  return { ...s, du: s.i.get('C')! / p.C };
}
