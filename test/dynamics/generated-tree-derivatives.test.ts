// The tree's recursions generated as code (src/codegen/tree-generated.ts:
// constants folded, the branch structure unrolled, M = L^T D L factored
// sparse) against the hand-written recursions they replace
// (tree-derivatives.ts: loops over typed arrays) and the dense L^T L
// Cholesky with dense solves (dense-cholesky.ts): an independent path
// through the same identities. tau, M, dtau/d(q, qd), qdd and
// M^-1 [-dtau/dq, -dtau/dqd, 1] to 1e-10 of the largest entry, torn and
// relaxed, on the PUMA 560, the iiwa 14, the humanoid and sixteen seeded
// random trees (springs, dampers, prismatic joints); the mass-matrix-only
// code against the n + 1 inverse calls (1e-12). The path through
// forwardDerivatives against the tangents is analytical-derivatives.test.ts'.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { inverseTangents } from '../../src/codegen/inverse-tangents.ts';
import { TreeDerivatives } from '../../src/codegen/tree-derivatives.ts';
import { treeFunctions, treeMassFunction } from '../../src/codegen/tree-generated.ts';
import { PRINTED_OPERATIONS, handFunctions, printedOperations } from '../../src/codegen/tree-hand.ts';
import chain from '../../mechanisms/chain.ts';
import { ltlFactor, ltlSolveColumns } from '../../src/codegen/dense-cholesky.ts';
import type { Mechanism } from '../../src/library/multibody/index.ts';
import puma from '../../mechanisms/puma560.ts';
import humanoidBuild from '../../mechanisms/humanoid.ts';
import { cases, prng } from './cases.ts';
import { trees } from './trees.ts';
import { relative } from './differences.ts';

const named = [...trees.filter((t) => !t.name.includes('URDF')), ...cases.map((c) => ({ name: c.name, build: c.mechanism }))];

function treeOf(build: () => Mechanism, mode: 'torn' | 'relaxed') {
  const inv = compile(build(), { problem: 'inverse', mode });
  const code = inverseTangents(inv);
  if (typeof code === 'string') throw new Error(code);
  const tree = code.rigidTree();
  if (typeof tree === 'string') throw new Error(tree);
  return { inv, tree };
}

function agree(build: () => Mechanism, mode: 'torn' | 'relaxed', seed: number) {
  const { tree } = treeOf(build, mode);
  const n = tree.N,
    g = treeFunctions(tree),
    hand = new TreeDerivatives(tree),
    rand = prng(seed),
    point = () => Float64Array.from({ length: n }, () => 2 * rand() - 1);
  const nn = () => new Float64Array(n * n);
  const w = new Float64Array(g.slots),
    kb = point().map((x) => 0.1 * x);
  const kb2 = Float64Array.from({ length: 2 * n }, (_, i) => kb[i % n] * (i < n ? 1 : -2));
  for (let k = 0; k < 2; k++) {
    const q = point(),
      qd = point(),
      qdd = point();
    // generated: M, tau and the pairs at qdd (k, b of forces outside the tree on the diagonal)
    const [M, dq, dqd, a, b, c] = [nn(), nn(), nn(), nn(), nn(), nn()];
    const tau = new Float64Array(n);
    g.point(q, qd, w);
    g.massOut(w, M);
    g.pairs(q, qd, qdd, kb2, w, tau);
    g.inverseOut(w, dq, dqd);
    // hand-written
    const [M2, dq2, dqd2] = [nn(), nn(), nn()],
      tau2 = new Float64Array(n);
    hand.kinematics(q, qd, M2);
    hand.dynamics(q, qd, qdd, tau2);
    hand.derivatives(dq2, dqd2);
    for (let i = 0; i < n; i++) ((dq2[i * n + i] += kb2[i]), (dqd2[i * n + i] += kb2[n + i]));
    expect(relative(M, M2), 'M').toBeLessThan(1e-10);
    expect(relative(tau, tau2), 'tau').toBeLessThan(1e-10);
    expect(relative(dq, dq2), 'dtau/dq').toBeLessThan(1e-10);
    expect(relative(dqd, dqd2), 'dtau/dqd').toBeLessThan(1e-10);
    // the sparse L^T D L against the dense L^T L: qdd = M^-1 r and the 3n columns
    g.factor(w);
    expect(g.pivot(w)).toBe(-1);
    const L = nn();
    if (typeof ltlFactor(n, M2, L) === 'number') throw new Error('M not positive definite');
    const r = point(),
      r2 = Float64Array.from(r);
    g.solve(w, r);
    expect(relative(r, ltlSolveColumns(n, L, r2, 1)), 'M^-1 r').toBeLessThan(1e-10);
    g.forwardOut(w, a, b, c);
    const eye = nn();
    for (let i = 0; i < n; i++) eye[i * n + i] = 1;
    expect(
      relative(
        a,
        ltlSolveColumns(
          n,
          L,
          dq2.map((x) => -x),
          n,
        ),
      ),
      'dqdd/dq',
    ).toBeLessThan(1e-10);
    expect(
      relative(
        b,
        ltlSolveColumns(
          n,
          L,
          dqd2.map((x) => -x),
          n,
        ),
      ),
      'dqdd/dqd',
    ).toBeLessThan(1e-10);
    expect(relative(c, ltlSolveColumns(n, L, eye, n)), 'M^-1').toBeLessThan(1e-10);
  }
}

