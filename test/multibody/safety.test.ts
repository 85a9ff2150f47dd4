// Never silently wrong (issue 13): just outside the well-behaved shapes the
// two forms either agree with each other and with an independent oracle, or
// both stop with the same typed error.
//   - relaxed pivots that cannot be trusted hand the loop to its torn form
//     (plan-types.ts, Checked), which judges singularity on the equilibrated
//     matrix (codegen/runtime.ts);
//   - a loop at a dead point, or Newton leaving its assembly branch, stops
//     (change points: change-points.test.ts);
//   - NaN or an infinity in the derivatives is an error.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { SimulationError } from '../../src/errors.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import buildPlanar from '../../mechanisms/fourbar-planar.ts';
import blowup from '../errors/fixtures/blowup.ts';
import { aba } from '../oracles/aba.ts';
import type { RneaTree } from '../oracles/rnea.ts';
import { heavyLightBranches } from './branches.ts';
import { identity } from '../oracles/rnea.ts';

const modes = ['torn', 'relaxed'] as const;

/** the state derivatives at x (start values unless given), or the error they raise */
function evaluate(c: CompiledModel, x = c.x0()): Float64Array | Error {
  const dx = new Float64Array(x.length);
  try {
    c.derivatives(0, x, dx);
    return dx;
  } catch (e) {
    return e as Error;
  }
}

/** max |a - b| over max |b|, norm-wise */
function relativeDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0,
    s = 0;
  for (let i = 0; i < b.length; i++) {
    d = Math.max(d, Math.abs(a[i] - b[i]));
    s = Math.max(s, Math.abs(b[i]));
  }
  return d / s;
}

/** the chain of mechanisms/chain.ts with link `heavy` of mass M, and the same chain for the ABA oracle */
function heavyChain(n: number, heavy: number, M: number): { mech: Mechanism; tree: RneaTree } {
  const mech = new Mechanism('heavy');
  const L = 0.3;
  const tree: RneaTree = { bodies: [], gravity: [0, -9.80665, 0] };
  let parent = mech.world.frame_b;
  for (let k = 1; k <= n; k++) {
    const m = k === heavy ? M : 1;
    const axis: [number, number, number] = k % 2 ? [0, 0, 1] : [0, 1, 0];
    const I: [number, number, number] = [m * 1e-4, (m * L * L) / 12, (m * L * L) / 12];
    const j = mech.revolute(`j${k}`, { axis, q: 0.2 * ((k % 3) - 1), qd: 0.3 });
    const body = mech.body(`b${k}`, { m, rcm: [L / 2, 0, 0], I });
    const bar = mech.bar(`bar${k}`, { r: [L, 0, 0] });
    mech.connect(parent, j.frame_a);
    mech.connect(j.frame_b, body.frame_a);
    mech.connect(j.frame_b, bar.frame_a);
    parent = bar.frame_b;
    tree.bodies.push({ parent: k - 2, joint: 'revolute', axis, E: identity(), o: k === 1 ? [0, 0, 0] : [L, 0, 0], m, c: [L / 2, 0, 0], I: [...I, 0, 0, 0] });
  }
  return { mech, tree };
}

/** the accelerations of the oracle at the chain's start state */
function oracleAccelerations(tree: RneaTree, n: number): number[] {
  const q = Array.from({ length: n }, (_, i) => 0.2 * (((i + 1) % 3) - 1));
  return aba(
    tree,
    q,
    q.map(() => 0.3),
    q.map(() => 0),
  ).qdd;
}

const accelerations = (dx: Float64Array) => [...dx].filter((_, i) => i % 2 === 1);

describe('a chain of 8 with one link of 1e12 kg (ill-conditioned, regular)', () => {
  it.each([4, 8])('heavy link %i: both modes answer, agree with each other and with the ABA oracle', (heavy) => {
    const { tree } = heavyChain(8, heavy, 1e12);
    const want = oracleAccelerations(tree, 8);
    const got = modes.map((mode) => {
      const c = compile(heavyChain(8, heavy, 1e12).mech, { mode });
      const dx = evaluate(c);
      if (dx instanceof Error) throw dx;
      return { qdd: accelerations(dx), fallbacks: c.fallbackEvaluations() };
    });
    // M's condition number is 1e14 either way. With the heavy link at the tip the root's articulated
    // inertia is 8e-12 of the heavy link's: below PIVOT_EPS (1e-9), so the relaxed form hands the
    // evaluation to the torn one and both give its answer. Every double-precision method loses
    // digits there: against a 60-digit solution (mpmath) the torn form is off by 7.0e-4 of max |qdd|,
    // the articulated-body recursion (relaxed before the check, or the oracle ABA) by 4.1e-5. In the
    // middle all three are within 5e-15 of it, and no pivot is below 1e-9.
    expect(got[1].fallbacks).toBe(heavy === 8 ? 1 : 0);
    expect(relativeDifference(got[0].qdd, got[1].qdd)).toBeLessThan(1e-13);
    expect(relativeDifference(got[1].qdd, want)).toBeLessThan(heavy === 8 ? 1e-3 : 1e-13);
  });
});

