// Robertson's chemical kinetics (rober.f of the test set): three species,
// rate constants from 0.04 to 3e7, integrated to t = 1e11 where y2 is 8e-14.
// The reactions conserve mass: y1 + y2 + y3 = 1, which a Runge-Kutta method
// keeps exactly up to rounding (linear invariants are preserved).
import { describe, expect, it } from 'vitest';
import { ROBER_REFERENCE, rober, scd, solve } from './ivp.ts';

describe('RADAU5 on Robertson (stiff, to t = 1e11)', () => {
  it("follows Hairer's radau5.f step for step to t = 0.3 (rtol 1e-2, atol 1e-8, h0 1e-6)", () => {
    // radau5.f's output as cpmech/russell checks its port against it (russell_ode/tests/test_radau5_robertson.rs)
    const fortran = {
      y: [9.886740138499884e-1, 3.44772047178207e-5, 1.12915089452939e-2],
      evaluations: 88,
      jacobians: 8,
      decompositions: 15,
      accepted: 15,
      attempts: 17,
    };
    const { y, stats } = solve(rober, { rtol: 1e-2, atol: 1e-8, h0: 1e-6, tEnd: 0.3 });
    fortran.y.forEach((v, i) => expect(Math.abs(y[i] - v) / v).toBeLessThan(1e-12));
    expect(stats).toEqual({
      steps: fortran.accepted,
      rejected: fortran.attempts - fortran.accepted,
      evaluations: fortran.evaluations,
      jacobians: fortran.jacobians,
      decompositions: fortran.decompositions,
    });
  });

  it('meets rober.f reference at t = 1e11 to the digits asked, and conserves mass', () => {
    // atol = 1e-6 rtol: y2 ~ 1e-13 at the end is then still weighed relatively
    for (const rtol of [1e-6, 1e-8, 1e-10]) {
      const { y, stats } = solve(rober, { rtol, atol: rtol * 1e-6, h0: 1e-6 });
      // one digit of margin below the digits asked (measured: 5.56, 7.65, 9.75)
      expect(scd(y, ROBER_REFERENCE)).toBeGreaterThan(-Math.log10(rtol) - 1);
      expect(Math.abs(y[0] + y[1] + y[2] - 1)).toBeLessThan(1e-14);
      expect(stats.steps).toBeLessThan(2000);
    }
  });
});
