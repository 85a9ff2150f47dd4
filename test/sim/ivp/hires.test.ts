// HIRES (hires.f of the test set): 8 reactions of plant physiology, mildly
// stiff (the test set's description), to t = 321.8122.
import { describe, expect, it } from 'vitest';
import { HIRES_REFERENCE, hires, mescd, scd, solve } from './ivp.ts';

describe('RADAU5 on HIRES', () => {
  it('meets hires.f reference at rtol = atol = h0 = 1e-7 (the mixed error the test set reports), analytic and difference Jacobian alike', () => {
    for (const jacobian of [true, false]) {
      const { y, stats } = solve(hires, { rtol: 1e-7, atol: 1e-7, h0: 1e-7, jacobian });
      // atol = rtol: components of 1e-4 are weighed absolutely, so the measure is mescd (atol/rtol = 1); one digit of margin
      expect(mescd(y, HIRES_REFERENCE, 1)).toBeGreaterThan(6);
      expect(stats.steps).toBeLessThan(200);
    }
  });
  it('meets it in relative digits with a tight absolute tolerance', () => {
    const { y } = solve(hires, { rtol: 1e-7, atol: 1e-11, h0: 1e-7 });
    expect(scd(y, HIRES_REFERENCE)).toBeGreaterThan(6);
  });
});
