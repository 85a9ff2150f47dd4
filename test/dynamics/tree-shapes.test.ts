// The generated tree code on trees of every shape (issue 33: the sparse
// solves and M^-1's lower triangle, tree-ltdl.ts, must be right wherever
// the branches fall): seeded random chains, stars, two deep branches,
// forests (several roots: M^-1 block-diagonal) and random parents, with
// random placements, axes, inertias, hinges and sliders, springs, dampers,
// forces outside the tree (k, b) and a random coordinate order. Built as
// RigidTree values directly, so each shape is drawn, not looked for among
// mechanisms. Oracles, independent of the generated code:
//   - the hand-written recursions (tree-derivatives.ts) with the dense
//     L^T L Cholesky (dense-cholesky.ts): M, dtau/d(q, qd), and
//     M^-1 [-dtau/dq, -dtau/dqd, 1] to 1e-10;
//   - dqdd/dtau M = 1 (1e-10), and dqdd/dtau exactly symmetric;
//   - fourth-order central differences of qdd = M^-1 (tau - h - k q - b qd)
//     with M and h from the hand-written recursions (1e-7).
import { describe, expect, it } from 'vitest';
import type { RigidTree } from '../../src/codegen/rigid-tree.ts';
import { TreeDerivatives } from '../../src/codegen/tree-derivatives.ts';
import { treeFunctions } from '../../src/codegen/tree-generated.ts';
import { ltlFactor, ltlSolveColumns } from '../../src/codegen/dense-cholesky.ts';
import { prng } from './cases.ts';
import { difference, relative } from './differences.ts';

type Shape = 'chain' | 'star' | 'two branches' | 'forest' | 'random';

/** body i's parent (parents first) in each shape */
const parents: Record<Shape, (i: number, rand: () => number) => number> = {
  chain: (i) => i - 1,
  star: (i) => (i === 0 ? -1 : 0),
  // bodies 1, 3, 5... on one branch, 2, 4, 6... on the other, both from body 0
  'two branches': (i) => (i === 0 ? -1 : i <= 2 ? 0 : i - 2),
  forest: (i) => (i % 3 === 0 ? -1 : i - 1),
  random: (i, rand) => (i === 0 || rand() < 0.15 ? -1 : Math.floor(rand() * i)),
};

/** a rotation about a random unit axis (Rodrigues), row-major */
function rotation(rand: () => number): number[] {
  const a = unit(rand),
    t = (2 * rand() - 1) * Math.PI,
    c = Math.cos(t),
    s = Math.sin(t),
    k = 1 - c;
  const [x, y, z] = a;
  return [
    c + k * x * x,
    k * x * y - s * z,
    k * x * z + s * y,
    k * x * y + s * z,
    c + k * y * y,
    k * y * z - s * x,
    k * x * z - s * y,
    k * y * z + s * x,
    c + k * z * z,
  ];
}

function unit(rand: () => number): number[] {
  for (;;) {
    const v = [0, 1, 2].map(() => 2 * rand() - 1),
      r = Math.hypot(...v);
    if (r > 0.1 && r <= 1) return v.map((x) => x / r);
  }
}

/** a random tree of `shape` with n bodies */
function shapedTree(shape: Shape, n: number, seed: number): RigidTree {
  const rand = prng(seed),
    u = (lo: number, hi: number) => lo + (hi - lo) * rand();
  const parent = Int32Array.from({ length: n }, (_, i) => parents[shape](i, rand));
  // a random coordinate order: coordinate coord[b] is body b's
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const Ib: number[] = [];
  for (let b = 0; b < n; b++) {
    // Q diag(s) Q^T with principal moments that satisfy the triangle inequality
    const s = [u(0.01, 0.2), u(0.01, 0.2), u(0.01, 0.2)],
      P = [s[1] + s[2], s[0] + s[2], s[0] + s[1]],
      Q = rotation(rand);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) Ib.push(Q[3 * i] * P[0] * Q[3 * j] + Q[3 * i + 1] * P[1] * Q[3 * j + 1] + Q[3 * i + 2] * P[2] * Q[3 * j + 2]);
  }
  const many = (k: number, f: () => number) => Float64Array.from({ length: k * n }, f);
  const spring = () => (rand() < 0.3 ? u(0.5, 5) : 0);
  return {
    N: n,
    parent,
    coord: Int32Array.from(order),
    hinge: Uint8Array.from({ length: n }, () => (rand() < 0.75 ? 1 : 0)),
    pos: many(3, () => u(-0.5, 0.5)),
    R: Float64Array.from(Array.from({ length: n }, () => rotation(rand)).flat()),
    axis: Float64Array.from(Array.from({ length: n }, () => unit(rand)).flat()),
    c: many(1, spring),
    q0: many(1, () => u(-1, 1)),
    d: many(1, spring),
    m: many(1, () => u(0.2, 3)),
    com: many(3, () => u(-0.3, 0.3)),
    Ib: Float64Array.from(Ib),
    gravity: Float64Array.from(unit(rand).map((x) => 9.81 * x)),
    outsideForces: undefined,
  };
}

