// Exact derivatives through kinematic loops (src/codegen/plan-tangents.ts:
// the torn blocks' implicit tangents; dynamics-derivatives.ts: Carpentier &
// Mansard's identities on the loop's reduced equations) against
// fourth-order central differences of compiled code, the independent
// oracle: the forward code, torn and relaxed, re-solves the loop (its Newton
// iteration) at every perturbed state, so its differences move the
// dependent joints consistently. The inverse model is compiled torn and
// relaxed too: both must give the same derivatives.
import { describe, expect, it } from 'vitest';
import { type CompileOptions, compile } from '../../src/compile.ts';
import type { CompiledModel, Mechanism } from '../../src/index.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import fourbarPlanar from '../../mechanisms/fourbar-planar.ts';
import sixbar from '../../mechanisms/sixbar.ts';
import slidercrank from '../../mechanisms/slidercrank.ts';
import { buildMechanism } from '../../bench/fuzz/describe.ts';
import { generate } from '../../bench/fuzz/generate.ts';
import { prng } from './cases.ts';
import { forwardDynamics, jacobian, relative } from './differences.ts';

const TOL = 1e-8;
/**
 * The differences' step: 3e-5, not the trees' 1e-3. A random loop near a
 * singular position has large higher derivatives (fuzz seed 2: dtau/dq
 * 1800, the difference with step 1e-3 off by 1e-5 relative, with 3e-4 by
 * 8e-8, 1e-4 by 1e-9, 3e-5 by 2e-11: the truncation error, converging to the
 * generated value); the rounding and the forward code's Newton tolerance
 * at 3e-5 stay below 1e-10.
 */
const H = 3e-5;
const vector = (n: number, rnd: () => number, s: number) => Float64Array.from({ length: n }, () => s * (2 * rnd() - 1));
const mulMV = (A: Float64Array, v: ArrayLike<number>) => Float64Array.from(v, (_, i) => Array.from(v).reduce((s, x, j) => s + A[i * v.length + j] * x, 0));

/**
 * each model compiled once per set of options in this file: the forward and inverse models the tests and
 * point() ask for again are the same compiles (a compiled model's evaluations do not change it)
 */
const compiledOnce = new Map<() => Mechanism, Map<string, CompiledModel>>();
function compiled(build: () => Mechanism, options: CompileOptions = {}): CompiledModel {
  const byOptions = compiledOnce.get(build) ?? compiledOnce.set(build, new Map()).get(build)!;
  const key = JSON.stringify(options);
  if (!byOptions.has(key)) byOptions.set(key, compile(build(), options));
  return byOptions.get(key)!;
}

/** seeded random loop mechanisms of the fuzzer (small: one or two loops, few links) that compile for the inverse problem, one per shape */
function randomLoops(count: number): { name: string; build: () => Mechanism }[] {
  const out: { name: string; build: () => Mechanism }[] = [];
  const shapes = new Set<string>();
  for (let seed = 1; out.length < count && seed < 200; seed++) {
    const spec = generate(seed, { small: true });
    if (spec.cuts.length === 0 || shapes.has(spec.shape)) continue;
    shapes.add(spec.shape);
    const build = () => buildMechanism(generate(seed, { small: true }));
    try {
      compiled(build, { problem: 'inverse' });
    } catch {
      continue; // the fuzzer's compile-error class: not this test's subject
    }
    out.push({ name: `fuzz seed ${seed} (${spec.shape})`, build });
  }
  return out;
}

const named = [
  { name: 'four-bar (spatial)', build: fourbar },
  { name: 'four-bar (planar)', build: fourbarPlanar },
  { name: 'six-bar', build: sixbar },
  { name: 'slider-crank', build: slidercrank },
];
const all = [...named, ...randomLoops(5)];

/** a point near the assembled start: the state joints' start values moved a little, so each loop's Newton stays on its branch */
function point(build: () => Mechanism, n: number, seed: number) {
  const fwd = compiled(build);
  const inv = compiled(build, { problem: 'inverse' });
  const x0 = fwd.x0(),
    rnd = prng(seed);
  const q = Float64Array.from(inv.coordinates, (k) => x0[fwd.stateNames.indexOf(k.q)] + 0.05 * (2 * rnd() - 1));
  return { q, qd: vector(n, rnd, 1), tau: vector(n, rnd, 2), qdd: vector(n, rnd, 3), rnd };
}

