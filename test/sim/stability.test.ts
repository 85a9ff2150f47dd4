// No silent instability with fixed steps (issue 30): RK4 at a step beyond
// its stability region for a decaying mode of the model stops with a typed
// error naming the mode's variables and the step it needs, instead of
// exiting 0 with a bounded, wrong oscillation. Oracles: RK4's amplification
// R(z) = 1 + z + z^2/2 + z^3/6 + z^4/24 (Hairer & Wanner II, IV.2) and the
// closed-form eigenvalues of a damped oscillator; the arm's answer from the
// adaptive integrator and from RK4 at a step inside the region, which agree.
import { describe, expect, it } from 'vitest';
import { Mechanism, Model, SimulationError, compile, der, eigenvalues, linearize, mul, simulate, sub } from '../../src/api.ts';
import arm from './fixtures/arm3.ts';
import { rk4Amplification, rk4Instability } from '../../src/sim/stability.ts';

describe("RK4's stability region", () => {
  it('R(z) at the known boundary points: -2.785 on the real axis, 2.828i on the imaginary', () => {
    expect(rk4Amplification(-2.78529356, 0)).toBeCloseTo(1, 6);
    expect(rk4Amplification(-2.7, 0)).toBeLessThan(1);
    expect(rk4Amplification(-2.9, 0)).toBeGreaterThan(1);
    expect(rk4Amplification(0, 2 * Math.SQRT2)).toBeCloseTo(1, 12);
    expect(rk4Amplification(-1e-3, 2.8)).toBeLessThan(1);
  });

  it("a damped oscillator x'' + 2 z w x' + w^2 x = 0: flagged exactly when |R(mu h)| > 1 for its closed-form eigenvalues", () => {
    for (const [w, zeta] of [
      [1000, 0.05],
      [1000, 2],
      [300, 0.7],
    ]) {
      const mu = zeta < 1 ? { re: -zeta * w, im: w * Math.sqrt(1 - zeta * zeta) } : { re: -w * (zeta + Math.sqrt(zeta * zeta - 1)), im: 0 };
      const f = (dx: Float64Array, x: Float64Array) => {
        dx[0] = x[1];
        dx[1] = -w * w * x[0] - 2 * zeta * w * x[1];
      };
      for (const h of [1e-4, 1e-3, 2e-3, 5e-3, 1e-2]) {
        const found = rk4Instability(f, new Float64Array([0.1, 0]), h);
        const exact = rk4Amplification(mu.re * h, mu.im * h);
        expect(found !== undefined, `w ${w} zeta ${zeta} h ${h}: |R| ${exact}`).toBe(exact > 1 + 1e-6);
        if (found) {
          expect(found.re).toBeCloseTo(mu.re, 3);
          expect(Math.abs(found.im)).toBeCloseTo(mu.im, 3);
          expect(rk4Amplification(found.re * found.stableStep, found.im * found.stableStep)).toBeLessThanOrEqual(1);
          expect(rk4Amplification(found.re * found.stableStep * 1.001, found.im * found.stableStep * 1.001)).toBeGreaterThan(1);
        }
      }
    }
  });
});

