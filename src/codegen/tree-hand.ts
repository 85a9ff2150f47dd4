// The functions of tree-generated.ts run by the hand-written recursions
// (tree-derivatives.ts: loops over typed arrays) and the dense L^T L
// Cholesky (dense-cholesky.ts): (rigid tree) => TreeFunctions with the same
// arguments and results. What a tree too large to print takes: the
// generated pairs grow with the pairs on one path and the generated solves
// with n times them (a chain of 64: ~0.8 M operations, tens of MB of text),
// these loops with neither. Also the reference the generated code is
// tested against.
import { ltlFactor, ltlSolveColumns } from './dense-cholesky.ts';
import type { RigidTree } from './rigid-tree.ts';
import { TreeDerivatives } from './tree-derivatives.ts';
import type { TreeFunctions } from './tree-generated.ts';

/** operations the generated functions would take beyond which the loops run instead */
export const PRINTED_OPERATIONS = 300_000;

// (rigid tree) => about how many operations the generated pairs and 3n solves would be
export function printedOperations(tree: RigidTree): number {
  const depth = new Int32Array(tree.N);
  let pairs = 0;
  for (let b = 0; b < tree.N; b++) pairs += depth[b] = tree.parent[b] < 0 ? 1 : depth[tree.parent[b]] + 1;
  // ~70 per pair (four dot products of six), the solves 2 (pairs - n) + n per column, 3n columns
  return 70 * pairs + 3 * tree.N * (2 * pairs - tree.N);
}

// (rigid tree) => its derivatives' functions as loops
export function handFunctions(tree: RigidTree): TreeFunctions {
  const n = tree.N,
    td = new TreeDerivatives(tree),
    m = 3 * n;
  const [M, L, dq, dqd] = [0, 0, 0, 0].map(() => new Float64Array(n * n)),
    W = new Float64Array(3 * n * n),
    zeros = new Float64Array(n);
  let bad = -1;
  const copy = (from: Float64Array, to: ArrayLike<number>) => (to as Float64Array).set(from);
  const start = performance.now();
  return {
    n,
    point: (q, qd) => td.kinematics(q, qd, M),
    bias: (q, qd, _w, h) => td.dynamics(q, qd, zeros, h as Float64Array),
    massOut: (_w, out) => copy(M, out),
    factor: () => {
      const f = ltlFactor(n, M, L);
      bad = typeof f === 'number' ? f : -1;
    },
    pivot: () => bad,
    massScale: () => {
      let m = 0;
      for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(M[i * n + i]));
      return m;
    },
    solve: (_w, r) => void ltlSolveColumns(n, L, r as Float64Array, 1),
    pairs: (q, qd, qdd, kb, _w, tau) => {
      td.dynamics(q, qd, qdd, tau as Float64Array);
      dq.fill(0);
      dqd.fill(0);
      td.derivatives(dq, dqd);
      for (let i = 0; i < n; i++) ((dq[i * n + i] += kb[i]), (dqd[i * n + i] += kb[n + i]));
    },
    inverseOut: (_w, a, b) => (copy(dq, a), copy(dqd, b)),
    forwardOut: (_w, a, b, c) => {
      // W = [-dtau/dq, -dtau/dqd, 1] (n x 3n), solved with M in one pass
      W.fill(0);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) ((W[i * m + j] = -dq[i * n + j]), (W[i * m + n + j] = -dqd[i * n + j]));
        W[i * m + 2 * n + i] = 1;
      }
      ltlSolveColumns(n, L, W, m);
      const [A, B, C] = [a, b, c] as Float64Array[];
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) ((A[i * n + j] = W[i * m + j]), (B[i * n + j] = W[i * m + n + j]), (C[i * n + j] = W[i * m + 2 * n + j]));
    },
    slots: 0,
    report: { ms: performance.now() - start, chars: 0, lines: 0, ops: { mul: 0, add: 0, div: 0, fn: 0 } },
  };
}

/** the mass matrix alone by the loops: (q, w, M) */
export function handMassFunction(tree: RigidTree): { fn: (q: ArrayLike<number>, w: Float64Array, M: Float64Array) => void; slots: number } {
  const td = new TreeDerivatives(tree),
    qd = new Float64Array(tree.N);
  return { fn: (q, _w, M) => td.kinematics(q, qd, M), slots: 0 };
}