describe('singular mass matrices: both modes stop with the same message', () => {
  const collinear = () => {
    // two revolutes about z with no body between them: they turn the same body about the same axis
    const m = new Mechanism('collinear');
    const j1 = m.revolute('j1', { axis: [0, 0, 1] }),
      j2 = m.revolute('j2', { axis: [0, 0, 1] });
    const b = m.body('b', { m: 1, rcm: [0.5, 0, 0], I: [0.01, 0.02, 0.03] });
    m.connect(m.world.frame_b, j1.frame_a);
    m.connect(j1.frame_b, j2.frame_a);
    m.connect(j2.frame_b, b.frame_a);
    return m;
  };
  const ballWithPointMass = (rcm: [number, number, number]) => () => {
    // a point mass has no inertia about the line through it and the joint centre
    const m = new Mechanism('ball');
    const s = m.spherical('s', { q: [0.1, 0.2, 0.3] });
    const b = m.body('b', { m: 1, rcm, I: [0, 0, 0] });
    m.connect(m.world.frame_b, s.frame_a);
    m.connect(s.frame_b, b.frame_a);
    return m;
  };
  const cases: [string, () => Mechanism][] = [
    ['a massless link between collinear revolutes', collinear],
    ['a point mass on a ball joint', ballWithPointMass([0.5, 0.1, 0])],
    ['a point mass at the centre of a ball joint', ballWithPointMass([0, 0, 0])],
  ];
  it.each(cases)('%s', (_, build) => {
    const [torn, relaxed] = modes.map((mode) => evaluate(compile(build(), { mode })));
    expect(torn).toBeInstanceOf(SimulationError);
    expect(relaxed).toBeInstanceOf(SimulationError);
    expect((torn as Error).message).toMatch(/is singular at time 0/);
    expect((relaxed as Error).message).toBe((torn as Error).message);
  });
});

describe("a relaxed pivot below 1e-9 of the loop's largest", () => {
  const branches = heavyLightBranches;
  const tree: RneaTree = {
    gravity: [0, -9.80665, 0],
    bodies: [
      { parent: -1, joint: 'revolute', axis: [0, 1, 0], E: identity(), o: [0, 0, 0], m: 1, c: [0.1, 0, 0], I: [0.01, 0.02, 0.03, 0, 0, 0] },
      { parent: 0, joint: 'revolute', axis: [0, 0, 1], E: identity(), o: [0, 0.2, 0], m: 1e12, c: [0.3, 0.1, 0], I: [1e10, 2e10, 3e10, 0, 0, 0] },
      { parent: 0, joint: 'revolute', axis: [0, 0, 1], E: identity(), o: [0, -0.2, 0], m: 1, c: [0.3, 0.1, 0], I: [0.01, 0.02, 0.03, 0, 0, 0] },
    ],
  };

  it('is solved again by the torn form in the same evaluation, agreeing with torn mode and the oracle', () => {
    const relaxed = compile(branches(), { mode: 'relaxed' });
    const torn = compile(branches(), { mode: 'torn' });
    expect(relaxed.report.relaxedLoops).toEqual([expect.objectContaining({ checkedPivots: 3, fallback: 'cholesky' })]);
    const [a, b] = [relaxed, torn].map((c) => evaluate(c) as Float64Array);
    expect(relaxed.fallbackEvaluations()).toBe(1);
    expect(torn.fallbackEvaluations()).toBe(0);
    expect(relativeDifference(a, b)).toBeLessThan(1e-12);
    // the joints in declaration order j0, jheavy, jlight are the oracle's bodies 0, 1, 2
    const want = aba(tree, [0.3, 0.4, 0.4], [0.2, -0.5, -0.5], [0, 0, 0]).qdd;
    expect(relativeDifference(accelerations(a), want)).toBeLessThan(1e-9);
    // and every other signal of the loop comes from the fallback too (outputs pass skipped)
    expect(Number.isFinite(relaxed.signal('jlight.frame_b.f[1]'))).toBe(true);
    expect(relaxed.signal('jlight.frame_b.f[1]')).toBeCloseTo(torn.signal('jlight.frame_b.f[1]'), 6);
  });
});