describe('the 3-link PD arm of issue 30 (kp 200, kd 30; fixtures/arm3.ts)', () => {
  const compiled = compile(arm());
  const run = (options: object) => simulate(compiled, { stop: 3, step: 1e-3, interval: 0.5, signals: ['j1.q', 'pd1.tau'], ...options });

  it("RK4 at h = 1e-3 stops at t = 0 with a SimulationError naming the fast mode's variables and a step that works", () => {
    let error: unknown;
    try {
      run({ integrator: 'rk4' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SimulationError);
    const e = error as SimulationError;
    expect(e.message).toMatch(/fixed-step RK4 at step 0\.001 is unstable for this model at time 0/);
    expect(e.message).toMatch(/eigenvalue -3\d\d\d/);
    expect(e.details.variables!.some((v) => /^j\d\.qd$/.test(v))).toBe(true);
    expect(e.details.hint).toMatch(/--integrator radau/);
    // the step it names works, and gives the adaptive integrator's answer
    const step = Number(/--step ([\d.e-]+)/.exec(e.details.hint!)![1]);
    expect(step).toBeLessThan(1e-3);
    const [fixed, adaptive] = [run({ integrator: 'rk4', step, interval: 0.5 }), run({ integrator: 'adaptive', rtol: 1e-10, atol: 1e-12 })];
    expect(fixed.get('j1.q').at(-1)).toBeCloseTo(0.39476, 5);
    expect(fixed.get('pd1.tau').at(-1)).toBeCloseTo(21.05, 2);
    expect(Math.abs(fixed.get('j1.q').at(-1)! - adaptive.get('j1.q').at(-1)!)).toBeLessThan(1e-9);
  });

  it('the default (auto) finds the same mode at t = 0, goes on with radau and gets the answer', () => {
    const r = run({});
    const checked = run({ integrator: 'adaptive', rtol: 1e-10, atol: 1e-12 });
    expect(r.integration!.integrator).toBe('radau');
    expect(r.integration!.switched!.time).toBe(0);
    expect(r.integration!.switched!.reason).toMatch(
      /^fixed-step RK4 at step 0\.001 is unstable for this model at time 0: the mode with eigenvalue -3\d\d\d 1\/s/,
    );
    // radau at its default tolerances (rtol 1e-6) against Cash-Karp at rtol 1e-10
    for (const name of ['j1.q', 'pd1.tau'] as const) {
      r.get(name).forEach((v, k) => expect(Math.abs(v - checked.get(name)[k])).toBeLessThan(1e-4 * Math.max(1, Math.abs(v))));
    }
    expect(r.get('j1.q').at(-1)).toBeCloseTo(0.39476, 5);
  });

  it('--unsafe-step runs it anyway, and the answer is the wrong one the check prevents', () => {
    const r = run({ unsafeStep: true });
    expect(Math.abs(r.get('pd1.tau').at(-1)! - 21.05)).toBeGreaterThan(1);
  });
});

describe('a model that becomes stiff between two checks', () => {
  it('a run that blows up there stops with the mode that did it: the state grew tenfold, so it was checked again', () => {
    // x'' = -k x - 0.1 x': k = 1 until t = 1.5, then 1e8 (eigenvalues -0.05 ± 1e4 i, beyond RK4's 2.83/h at h = 1e-3);
    // the checks run at t = 0 and t = 1, so the blow-up comes between them
    const m = new Model('stiffens');
    const x = m.variable('x', { start: 1 }),
      v = m.variable('v', { start: 0 });
    const k = m.input('k');
    m.equation(der(x), v);
    m.equation(der(v), sub(mul(-1, mul(k, x)), mul(0.1, v)));
    let error: unknown;
    try {
      simulate(compile(m), { stop: 1.9, step: 1e-3, integrator: 'rk4', inputs: { k: (t) => (t < 1.5 ? 1 : 1e8) } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SimulationError);
    const e = error as SimulationError;
    expect(e.message).toMatch(/fixed-step RK4 at step 0\.001 is unstable for this model at time 1\.[5-9]/);
    // the mode's closed-form eigenvalues: -0.05 ± i sqrt(1e8 - 0.0025)
    // (its eigenvector is v = ±1e4 i x: v names it)
    expect(e.message).toMatch(/eigenvalue -0\.05000 ± 1\.000e\+4i 1\/s \(v\)/);
  });
});

describe('fuzz: the check against the exact spectrum of kron linearize', () => {
  // seeded random chains of 2-8 links on revolute joints with random springs and dampers (stiff and soft),
  // under gravity; the oracle: every eigenvalue of A (exact symbolic linearization, analysis/linearize.ts)
  // against RK4's amplification at random steps. Arnoldi sees the whole spectrum up to 20 states.
  it('30 chains x 4 steps: flagged exactly when an exact decaying eigenvalue has |R(mu h)| > 1 (away from |R| = 1 by 1e-3)', () => {
    let seed = 30;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    let flagged = 0,
      judged = 0;
    for (let k = 0; k < 30; k++) {
      const n = 2 + Math.floor(rnd() * 7);
      const m = new Mechanism(`chain${k}`);
      let at = m.world.frame_b;
      for (let i = 0; i < n; i++) {
        const j = m.revolute(`j${i + 1}`, {
          axis: [rnd() - 0.5, rnd() - 0.5, 1],
          q: rnd() - 0.5,
          qd: rnd() - 0.5,
          c: 10 ** (4 * rnd()),
          d: 10 ** (3 * rnd() - 1),
        });
        const b = m.body(`b${i + 1}`, { m: 0.2 + rnd(), rcm: [0.1 + 0.2 * rnd(), 0, 0], I: [0.01, 0.01 + 0.01 * rnd(), 0.01 + 0.01 * rnd()] });
        const bar = m.bar(`o${i + 1}`, { r: [0.3, 0, 0] });
        m.connect(at, j.frame_a);
        m.connect(j.frame_b, b.frame_a);
        m.connect(j.frame_b, bar.frame_a);
        at = bar.frame_b;
      }
      const compiled = compile(m);
      const exact = eigenvalues(linearize(compiled).A);
      const state = compiled.createState();
      const x = state.x0();
      for (let s = 0; s < 4; s++) {
        const h = 10 ** (-4 + 2 * rnd());
        const worst = Math.max(0, ...exact.filter((e) => e.re < 0).map((e) => rk4Amplification(e.re * h, e.im * h)));
        if (Math.abs(worst - 1) < 1e-3) continue; // on the boundary: either verdict is right
        judged++;
        const found = rk4Instability((dx, y) => state.derivatives(0, y, dx), x, h);
        expect(found !== undefined, `chain ${k} (${n} links) at h ${h}: exact max |R| ${worst}`).toBe(worst > 1);
        if (found) flagged++;
      }
    }
    // both verdicts occur, or the test would test nothing
    expect(flagged).toBeGreaterThan(10);
    expect(judged - flagged).toBeGreaterThan(10);
  });
});