describe('the generated tree code against the hand-written recursions and dense Cholesky (1e-10)', () => {
  for (const [k, t] of named.entries()) {
    for (const mode of ['relaxed', 'torn'] as const) {
      it(`${t.name}, ${mode}`, () => agree(t.build, mode, 300 + k), 120_000);
    }
  }
});

describe('the generated mass matrix', () => {
  for (const t of named.slice(0, 4)) {
    it(`${t.name}: equal to the n + 1 inverse calls (1e-12)`, () => {
      const { inv, tree } = treeOf(t.build, 'relaxed');
      const n = tree.N,
        m = treeMassFunction(tree),
        run = inv.inverseDynamics(),
        rand = prng(7);
      const q = Float64Array.from({ length: n }, () => 2 * rand() - 1),
        M = new Float64Array(n * n);
      m.fn(q, new Float64Array(m.slots), M);
      expect(relative(M, run.massMatrixByColumns(q))).toBeLessThan(1e-12);
      // run.massMatrix is this code for a tree
      expect(relative(run.massMatrix(q), M)).toBe(0);
    }, 120_000);
  }

  it('a parameter changed at run time: measured again, the tree no longer the model’s, the tangents answer', () => {
    const inv = compile(puma(), { problem: 'inverse', foldParameters: false });
    const run = inv.inverseDynamics(),
      q = [0.1, 0.5, -0.4, 0.2, 0.7, -0.3];
    const before = Float64Array.from(run.massMatrix(q));
    expect(relative(before, run.massMatrixByColumns(q))).toBeLessThan(1e-12);
    run.state.setParameter('link2.m', 30);
    const after = run.massMatrix(q);
    expect(relative(after, before)).toBeGreaterThan(1e-3);
    expect(relative(after, run.massMatrixByColumns(q))).toBeLessThan(1e-12);
    const d = run.derivatives();
    expect(typeof d === 'string' ? d : d.method).toMatch(/^tangents: a force outside the tree/);
  }, 120_000);
});

describe('a tree too large to print runs the same recursions as loops', () => {
  it('the humanoid is printed, a chain of 48 is not (its pairs and solves grow with n times the pairs on a path)', () => {
    expect(printedOperations(treeOf(() => humanoidBuild(), 'relaxed').tree)).toBeLessThan(PRINTED_OPERATIONS);
    expect(printedOperations(treeOf(() => chain({ n: 48 }), 'relaxed').tree)).toBeGreaterThan(PRINTED_OPERATIONS);
  }, 120_000);

  // M of a chain of 48 is ill-conditioned: the residues are relative to the terms' size, M^-1 M - 1 to cond(M) eps
  it('a chain of 48 by the loops: M qdd + h = tau with M and h of the model (1e-12 of the terms), dqdd/dtau M = 1 (1e-8)', () => {
    const inv = compile(chain({ n: 48 }), { problem: 'inverse' });
    const run = inv.inverseDynamics(),
      n = 48,
      rand = prng(5);
    const q = Float64Array.from({ length: n }, () => 0.3 * (2 * rand() - 1)),
      qd = Float64Array.from({ length: n }, () => 2 * rand() - 1),
      tau = Float64Array.from({ length: n }, () => 2 * rand() - 1);
    const f = run.forwardDerivatives(q, qd, tau);
    const d = run.derivatives();
    if (typeof d === 'string') throw new Error(d);
    expect(d.method).toBe('analytical');
    expect(d.analyticalCode?.printed).toBe(false);
    // M qdd + h = tau, M from the n + 1 inverse calls
    const M = run.massMatrixByColumns(q),
      h = run.bias(q, qd);
    const Mq = Float64Array.from({ length: n }, (_, i) => h[i] + M.subarray(i * n, i * n + n).reduce((s, m, j) => s + m * f.qdd[j], 0));
    const terms = Math.max(
      ...Array.from({ length: n }, (_, i) => Math.abs(h[i]) + M.subarray(i * n, i * n + n).reduce((s, m, j) => s + Math.abs(m * f.qdd[j]), 0)),
    );
    expect(Math.max(...Mq.map((x, i) => Math.abs(x - tau[i]))) / terms).toBeLessThan(1e-12);
    const eye = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) eye[i * n + j] += f.dqdd_dtau[i * n + k] * M[k * n + j];
    expect(
      relative(
        eye,
        Float64Array.from({ length: n * n }, (_, k) => (k % (n + 1) === 0 ? 1 : 0)),
      ),
    ).toBeLessThan(1e-8);
  }, 240_000);

  it('the loops and the generated code agree on the PUMA (1e-10)', () => {
    const { tree } = treeOf(() => puma(), 'relaxed');
    const n = tree.N,
      g = treeFunctions(tree),
      h = handFunctions(tree),
      rand = prng(9),
      point = () => Float64Array.from({ length: n }, () => 2 * rand() - 1);
    const q = point(),
      qd = point(),
      kb = new Float64Array(2 * n),
      w = new Float64Array(g.slots);
    const run = (f: typeof g) => {
      const out = [0, 0, 0].map(() => new Float64Array(n * n)),
        r = Float64Array.from(qd),
        tau = new Float64Array(n);
      f.point(q, qd, w);
      f.factor(w);
      f.solve(w, r);
      f.pairs(q, qd, r, kb, w, tau);
      f.forwardOut(w, out[0], out[1], out[2]);
      return [r, tau, ...out];
    };
    const [a, b] = [run(g), run(h)];
    a.forEach((x, k) => expect(relative(x, b[k])).toBeLessThan(1e-10));
  }, 120_000);
});
