// The generated derivatives of the dynamics (src/codegen/dynamics-derivatives.ts,
// Carpentier & Mansard's dqdd/dq = -M^-1 dID/dq on generated tangents of the
// inverse dynamics) against fourth-order central differences of compiled
// code: dqdd/d(q, qd, tau) against differences of the forward code, torn
// and relaxed (one oracle, two solve forms: they must agree too), and
// dtau/d(q, qd, qdd) against differences of the inverse code. The O(n)
// directional derivatives against the Jacobians times the direction.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { cases, prng } from './cases.ts';
import { trees } from './trees.ts';
import { forwardDynamics, jacobian, relative } from './differences.ts';

const TOL = 1e-8;
const all = [...trees.filter((t) => !t.name.startsWith('chain')), ...cases.slice(4, 10).map((c) => ({ name: c.name, build: c.mechanism }))];
const vector = (n: number, rnd: () => number, s: number) => Float64Array.from({ length: n }, () => s * (2 * rnd() - 1));
const mulMV = (A: Float64Array, v: ArrayLike<number>) => Float64Array.from(v, (_, i) => Array.from(v).reduce((s, x, j) => s + A[i * v.length + j] * x, 0));
/** each model's inverse problem compiled once for both suites below (they only evaluate it) */
const inverses = new Map<string, ReturnType<typeof compile>>();
const inverseOf = (t: (typeof all)[number]) => inverses.get(t.name) ?? inverses.set(t.name, compile(t.build(), { problem: 'inverse' })).get(t.name)!;

describe('dqdd/d(q, qd, tau) against fourth-order differences of the forward code, torn and relaxed (1e-8)', () => {
  for (const t of all) {
    it(t.name, () => {
      const inv = inverseOf(t);
      const n = inv.coordinates.length,
        rnd = prng(91 + n);
      const q = vector(n, rnd, 1.5),
        qd = vector(n, rnd, 1),
        tau = vector(n, rnd, 5);
      const d = inv.forwardDerivatives(q, qd, tau);
      for (const mode of ['torn', 'relaxed'] as const) {
        const fd = forwardDynamics(compile(t.build(), { mode }), inv.coordinates);
        expect(relative(d.qdd, fd(q, qd, tau)), `qdd, ${mode}`).toBeLessThanOrEqual(1e-10);
        expect(
          relative(
            d.dqdd_dq,
            jacobian((x) => fd(x, qd, tau), q),
          ),
          `dqdd/dq, ${mode}`,
        ).toBeLessThanOrEqual(TOL);
        expect(
          relative(
            d.dqdd_dqd,
            jacobian((x) => fd(q, x, tau), qd),
          ),
          `dqdd/dqd, ${mode}`,
        ).toBeLessThanOrEqual(TOL);
        expect(
          relative(
            d.dqdd_dtau,
            jacobian((x) => fd(q, qd, x), tau),
          ),
          `dqdd/dtau, ${mode}`,
        ).toBeLessThanOrEqual(TOL);
      }
    });
  }
});

describe('dtau/d(q, qd, qdd) against fourth-order differences of the inverse code (1e-8), and the O(n) tangents', () => {
  for (const t of all) {
    it(t.name, () => {
      const inv = inverseOf(t);
      const n = inv.coordinates.length,
        rnd = prng(17 + n);
      const q = vector(n, rnd, 1.5),
        qd = vector(n, rnd, 1),
        qdd = vector(n, rnd, 3);
      const id = (a: ArrayLike<number>, b: ArrayLike<number>, c: ArrayLike<number>) => Float64Array.from(inv.inverse(0, a, b, c));
      const d = inv.inverseDerivatives(q, qd, qdd);
      expect(relative(d.tau, id(q, qd, qdd)), 'tau').toBeLessThanOrEqual(1e-12);
      expect(
        relative(
          d.dtau_dq,
          jacobian((x) => id(x, qd, qdd), q),
        ),
        'dtau/dq',
      ).toBeLessThanOrEqual(TOL);
      expect(
        relative(
          d.dtau_dqd,
          jacobian((x) => id(q, x, qdd), qd),
        ),
        'dtau/dqd',
      ).toBeLessThanOrEqual(TOL);
      expect(
        relative(
          d.dtau_dqdd,
          jacobian((x) => id(q, qd, x), qdd),
        ),
        'dtau/dqdd',
      ).toBeLessThanOrEqual(TOL);
      // one direction: ID' = dID/dq dq + dID/dqd dqd + M dqdd; FD' = dFD/dq dq + dFD/dqd dqd + dFD/dtau dtau
      const [dq, dqd, dqdd] = [vector(n, rnd, 1), vector(n, rnd, 1), vector(n, rnd, 1)];
      const run = inv.inverseDynamics();
      const jvp = run.inverseTangent(q, qd, qdd, dq, dqd, dqdd);
      const want = [mulMV(d.dtau_dq, dq), mulMV(d.dtau_dqd, dqd), mulMV(d.dtau_dqdd, dqdd)].reduce((s, v) => s.map((x, i) => x + v[i]));
      expect(relative(jvp.tau, d.tau), 'tau of the tangent').toBeLessThanOrEqual(1e-12);
      expect(relative(jvp.dtau, want), 'ID along a direction').toBeLessThanOrEqual(1e-11);
      const tau = vector(n, rnd, 5),
        f = run.forwardDerivatives(q, qd, tau);
      const fwd = run.forwardTangent(q, qd, tau, dq, dqd, dqdd);
      const fwant = [mulMV(f.dqdd_dq, dq), mulMV(f.dqdd_dqd, dqd), mulMV(f.dqdd_dtau, dqdd)].reduce((s, v) => s.map((x, i) => x + v[i]));
      expect(relative(fwd.qdd, f.qdd), 'qdd of the tangent').toBeLessThanOrEqual(1e-12);
      expect(relative(fwd.dqdd, fwant), 'FD along a direction').toBeLessThanOrEqual(1e-10);
    });
  }
});

describe('wrong calls say so', () => {
  it('wrong lengths: a UsageError naming the coordinates', () => {
    const inv = compile(trees[0].build(), { problem: 'inverse' });
    expect(() => inv.forwardDerivatives([0, 0], [0], [0])).toThrow(/has 6 coordinates \(j1.q, j2.q/);
  });
});
