// The torn form M(q) qdd = h of a tree mechanism is formed by the relaxed
// elimination with the qdd kept (relax.ts, keptSystem): its cost must be
// O(n^2) with the small constant of the composite-inertia recursion, not the
// sensitivities' O(n^2) per body, and it must solve the same system: the
// torn accelerations of the passive chain are those RNEA maps to zero torque
// (test/multibody/aba.test.ts checks n = 24 and n = 40, by elimination, against the ABA).
import { describe, expect, it } from 'vitest';
import chain, { parameters } from '../../mechanisms/chain.ts';
import { eliminateAliases, flatten } from '../../src/model/index.ts';
import { planModel } from '../../src/structure/plan.ts';
import { expressionOps } from '../../src/structure/cramer.ts';
import type { LinearStep } from '../../src/structure/plan-types.ts';
import { compile } from '../../src/compile.ts';
import { chainTree } from '../oracles/aba.ts';
import { rnea } from '../oracles/rnea.ts';
import { prng } from '../multibody/random-tree.ts';

const massStep = (n: number): LinearStep => {
  const plan = planModel(eliminateAliases(flatten(chain({ n }))));
  const steps = plan.steps.filter((s): s is LinearStep => s.kind === 'linear');
  expect(steps).toHaveLength(1);
  expect(steps[0].z).toHaveLength(n);
  return steps[0];
};

const formOps = (s: LinearStep) => {
  const o = expressionOps([...s.prelude.map((a) => a.expr), ...s.H, ...s.c]);
  return o.mul + o.add + o.div + o.fn;
};

describe('torn form by relaxed elimination with the qdd kept', () => {
  it('forms H and c of the chain in O(n^2) with a small constant', () => {
    const [p8, p16, p32] = [8, 16, 32].map((n) => formOps(massStep(n)) / (n * n));
    // ops = a n^2 + b n: ops/n^2 falls towards a, and a (from n = 16 and 32) is the cost per
    // entry of H: ~24 by composite inertias, ~56 by the sensitivities of every variable
    expect(p16).toBeLessThan(p8);
    expect(p32).toBeLessThan(p16);
    const a = (32 * p32 - 16 * p16) / 16;
    expect(a).toBeGreaterThan(5);
    expect(a).toBeLessThan(30);
  });

  it('gives accelerations that Newton-Euler (RNEA) maps back to zero joint torque', () => {
    const n = 16;
    const model = compile(chain({ n }), { mode: 'torn' });
    const tree = chainTree(n, parameters);
    const rnd = prng(7);
    for (let s = 0; s < 3; s++) {
      const q = Array.from({ length: n }, () => 2 * rnd() - 1);
      const qd = Array.from({ length: n }, () => 2 * rnd() - 1);
      const x = model.x0();
      model.stateNames.forEach((name, i) => {
        const k = Number(name.slice(1, name.indexOf('.'))) - 1;
        x[i] = name.endsWith('.qd') ? qd[k] : q[k];
      });
      const dx = new Float64Array(x.length);
      model.derivatives(0, x, dx);
      const qdd = new Array<number>(n);
      model.stateNames.forEach((name, i) => {
        if (name.endsWith('.qd')) qdd[Number(name.slice(1, name.indexOf('.'))) - 1] = dx[i];
      });
      // no drive: RNEA of the torn accelerations is zero torque at every joint
      const tau = rnea(tree, q, qd, qdd);
      const scale = Math.max(
        1,
        ...rnea(
          tree,
          q,
          qd,
          qdd.map(() => 0),
        ).map(Math.abs),
      );
      for (const t of tau) expect(Math.abs(t)).toBeLessThan(1e-10 * scale);
    }
  });
});

describe('torn form by columns at run time (more than 64 tearing variables)', () => {
  it('chain n = 72: the same accelerations as the relaxed form, O(n) code', () => {
    const n = 72;
    const torn = compile(chain({ n }), { mode: 'torn' });
    const relaxed = compile(chain({ n }), { mode: 'relaxed' });
    expect(torn.stateNames).toEqual(relaxed.stateNames);
    const block = torn.report.blocks.find((b) => b.tearing === n)!;
    expect(block.formedBy).toBe('columns');
    expect(block.solver).toBe('cholesky');
    // no symbolic H: the torn code is about the size of the relaxed code, not O(n^2)
    expect(torn.report.functions).toBeLessThan(3 * relaxed.report.functions);
    const rnd = prng(11);
    for (let s = 0; s < 3; s++) {
      const x = torn.x0().map(() => 2 * rnd() - 1);
      const a = new Float64Array(x.length),
        b = new Float64Array(x.length);
      torn.derivatives(0, x, a);
      relaxed.derivatives(0, Float64Array.from(x), b);
      const scale = Math.max(1, ...b.map(Math.abs));
      for (let i = 0; i < x.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThan(1e-9 * scale);
    }
  });
});