/** the hand-written M and h (+ k q + b qd) at (q, qd), coordinate order */
function handMh(tree: RigidTree, kb: Float64Array, q: ArrayLike<number>, qd: ArrayLike<number>): { M: Float64Array; h: Float64Array } {
  const n = tree.N,
    hand = new TreeDerivatives(tree),
    M = new Float64Array(n * n),
    h = new Float64Array(n);
  hand.kinematics(q, qd, M);
  hand.dynamics(q, qd, new Float64Array(n), h);
  for (let i = 0; i < n; i++) h[i] += kb[i] * q[i] + kb[n + i] * qd[i];
  return { M, h };
}

function check(shape: Shape, n: number, seed: number): void {
  const tree = shapedTree(shape, n, seed),
    g = treeFunctions(tree),
    rand = prng(seed + 1),
    point = () => Float64Array.from({ length: n }, () => 2 * rand() - 1),
    nn = () => new Float64Array(n * n);
  const w = new Float64Array(g.slots),
    kb = Float64Array.from({ length: 2 * n }, () => 0.3 * (2 * rand() - 1));
  const q = point(),
    qd = point(),
    tau = point();
  // the generated forward path: qdd = M^-1 (tau - h), then the pairs at qdd and the 3n columns
  const h = new Float64Array(n),
    qdd = new Float64Array(n),
    T = new Float64Array(n),
    [a, b, c] = [nn(), nn(), nn()];
  g.point(q, qd, w);
  g.bias(q, qd, w, h);
  g.factor(w);
  expect(g.pivot(w)).toBe(-1);
  for (let i = 0; i < n; i++) qdd[i] = tau[i] - h[i] - kb[i] * q[i] - kb[n + i] * qd[i];
  g.solve(w, qdd);
  g.pairs(q, qd, qdd, kb, w, T);
  g.forwardOut(w, a, b, c);
  // the hand-written recursions and the dense Cholesky
  const { M } = handMh(tree, kb, q, qd),
    hand = new TreeDerivatives(tree),
    [M2, dq, dqd] = [nn(), nn(), nn()],
    T2 = new Float64Array(n);
  hand.kinematics(q, qd, M2);
  hand.dynamics(q, qd, qdd, T2);
  hand.derivatives(dq, dqd);
  for (let i = 0; i < n; i++) ((dq[i * n + i] += kb[i]), (dqd[i * n + i] += kb[n + i]));
  const L = nn();
  if (typeof ltlFactor(n, M, L) === 'number') throw new Error('M not positive definite');
  const eye = nn();
  for (let i = 0; i < n; i++) eye[i * n + i] = 1;
  const solved = (B: Float64Array) => ltlSolveColumns(n, L, B, n);
  expect(relative(a, solved(dq.map((x) => -x))), 'dqdd/dq against the dense solve').toBeLessThan(1e-10);
  expect(relative(b, solved(dqd.map((x) => -x))), 'dqdd/dqd against the dense solve').toBeLessThan(1e-10);
  expect(relative(c, solved(Float64Array.from(eye))), 'M^-1 against the dense solve').toBeLessThan(1e-10);
  // M^-1 M = 1, and the upper triangle is the lower one (one value written twice)
  const CM = nn();
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) CM[i * n + j] += c[i * n + k] * M[k * n + j];
  expect(relative(CM, eye), 'M^-1 M = 1').toBeLessThan(1e-10);
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) expect(c[i * n + j]).toBe(c[j * n + i]);
  // fourth-order differences of qdd by the hand-written M and h
  const fd = (x: ArrayLike<number>, y: ArrayLike<number>, t: ArrayLike<number>) => {
    const { M: Mx, h: hx } = handMh(tree, kb, x, y),
      Lx = nn();
    ltlFactor(n, Mx, Lx);
    return ltlSolveColumns(
      n,
      Lx,
      Float64Array.from(t, (ti, i) => ti - hx[i]),
      1,
    );
  };
  expect(relative(qdd, fd(q, qd, tau)), 'qdd').toBeLessThan(1e-10);
  const byDifferences = (f: (x: Float64Array) => Float64Array, x: Float64Array) => {
    const J = nn();
    for (let j = 0; j < n; j++) difference(f, x, j).forEach((v, i) => (J[i * n + j] = v));
    return J;
  };
  expect(
    relative(
      a,
      byDifferences((x) => fd(x, qd, tau), q),
    ),
    'dqdd/dq against differences',
  ).toBeLessThan(1e-7);
  expect(
    relative(
      b,
      byDifferences((x) => fd(q, x, tau), qd),
    ),
    'dqdd/dqd against differences',
  ).toBeLessThan(1e-7);
  expect(
    relative(
      c,
      byDifferences((x) => fd(q, qd, x), tau),
    ),
    'dqdd/dtau against differences',
  ).toBeLessThan(1e-7);
}

describe('the generated derivatives on trees of every shape (seeded), against the hand-written recursions, dense Cholesky and differences', () => {
  const shapes: Shape[] = ['chain', 'star', 'two branches', 'forest', 'random'];
  for (const [k, shape] of shapes.entries()) {
    for (const n of [1, 2, 5, 9]) {
      const seed = 3300 + 10 * k + n;
      it(`${shape} of ${n}, seed ${seed}`, () => check(shape, n, seed));
    }
  }
});
