// Van der Pol's oscillator, stiff, in Hairer's scaled form (vdpol.f of the
// test set): y1' = y2, ε y2' = (1 - y1²) y2 - y1 on [0, 2], which is
// x'' - μ (1 - x²) x' + x = 0 with μ = ε^(-1/2) and time scaled by μ. So
// ε = 1e-6 is μ = 1e3 and ε = 1e-12 is μ = 1e6.
import { describe, expect, it } from 'vitest';
import { VDPOL_REFERENCE, mescd, scd, solve, vdpol } from './ivp.ts';

/**
 * y(t) on the limit of the relaxation oscillation, an oracle independent of
 * any integrator: on a slow branch (1 - y1²) y2 = y1 + O(ε), so y1 follows
 * y1' = y1 / (1 - y1²), i.e. G(y1) = ln|y1| - y1²/2 grows like t; each jump
 * (at |y1| = 1, to ∓2) comes half a period T after the last, with
 * Dorodnitsyn's period T = 3 - 2 ln 2 + 3 a ε^(2/3) + O(ε ln(1/ε)) (a = 2.33811,
 * the first zero of Ai(-x)), in the scaled time. Starting at y1 = 2, the
 * branch's G(2) fixes the phase.
 */
function relaxationOracle(eps: number, t: number): [number, number] {
  const a = 2.338107410459767;
  const T = 3 - 2 * Math.log(2) + 3 * a * eps ** (2 / 3);
  const G = (y: number) => Math.log(y) - (y * y) / 2;
  const halves = Math.floor(t / (T / 2));
  const target = t - (halves * T) / 2 + G(2);
  let lo = 1,
    hi = 2; // G falls from -0.5 at 1 to ln 2 - 2 at 2: bisection for G(y) = target
  for (let k = 0; k < 100; k++) {
    const mid = (lo + hi) / 2;
    if (G(mid) > target) lo = mid;
    else hi = mid;
  }
  const y1 = (halves % 2 ? -1 : 1) * ((lo + hi) / 2);
  return [y1, y1 / (1 - y1 * y1)];
}

describe('RADAU5 on Van der Pol (stiff)', () => {
  it("follows Hairer's radau5.f step for step on his driver's problem (ε = 1e-6, y0 = (2, -0.6), rtol = atol = 1e-4, h0 = 1e-6)", () => {
    // radau5.f's own output for this run, as cpmech/russell's port checks itself against it
    // (russell_ode/tests/test_radau5_van_der_pol.rs): y(2) and the statistics FCN, JAC, DEC, NACCPT, NSTEP
    const fortran = { y: [1.706163410178079, -0.8927971289301175], evaluations: 2248, jacobians: 162, decompositions: 253, accepted: 242, attempts: 280 };
    const { y, stats } = solve(vdpol(1e-6, [2, -0.6]), { rtol: 1e-4, atol: 1e-4, h0: 1e-6 });
    expect(Math.abs(y[0] - fortran.y[0]) / fortran.y[0]).toBeLessThan(1e-12);
    expect(Math.abs(y[1] - fortran.y[1]) / -fortran.y[1]).toBeLessThan(1e-11);
    // same decisions (accepted 242, f 2248, J 162); the LU count may differ by the end-game (one refactorisation)
    const near = (ours: number, theirs: number) => expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(Math.ceil(0.01 * theirs));
    near(stats.steps, fortran.accepted);
    near(stats.steps + stats.rejected, fortran.attempts);
    near(stats.evaluations, fortran.evaluations);
    near(stats.jacobians, fortran.jacobians);
    near(stats.decompositions, fortran.decompositions);
  });

  it('meets the test set reference of vdpol.f at rtol = atol = h0 = 1e-7, with the analytic and with a difference Jacobian', () => {
    for (const jacobian of [true, false]) {
      const { y, stats } = solve(vdpol(1e-6), { rtol: 1e-7, atol: 1e-7, h0: 1e-7, jacobian });
      // 7 digits asked; a local-error control gives global errors within a small multiple of the
      // tolerance on this problem (the errors made near the jumps are damped on the slow branches): one digit of margin
      expect(scd(y, VDPOL_REFERENCE)).toBeGreaterThan(6);
      expect(mescd(y, VDPOL_REFERENCE, 1)).toBeGreaterThan(6);
      expect(stats.steps).toBeLessThan(1000);
    }
  });

  it('the relaxation oracle is right: it meets vdpol.f at ε = 1e-6 to within its O(ε ln(1/ε)) = 1.4e-5', () => {
    const [y1, y2] = relaxationOracle(1e-6, 2);
    expect(Math.abs(y1 - VDPOL_REFERENCE[0])).toBeLessThan(1.4e-5);
    expect(Math.abs(y2 - VDPOL_REFERENCE[1])).toBeLessThan(1.4e-5);
  });

  it('μ = 1e6 (ε = 1e-12): meets the relaxation oracle (exact to O(1e-11)) to the tolerance, in about as many steps as μ = 1e3', () => {
    const eps = 1e-12;
    const oracle = relaxationOracle(eps, 2);
    const { y, stats } = solve(vdpol(eps), { rtol: 1e-7, atol: 1e-7, h0: 1e-7 });
    expect(scd(y, oracle)).toBeGreaterThan(6);
    // the stiffness grows a millionfold; RADAU5's steps follow the slow motion and the jumps, not the stiffness
    expect(stats.steps).toBeLessThan(2000);
  });
});
