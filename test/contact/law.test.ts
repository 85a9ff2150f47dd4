// The force law at one contact against its formulas, term by term.
import { describe, expect, it } from 'vitest';
import { contactForce } from '../../src/contact/law.ts';
import type { PairMaterial } from '../../src/contact/material.ts';

const linear: PairMaterial = { k: 1e4, c: 50, mu: 0.5, law: 'linear', n: 1.5 };
const f = new Float64Array(3);
const n = [0, 1, 0];

describe('contact force law', () => {
  it("linear normal force k delta + c delta', along the normal, nothing when apart or pulling", () => {
    expect(contactForce(f, linear, -0.01, n, [0, -0.2, 0], 1e-4)).toBeCloseTo(1e4 * 0.01 + 50 * 0.2, 12);
    expect([...f]).toEqual([0, 1e4 * 0.01 + 50 * 0.2, 0]);
    expect(contactForce(f, linear, 0.01, n, [0, -0.2, 0], 1e-4)).toBe(0);
    expect([...f]).toEqual([0, 0, 0]);
    // separating faster than k delta / c: the damper would pull
    expect(contactForce(f, linear, -0.001, n, [0, 1, 0], 1e-4)).toBe(0);
  });

  it("Hunt-Crossley: delta^e (k + c delta')", () => {
    const hc: PairMaterial = { k: 1e6, c: 2, mu: 0, law: 'hunt-crossley', n: 1.5 };
    expect(contactForce(f, hc, -0.004, n, [0, -0.3, 0], 1e-4)).toBeCloseTo(0.004 ** 1.5 * (1e6 + 2 * 0.3), 9);
  });

  it('friction: Coulomb mu fn against fast slip, viscous mu fn / v_s below v_s', () => {
    const fn = contactForce(f, linear, -0.01, n, [3, 0, 4], 1e-4);
    expect(fn).toBeCloseTo(100, 12);
    // against the slip direction (0.6, 0, 0.8), magnitude mu fn / sqrt(1 + (v_s/5)^2)
    const mag = (0.5 * 100 * 5) / Math.sqrt(25 + 1e-8);
    (expect(f[0]).toBeCloseTo(-0.6 * mag, 12), expect(f[2]).toBeCloseTo(-0.8 * mag, 12));
    expect(Math.hypot(f[0], f[2]) / (0.5 * fn)).toBeCloseTo(1, 9);
    contactForce(f, linear, -0.01, n, [1e-7, 0, 0], 1e-4);
    expect(f[0]).toBeCloseTo((-0.5 * 100 * 1e-7) / Math.sqrt(1e-14 + 1e-8), 15);
  });
});
