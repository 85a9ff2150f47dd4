// Branch-induced sparsity (codegen/sparse-cholesky.ts, runtime
// sparseCholeskySolve): the ordering finds the no-fill order of a tree
// pattern, the sparse solve matches a dense Gaussian elimination on seeded
// random patterns (with garbage in the structural zeros it must not read),
// its verdicts on indefinite and singular matrices are choleskySolve's, and
// a torn loop with a sparse H solves right through Cholesky, through its LU
// fallback and back (the fallback leaves its factors in the structural zeros).
import { describe, expect, it } from 'vitest';
import { densePattern, unrolledCholesky } from '../../src/codegen/sparse-cholesky.ts';
import { factorPattern } from '../../src/structure/sparse-pattern.ts';
import { choleskySolve, runtimeSource, sparseCholeskySolve } from '../../src/codegen/runtime.ts';
import { Model, add, compile, der, mul, residue, sub, type Expr } from '../../src/index.ts';
import humanoid from '../../mechanisms/humanoid.ts';
import { solveDense } from '../oracles/gauss.ts';
import { prng } from '../multibody/random-tree.ts';

/** the adjacency sets of a symmetric pattern given by its edges */
const graph = (k: number, edges: readonly (readonly [number, number])[]) => {
  const a = Array.from({ length: k }, () => new Set<number>());
  for (const [i, j] of edges) (a[i].add(j), a[j].add(i));
  return a;
};

/** a random tree on k nodes (parent of i among 0..i-1) plus `extra` random edges */
function randomPattern(rnd: () => number, k: number, extra: number): [number, number][] {
  const edges: [number, number][] = [];
  for (let i = 1; i < k; i++) edges.push([i, Math.floor(rnd() * i)]);
  for (let e = 0; e < extra; e++) {
    const i = Math.floor(rnd() * k),
      j = Math.floor(rnd() * k);
    if (i !== j) edges.push([i, j]);
  }
  return edges;
}

/** a symmetric positive definite matrix on the pattern: diagonally dominant, random off-diagonal entries */
function spd(rnd: () => number, k: number, edges: readonly (readonly [number, number])[]): number[] {
  const A = new Array<number>(k * k).fill(0);
  for (const [i, j] of edges) A[i * k + j] = A[j * k + i] = -1 + 2 * rnd();
  for (let i = 0; i < k; i++) {
    let row = 0;
    for (let j = 0; j < k; j++) if (j !== i) row += Math.abs(A[i * k + j]);
    A[i * k + i] = row + 0.1 + rnd();
  }
  return A;
}

const rows2d = (k: number, A: readonly number[]) => Array.from({ length: k }, (_, i) => A.slice(i * k, i * k + k));

describe('ordering a symmetric pattern', () => {
  it('the pattern of a branched mass matrix (H_ij nonzero when joint i supports j): no fill', () => {
    // parents: 1 and 5 on 0, 2 and 3 on 1, 4 on 3; H couples each joint with all its ancestors
    const parent = [-1, 0, 1, 1, 3, 0];
    const edges: [number, number][] = [];
    parent.forEach((_, i) => {
      for (let a = parent[i]; a >= 0; a = parent[a]) edges.push([i, a]);
    });
    const p = factorPattern(6, graph(6, edges));
    expect(p.fill).toEqual([]);
    // each pivot's later rows are its ancestors: a column's length is the joint's depth
    expect(p.order.map((_, q) => p.start[q + 1] - p.start[q]).sort()).toEqual([0, 1, 1, 2, 2, 3]);
  });

  it('a cycle of six: each elimination but the last two fills one pair in', () => {
    const p = factorPattern(
      6,
      graph(6, [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 4],
        [4, 5],
        [5, 0],
      ]),
    );
    expect(p.fill.length / 2).toBe(3);
  });
});