describe('kinematic loops at singular positions', () => {
  // a + d = b + c: the coupler and the rocker fold onto one line at theta2 = pi (a change point)
  const dims = { a: 0.2, b: 0.4, c: 0.4, d: 0.6 };

  it('a four-bar started 3e-15 rad from its change point stops, naming the loop', () => {
    for (const mode of modes) {
      const c = compile(buildPlanar({ ...dims, theta2: 3.14159265358979, w: 4 }), { mode });
      const e = evaluate(c);
      expect(e).toBeInstanceOf(SimulationError);
      expect((e as Error).message).toMatch(
        /^the kinematic loop cut at j3 \(joints j2, j1, j4\) is at a singular position at time 0: its constraint Jacobian is ill-conditioned \(condition estimate \d\.\de\+5\)/,
      );
    }
  });

  it("started at theta2 = 3 it runs on Freudenstein's equation up to the change point, and stops there (change-points.test.ts)", () => {
    const K1 = dims.d / dims.a,
      K2 = dims.d / dims.c,
      K3 = (dims.a ** 2 - dims.b ** 2 + dims.c ** 2 + dims.d ** 2) / (2 * dims.a * dims.c);
    const c = compile(buildPlanar({ ...dims, theta2: 3, w: 4 }));
    const res = simulate(c, { stop: 0.029, step: 1e-3, signals: ['j1.q', 'j4.q'] });
    const t2 = res.get('j1.q'),
      t4 = res.get('j4.q');
    for (let k = 0; k < res.length; k++) expect(Math.abs(K1 * Math.cos(t4[k]) - K2 * Math.cos(t2[k]) + K3 - Math.cos(t2[k] - t4[k]))).toBeLessThan(1e-9);
    expect(() => simulate(c, { stop: 0.1, step: 1e-3 })).toThrow(
      /^the kinematic loop cut at j3 \(joints j2, j1, j4\) may have left its assembly branch between time 0\.03 and 0\.0305/,
    );
  });

  it('a step too large for the loop to follow stops with the assembly-branch error', () => {
    const c = compile(buildPlanar({ w: 30 }));
    // Newton lands on the mirror assembly: the sign of the constraint Jacobian's determinant changes
    // (unsafeStep: at h = 0.05 the linkage's damped mode, -60 1/s, is beyond RK4's region, which stops an rk4 run first)
    expect(() => simulate(c, { stop: 1, step: 0.05, integrator: 'rk4' })).toThrow(/^fixed-step RK4 at step 0\.05 is unstable for this model at time 0/);
    expect(() => simulate(c, { stop: 1, step: 0.05, unsafeStep: true })).toThrow(
      /^the kinematic loop cut at j3 \(joints j2, j1, j4\) left its assembly branch between time 0\.025 and 0\.05/,
    );
    // the same motion at a step that resolves it runs
    expect(() => simulate(compile(buildPlanar({ w: 30 })), { stop: 1, step: 0.005 })).not.toThrow();
    // so does the default (auto), by radau from t = 0 (its first step, 0.05, lands stages on the mirror assembly, which its
    // trial evaluations see as errors and shorten the step: settings.trial), to the motion of RK4 at a tenth of the step
    const fine = simulate(compile(buildPlanar({ w: 30 })), { stop: 1, step: 5e-4, interval: 0.05 });
    const auto = simulate(c, { stop: 1, step: 0.05 });
    expect(auto.integration!.switched!.time).toBe(0);
    for (const n of c.stateNames) auto.get(n).forEach((v, k) => expect(Math.abs(v - fine.get(n)[k])).toBeLessThan(1e-4 * Math.max(1, Math.abs(v))));
  });
});

describe('non-finite derivatives', () => {
  it('derivatives() raises a SimulationError naming the first non-finite variable, never returns NaN', () => {
    const c = compile(blowup());
    const e = evaluate(c, Float64Array.of(1));
    expect(e).toBeInstanceOf(SimulationError);
    expect((e as Error).message).toBe('the state derivatives are not finite at time 0: first non-finite variable g (g = 1/(1 - x))');
  });
});
