import { describe, expect, it } from 'vitest';
import { axisRotation, cross, dot, evaluate, mulMM, mulMV, num, skew, transpose, vec3, type Mat3 } from '../../src/expr/index.ts';

const value = (m: Mat3) => m.map((row) => row.map((e) => evaluate(e, () => NaN)));

describe('3-vector and 3x3 helpers', () => {
  it('rotation about z by 90 degrees maps x to y (Rodrigues)', () => {
    const R = axisRotation([0, 0, 1], Math.PI / 2);
    const v = mulMV(R, [1, 0, 0]).map((e) => evaluate(e, () => NaN));
    expect(v[0]).toBeCloseTo(0, 15);
    expect(v[1]).toBeCloseTo(1, 15);
    expect(v[2]).toBeCloseTo(0, 15);
  });
  it('rotations about random unit axes are orthogonal with determinant 1', () => {
    for (const [a, phi] of [
      [[1, 2, 2], 0.3],
      [[0.2, -0.4, 1], 2.5],
      [[-1, 0.5, 0.1], -1.2],
    ] as const) {
      const n = Math.hypot(...a);
      const R = axisRotation([a[0] / n, a[1] / n, a[2] / n], phi);
      const P = value(mulMM(R, transpose(R)));
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(P[i][j]).toBeCloseTo(i === j ? 1 : 0, 14);
      const r = value(R);
      const det =
        r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) -
        r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
        r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
      expect(det).toBeCloseTo(1, 14);
    }
  });
  it('skew(a) b equals a x b, and a . (a x b) = 0', () => {
    const a = vec3(1, -2, 3),
      b = vec3(0.5, 4, -1);
    const viaSkew = mulMV(skew(a), b).map((e) => evaluate(e, () => NaN));
    const direct = cross(a, b).map((e) => evaluate(e, () => NaN));
    expect(viaSkew).toEqual(direct);
    expect(dot(a, cross(a, b))).toBe(num(0));
  });
});