describe('sparseCholeskySolve', () => {
  it('200 seeded random patterns (trees and trees with extra edges), k = 4..24: the dense solution to 1e-10', () => {
    const rnd = prng(8128);
    for (let trial = 0; trial < 200; trial++) {
      const k = 4 + Math.floor(rnd() * 21);
      const edges = randomPattern(rnd, k, trial % 2 ? Math.floor(rnd() * k) : 0);
      const A = spd(rnd, k, edges),
        b = Array.from({ length: k }, () => -1 + 2 * rnd());
      const p = factorPattern(k, graph(k, edges));
      const work = A.map((v) => (v === 0 ? 1e3 * (rnd() - 0.5) : v)); // garbage where the pattern has none
      for (const f of p.fill) work[f] = 0;
      const x = b.slice(),
        d = new Array<number>(k);
      expect(sparseCholeskySolve(k, work, x, p.order, p.start, p.rows, d)).toBeGreaterThan(0);
      const oracle = solveDense(rows2d(k, A), b);
      const scale = Math.max(1, ...oracle.map(Math.abs));
      expect(Math.max(...x.map((v, i) => Math.abs(v - oracle[i])))).toBeLessThan(1e-10 * scale);
    }
  });

  it('unrolled for its pattern (dense too): the same result to the bit and the same verdicts, in pieces of bounded size', () => {
    const rnd = prng(496);
    type Unrolled = (A: number[], b: number[], d: number[]) => number;
    const unrolled = (k: number, p: Parameters<typeof unrolledCholesky>[2]) => {
      const code = unrolledCholesky('chol', k, p)!.s;
      for (const piece of code.split('\nfunction ')) expect(piece.length).toBeLessThan(12000);
      return new Function(`${runtimeSource(['choleskyTiny'])}\n${code}\nreturn chol;`)() as Unrolled;
    };
    for (let trial = 0; trial < 40; trial++) {
      const dense = trial % 4 === 0;
      const k = 4 + Math.floor(rnd() * (dense ? 17 : 29));
      const edges = randomPattern(rnd, k, trial % 2 ? Math.floor(rnd() * k) : 0);
      const p = dense ? densePattern(k) : factorPattern(k, graph(k, edges));
      const A = spd(rnd, k, edges);
      // a negative or a zero pivot on some trials: the verdict, not just the solution
      if (trial % 5 === 3) A[p.order[k - 1] * (k + 1)] = trial % 10 === 3 ? -1 : 0;
      const b = Array.from({ length: k }, () => -1 + 2 * rnd());
      const [x1, x2, A1, A2] = [b.slice(), b.slice(), A.slice(), A.slice()];
      const r1 = sparseCholeskySolve(k, A1, x1, p.order, p.start, p.rows, new Array<number>(k).fill(0));
      const r2 = unrolled(k, p)(A2, x2, new Array<number>(k).fill(0));
      expect(r2).toBe(r1);
      if (r1 > 0) expect(x2).toEqual(x1);
    }
    // a pattern too large for straight-line code is left to the loops
    expect(unrolledCholesky('chol', 64, densePattern(64))).toBeUndefined();
  });

  it('an indefinite matrix returns 0 and a singular one -1, as choleskySolve does', () => {
    const edges: [number, number][] = [
      [0, 1],
      [1, 2],
      [1, 3],
    ];
    const p = factorPattern(4, graph(4, edges));
    const run = (A: number[]) => [
      sparseCholeskySolve(4, A.slice(), [1, 1, 1, 1], p.order, p.start, p.rows, [0, 0, 0, 0]),
      choleskySolve(4, A.slice(), [1, 1, 1, 1]),
    ];
    const indefinite = [1, 2, 0, 0, 2, 1, 0.5, 0.5, 0, 0.5, 1, 0, 0, 0.5, 0, 1];
    expect(run(indefinite)).toEqual([0, 0]);
    // rows 1 and 3 equal: singular with a zero pivot, whatever the order
    const singular = [1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1];
    expect(run(singular)).toEqual([-1, -1]);
  });
});

/**
 * A torn linear loop whose H is the tree-patterned A(s) (residue(z_i) in
 * equation i): symmetric positive definite at s = 0, indefinite at s = 5
 * (the LU fallback solves it), and unsymmetric when `skew` is set.
 */
function treeLoop(skew: number) {
  const m = new Model('treeloop');
  const s = m.variable('s', { start: 0 });
  const z = [0, 1, 2, 3, 4, 5].map((i) => m.variable(`z${i}`));
  const edges: [number, number, number][] = [
    [0, 1, 0.5],
    [1, 2, -0.3],
    [1, 3, 0.4],
    [3, 4, 0.2],
    [0, 5, -0.6],
  ];
  const A: number[][] = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 2 : 0)));
  for (const [i, j, v] of edges) ((A[i][j] = v + skew), (A[j][i] = v));
  m.equation(der(s), 1);
  for (let i = 0; i < 6; i++) {
    const terms: Expr[] = [residue(z[i])];
    for (let j = 0; j < 6; j++) if (A[i][j] !== 0) terms.push(mul(i === 2 && j === 2 ? sub(A[i][j], s) : A[i][j], z[j]));
    m.equation(add(...terms), i + 1);
  }
  const solution = (sv: number) =>
    solveDense(
      A.map((row, i) => row.map((v, j) => (i === 2 && j === 2 ? v - sv : v))),
      [1, 2, 3, 4, 5, 6],
    );
  return { m, solution };
}

describe('a torn loop with a sparse H', () => {
  for (const skew of [0, 0.1]) {
    it(`${skew ? 'unsymmetric (LU every time)' : 'symmetric'}: right at s = 0, through the LU fallback at s = 5 (indefinite), and at s = 0 again`, () => {
      const { m, solution } = treeLoop(skew);
      const c = compile(m, { mode: 'torn' });
      expect(c.report.blocks[0]).toMatchObject({ tearing: 6, solver: 'cholesky' });
      // the sparse pattern, factored by straight-line code unrolled for it
      expect(c.source()).toMatch(/const O\d+ = Int32Array\.of\([^]*definite = [^;]*cholesky\d+\(H\d+, c\d+, D\d+\)/);
      for (const sv of [0, 5, 0, 1.5]) {
        const x = Float64Array.of(sv);
        c.derivatives(0, x, new Float64Array(1));
        const expected = solution(sv);
        for (let i = 0; i < 6; i++) expect(c.signal(`z${i}`)).toBeCloseTo(expected[i], 12);
      }
    });
  }
});

describe('the humanoid (32 dof, five branches)', () => {
  it('torn through the sparse factorisation agrees with relaxed to 1e-10 at seeded random states, with fewer operations than dense Cholesky would take', () => {
    const torn = compile(humanoid({}), { mode: 'torn' }),
      relaxed = compile(humanoid({}), { mode: 'relaxed' });
    expect(torn.source()).toMatch(/const O\d+ = Int32Array\.of\([^]*definite = [^;]*cholesky\d+\(H\d+, c\d+, D\d+\)/);
    expect(torn.report.ops.mul).toBeLessThan(12000); // dense Cholesky of 32: 15184
    const rnd = prng(32);
    for (let s = 0; s < 5; s++) {
      const x = Float64Array.from(torn.stateNames, (n) => (n.endsWith('.qd') ? -2 + 4 * rnd() : -1 + 2 * rnd()));
      const a = new Float64Array(x.length),
        b = new Float64Array(x.length);
      torn.derivatives(0, x, a);
      relaxed.derivatives(0, x, b);
      const scale = Math.max(1, ...a.map(Math.abs));
      expect(Math.max(...a.map((v, i) => Math.abs(v - b[i])))).toBeLessThan(1e-10 * scale);
    }
  });
});
