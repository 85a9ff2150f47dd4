// The RK4 sampling grid's times: timeAt(k, h) computes by arithmetic what
// Number((k h).toPrecision(14)) computes through a string (rk4.ts), and must
// give the very same double for every k and h, or runs would change.
import { describe, expect, it } from 'vitest';
import { timeAt } from '../../src/sim/steppers/rk4.ts';
import { rng } from '../../src/bench/timing.ts';

/** the definition: k h rounded to 14 significant digits, through its decimal string */
const byString = (k: number, h: number) => Number((k * h).toPrecision(14));

/** the k in [0, n] whose times differ from the definition's */
function mismatches(h: number, n: number): number[] {
  const bad: number[] = [];
  for (let k = 0; k <= n; k++) if (!Object.is(timeAt(k, h), byString(k, h))) bad.push(k);
  return bad;
}

describe('timeAt: the RK4 grid without a string', () => {
  it('lands on the decimal grid where k h does not', () => {
    expect(9 * 1e-3).not.toBe(0.009);
    expect(timeAt(9, 1e-3)).toBe(0.009);
    expect(timeAt(0, 1e-3)).toBe(0);
    expect(timeAt(3, 0.1)).toBe(0.3);
  });

  it('equals Number((k h).toPrecision(14)) for the usual steps, k up to 200000', () => {
    for (const h of [1e-3, 1e-4, 5e-4, 2.5e-4, 2e-3, 0.01, 0.05, 0.1, 1e-5, 1e-6, 1 / 3, 0.3, 1]) expect(mismatches(h, 200000), `h = ${h}`).toEqual([]);
  });

  it('equals it for steps of 15 significant digits ending in 5, whose multiples fall next to a half in the 14th digit', () => {
    for (const h of [1.00000000000005e-3, 1.23456789012345e-4, 3.33333333333335e-2, 7.77777777777775e-6, 0.100000000000005])
      expect(mismatches(h, 100000), `h = ${h}`).toEqual([]);
  });

  it('equals it for seeded random steps from 1e-9 to 10, and past the fast range', () => {
    const u = rng(30);
    for (let i = 0; i < 40; i++) {
      const h = 10 ** (-9 + 10 * u()) * (1 + u());
      expect(mismatches(h, 20000), `h = ${h}`).toEqual([]);
    }
    // times below 1e-9 and from 1e13 on take the string itself
    for (const h of [1e-12, 3e-11, 1e12, 7.5e13]) expect(mismatches(h, 2000), `h = ${h}`).toEqual([]);
  });
});