describe('loops: dqdd/d(q, qd, tau) against fourth-order differences of the forward code, torn and relaxed (1e-8)', () => {
  for (const t of all) {
    it(t.name, () => {
      const inv = compiled(t.build, { problem: 'inverse' });
      const n = inv.coordinates.length;
      const { q, qd, tau } = point(t.build, n, 11 + n);
      const d = inv.forwardDerivatives(q, qd, tau);
      for (const mode of ['torn', 'relaxed'] as const) {
        const fd = forwardDynamics(compiled(t.build, { mode }), inv.coordinates);
        expect(relative(d.qdd, fd(q, qd, tau)), `qdd, ${mode}`).toBeLessThanOrEqual(1e-10);
        expect(
          relative(
            d.dqdd_dq,
            jacobian((x) => fd(x, qd, tau), q, H),
          ),
          `dqdd/dq, ${mode}`,
        ).toBeLessThanOrEqual(TOL);
        expect(
          relative(
            d.dqdd_dqd,
            jacobian((x) => fd(q, x, tau), qd, H),
          ),
          `dqdd/dqd, ${mode}`,
        ).toBeLessThanOrEqual(TOL);
        expect(
          relative(
            d.dqdd_dtau,
            jacobian((x) => fd(q, qd, x), tau, H),
          ),
          `dqdd/dtau, ${mode}`,
        ).toBeLessThanOrEqual(TOL);
      }
    });
  }
});

describe('loops: dtau/d(q, qd, qdd) against differences of the inverse code, the tangents, and M; the inverse model torn and relaxed agree', () => {
  for (const t of all) {
    it(t.name, () => {
      const [torn, relaxed] = (['torn', 'relaxed'] as const).map((mode) => compiled(t.build, { problem: 'inverse', mode }));
      const n = torn.coordinates.length;
      const { q, qd, qdd, tau, rnd } = point(t.build, n, 11 + n);
      const id = (a: ArrayLike<number>, b: ArrayLike<number>, c: ArrayLike<number>) => Float64Array.from(torn.inverse(0, a, b, c));
      const d = torn.inverseDerivatives(q, qd, qdd);
      expect(relative(d.tau, id(q, qd, qdd)), 'tau').toBeLessThanOrEqual(1e-12);
      expect(
        relative(
          d.dtau_dq,
          jacobian((x) => id(x, qd, qdd), q, H),
        ),
        'dtau/dq',
      ).toBeLessThanOrEqual(TOL);
      expect(
        relative(
          d.dtau_dqd,
          jacobian((x) => id(q, x, qdd), qd, H),
        ),
        'dtau/dqd',
      ).toBeLessThanOrEqual(TOL);
      expect(
        relative(
          d.dtau_dqdd,
          jacobian((x) => id(q, qd, x), qdd, H),
        ),
        'dtau/dqdd',
      ).toBeLessThanOrEqual(TOL);
      // the generated M (the tangents along qdd) against n + 1 evaluations of the inverse code
      const run = torn.inverseDynamics();
      expect(relative(run.massMatrix(q), run.massMatrixByColumns(q)), 'M').toBeLessThanOrEqual(1e-12);
      // the relaxed inverse model: the same numbers
      const r = relaxed.inverseDerivatives(q, qd, qdd);
      for (const k of ['tau', 'dtau_dq', 'dtau_dqd', 'dtau_dqdd'] as const) expect(relative(r[k], d[k]), `relaxed ${k}`).toBeLessThanOrEqual(1e-10);
      // one direction: ID' and FD' against the Jacobians times the direction
      const [dq, dqd, dqdd] = [vector(n, rnd, 1), vector(n, rnd, 1), vector(n, rnd, 1)];
      const jvp = run.inverseTangent(q, qd, qdd, dq, dqd, dqdd);
      const want = [mulMV(d.dtau_dq, dq), mulMV(d.dtau_dqd, dqd), mulMV(d.dtau_dqdd, dqdd)].reduce((s, v) => s.map((x, i) => x + v[i]));
      expect(relative(jvp.dtau, want), 'ID along a direction').toBeLessThanOrEqual(1e-11);
      const f = run.forwardDerivatives(q, qd, tau),
        fwd = run.forwardTangent(q, qd, tau, dq, dqd, dqdd);
      const fwant = [mulMV(f.dqdd_dq, dq), mulMV(f.dqdd_dqd, dqd), mulMV(f.dqdd_dtau, dqdd)].reduce((s, v) => s.map((x, i) => x + v[i]));
      expect(relative(fwd.dqdd, fwant), 'FD along a direction').toBeLessThanOrEqual(1e-10);
    });
  }
});
