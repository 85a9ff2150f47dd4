// Principal moments against two oracles: R diag(A, B, C) R^T for seeded
// random rotations has eigenvalues A, B, C; and for any symmetric matrix the
// eigenvalues' sum, pairwise products and product are its trace, the sum of
// its 2x2 principal minors and its determinant. Then the inertia check on
// principal moments, for a Body as for a URDF link.
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/errors.ts';
import { inertiaProblem, principalMoments } from '../../src/library/multibody/body.ts';
import { Mechanism } from '../../src/library/multibody/index.ts';
import { prng, quaternionRotation as rotation } from './random-tree.ts';

type Six = [number, number, number, number, number, number];
type M = number[][];

/** R diag(d) R^T as [xx, yy, zz, xy, xz, yz] */
function rotated(R: M, d: number[]): Six {
  const e = (i: number, j: number) => R[i][0] * d[0] * R[j][0] + R[i][1] * d[1] * R[j][1] + R[i][2] * d[2] * R[j][2];
  return [e(0, 0), e(1, 1), e(2, 2), e(0, 1), e(0, 2), e(1, 2)];
}

const sorted = (v: number[]) => [...v].sort((a, b) => a - b);

describe('principalMoments', () => {
  it('returns a diagonal inertia sorted, exactly', () => {
    expect(principalMoments([3, 1, 2, 0, 0, 0])).toEqual([1, 2, 3]);
    expect(principalMoments([0, 0, 0, 0, 0, 0])).toEqual([0, 0, 0]);
  });
  it('finds the moments of the issue: Ixx = Iyy = 1, Izz = 0.2, Ixy = 0.9 has 0.1, 0.2, 1.9', () => {
    principalMoments([1, 1, 0.2, 0.9, 0, 0]).forEach((v, i) => expect(Math.abs(v - [0.1, 0.2, 1.9][i])).toBeLessThanOrEqual(1e-15));
  });
  it('recovers A, B, C from R diag(A, B, C) R^T: distinct, double, triple, rank one, zero (200 seeded rotations, 1e-14 of the trace)', () => {
    const u = prng(13);
    const spectra = [
      [0.3, 1.1, 1.2],
      [1, 1, 1.5],
      [2, 2, 2],
      [0, 0, 1],
      [0, 1, 1],
      [1e-9, 1, 1],
      [0, 0, 0],
      [0.1, 0.2, 0.3000001],
    ];
    for (let k = 0; k < 200; k++) {
      const d = spectra[k % spectra.length].map((v) => v * (k < 100 ? 1 : 10 ** (Math.round(u() * 12) - 6)));
      const got = principalMoments(rotated(rotation(u), d));
      const scale = d[0] + d[1] + d[2];
      got.forEach((v, i) => expect(Math.abs(v - sorted(d)[i]), `case ${k}: ${d}`).toBeLessThanOrEqual(1e-14 * scale));
    }
  });
  it('keeps the invariants of random symmetric matrices, definite or not (200 seeded, 1e-13)', () => {
    const u = prng(7);
    for (let k = 0; k < 200; k++) {
      const [xx, yy, zz, xy, xz, yz] = Array.from({ length: 6 }, () => 2 * u() - 1);
      const [a, b, c] = principalMoments([xx, yy, zz, xy, xz, yz]);
      expect(a).toBeLessThanOrEqual(b);
      expect(b).toBeLessThanOrEqual(c);
      expect(a + b + c).toBeCloseTo(xx + yy + zz, 13);
      expect(a * b + b * c + a * c).toBeCloseTo(xx * yy - xy * xy + xx * zz - xz * xz + yy * zz - yz * yz, 13);
      expect(a * b * c).toBeCloseTo(xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz), 13);
    }
  });
  it('does not overflow or underflow: entries of 1e200 and 1e-200', () => {
    for (const s of [1e200, 1e-200]) {
      const got = principalMoments([1, 1, 0.2, 0.9, 0, 0].map((v) => v * s) as Six);
      got.forEach((v, i) => expect(Math.abs(v / s - [0.1, 0.2, 1.9][i])).toBeLessThanOrEqual(1e-14));
    }
  });
});

describe('inertiaProblem: principal moments, for a Body as for a URDF link', () => {
  it('rejects the issue inertia, whose diagonal as written satisfies the triangle inequality', () => {
    expect(inertiaProblem(1, [1, 1, 0.2, 0.9, 0, 0])?.what).toBe(
      'inertia (Ixx 1, Iyy 1, Izz 0.2, Ixy 0.9) violates the triangle inequality: principal moments 0.1, 0.2, 1.9 (0.1 + 0.2 < 1.9)',
    );
    expect(() => new Mechanism('m').body('b', { m: 1, I: [1, 1, 0.2, 0.9, 0, 0] })).toThrow(ModelError);
    expect(() => new Mechanism('m').body('b', { m: 1, I: [1, 1, 0.2, 0.9, 0, 0] })).toThrow(/body b: inertia .* violates the triangle inequality/);
  });
  it('rejects a negative principal moment behind a positive diagonal and positive 2x2 minors', () => {
    expect(inertiaProblem(1, [1, 1, 1, -0.6, -0.6, -0.6])?.what).toBe(
      'inertia (Ixx 1, Iyy 1, Izz 1, Ixy -0.6, Ixz -0.6, Iyz -0.6) is not positive semi-definite: principal moments -0.2, 1.6, 1.6',
    );
  });
  it('accepts rotated physical inertias, thin plates (A + B = C) and rods (0, A, A) within the rounding tolerance', () => {
    const u = prng(29);
    for (let k = 0; k < 100; k++) {
      const [a, b] = [u(), u()];
      const between = Math.abs(a - b) + u() * (a + b - Math.abs(a - b));
      for (const d of [
        [a, b, a + b],
        [a, b, Math.abs(a - b)],
        [0, a, a],
        [a, b, between],
      ])
        expect(inertiaProblem(1, rotated(rotation(u), d)), `${d}`).toBeUndefined();
    }
  });
  it('rejects a plate that breaks the triangle inequality by 1e-6 of its trace, at any orientation', () => {
    const u = prng(31);
    for (let k = 0; k < 20; k++) {
      const d = [0.3, 0.5, 0.8 + 1.6e-6];
      expect(inertiaProblem(1, rotated(rotation(u), d))?.what).toMatch(/violates the triangle inequality/);
    }
  });
});
