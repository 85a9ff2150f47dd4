// The counted Newton-Euler yardstick (test/oracles/rnea-counted.ts) computes
// what the plain oracle computes, and its counts are those derived by hand
// for the chain (below); the compiled inverse dynamics is compared with it.
import { describe, expect, it } from 'vitest';
import chain, { parameters as chainParameters } from '../../mechanisms/chain.ts';
import { compile } from '../../src/compile.ts';
import { rnea } from '../oracles/rnea.ts';
import { chainTree } from '../oracles/aba.ts';
import { rneaCounted } from '../oracles/rnea-counted.ts';
import { cases, prng, pumaTree } from './cases.ts';

const total = (o: { mul: number; add: number; div: number; fn: number }) => o.mul + o.add + o.div + o.fn;

describe('counted RNEA', () => {
  it("returns rnea()'s forces on the chain, the PUMA and random trees", () => {
    const rnd = prng(3);
    for (const tree of [chainTree(7, chainParameters), pumaTree(9.81), ...cases.map((c) => c.oracle)]) {
      const n = tree.bodies.length;
      const q = Array.from({ length: n }, () => -3 + 6 * rnd()),
        qd = q.map(() => -2 + 4 * rnd()),
        qdd = q.map(() => -5 + 10 * rnd());
      const want = rnea(tree, q, qd, qdd);
      const got = rneaCounted(tree, q, qd, qdd).tau;
      got.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThanOrEqual(1e-12 * Math.max(1, ...want.map(Math.abs))));
    }
  });

  it('counts the chain by hand: root 60 mul 45 add 2 fn, every further body 129 mul 104 add 2 fn', () => {
    // a coordinate-axis revolute with E = identity: sin, cos 2 fn, R filled in; tau = n . nm picks.
    // Root: a = R^T(-g) 9 mul 6 add; w, wd no ops; ac = a + wd x c + w x (w x c) 18 mul 15 add;
    // F = m ac 3 mul; N = Ic wd + w x (Ic w) 24 mul 18 add; nm = N + c x F 6 mul 6 add.
    // Outward, non-root: wIn, wdIn 18 mul 12 add; aIn = R^T (ap + wdp x d + wp x (wp x d)) 27 mul 21 add;
    // w = wIn + qd n 1 add; wd = wdIn + qd (wIn x n) + qdd n 9 mul 7 add; ac, F, N, nm as the root.
    // Inward, non-root: fp = R f 9 mul 6 add; f_p += fp 3 add; nm_p += R nm + d x fp 15 mul 15 add.
    const n = 7;
    const { ops } = rneaCounted(chainTree(n, chainParameters), new Array(n).fill(0.1), new Array(n).fill(0.2), new Array(n).fill(0.3));
    const root = { mul: 9 + 18 + 3 + 24 + 6, add: 6 + 15 + 18 + 6 };
    const body = { mul: 18 + 27 + 9 + (18 + 3 + 24 + 6) + 9 + 15, add: 12 + 21 + 1 + 7 + (15 + 18 + 6) + 6 + 3 + 15 };
    expect(ops).toEqual({ mul: root.mul + (n - 1) * body.mul, add: root.add + (n - 1) * body.add, div: 0, fn: 2 * n });
  });

  it('the compiled inverse dynamics of the chain grows linearly in n, like the RNEA, and stays within 2x of its count', () => {
    const ops = [32, 48, 64].map((n) => {
      const inv = compile(chain({ n }), { problem: 'inverse' });
      const oracle = rneaCounted(chainTree(n, chainParameters), new Array(n).fill(0.1), new Array(n).fill(0.2), new Array(n).fill(0.3)).ops;
      console.log(
        `chain n = ${n}: compiled inverse ${JSON.stringify(inv.report.ops)} = ${total(inv.report.ops)}, counted RNEA ${JSON.stringify(oracle)} = ${total(oracle)}, ratio ${(total(inv.report.ops) / total(oracle)).toFixed(2)}`,
      );
      // the library resolves every frame in world coordinates (dense R, R I R^T per body), the RNEA in body coordinates
      expect(total(inv.report.ops)).toBeLessThan(2 * total(oracle));
      return total(inv.report.ops);
    });
    // O(n): the same cost per body from 32 to 48 and from 48 to 64 (within 5 %)
    expect(Math.abs((ops[2] - ops[1]) / (ops[1] - ops[0]) - 1)).toBeLessThan(0.05);
  });
});
