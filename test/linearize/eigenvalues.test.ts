// Eigenvalues (Hessenberg + Francis QR) of matrices with a spectrum known by
// construction, A = S D S^-1 with D block diagonal (real eigenvalues and
// 2 x 2 blocks [[a, b], [-b, a]] for a ± ib), and of linearized models
// against their closed forms.
import { describe, expect, it } from 'vitest';
import pendulum from '../../mechanisms/pendulum.ts';
import { eigenvalues } from '../../src/analysis/eigenvalues.ts';
import { isSingular, luFactor, luSolve } from '../../src/analysis/dense-lu.ts';
import { linearize } from '../../src/analysis/index.ts';

function similar(reals: number[], pairs: [number, number][], seed: number): number[][] {
  const n = reals.length + 2 * pairs.length;
  const D = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  reals.forEach((v, i) => (D[i][i] = v));
  pairs.forEach(([a, b], k) => {
    const i = reals.length + 2 * k;
    D[i][i] = D[i + 1][i + 1] = a;
    D[i][i + 1] = b;
    D[i + 1][i] = -b;
  });
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const S = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 2 : 0) + 0.5 * rnd()));
  const f = luFactor(n, Float64Array.from(S.flat()));
  if (isSingular(f)) throw new Error('singular S');
  // columns of S^-1
  const inv = Array.from({ length: n }, (_, j) =>
    luSolve(
      f,
      Float64Array.from({ length: n }, (_, i) => (i === j ? 1 : 0)),
    ),
  );
  const SD = S.map((row) => D.map((_, j) => row.reduce((acc, v, k) => acc + v * D[k][j], 0)));
  return SD.map((row) => inv.map((col) => row.reduce((acc, v, k) => acc + v * col[k], 0)));
}

describe('eigenvalues', () => {
  it('recover a spectrum put in by a similarity transform (real, complex pairs, repeated, zero)', () => {
    const cases: [number[], [number, number][]][] = [
      [[3, -1, 0.5], []],
      [[], [[0, 4.342688373311203]]],
      [
        [-2, 7],
        [
          [-0.5, 3],
          [1.5, 0.25],
        ],
      ],
      [[1, 1, -3, 0], [[-1, 10]]],
      [
        Array.from({ length: 8 }, (_, i) => i - 3.5),
        [
          [0.1, 1],
          [-0.2, 2],
          [0.3, 3],
        ],
      ],
    ];
    cases.forEach(([reals, pairs], c) => {
      const want = [
        ...reals.map((re) => ({ re, im: 0 })),
        ...pairs.flatMap(([re, im]) => [
          { re, im },
          { re, im: -im },
        ]),
      ].sort((p, q) => q.re - p.re || q.im - p.im);
      const got = eigenvalues(similar(reals, pairs, 11 + c));
      expect(got).toHaveLength(want.length);
      // found to a few rounding units (7e-15 at most); D is diagonalizable, so the repeated 1 is as well conditioned as the rest
      got.forEach((e, i) => expect(Math.hypot(e.re - want[i].re, e.im - want[i].im)).toBeLessThanOrEqual(1e-12 * (1 + Math.hypot(want[i].re, want[i].im))));
    });
  });
  it('a badly scaled similarity D A D^-1 (D from 1e-6 to 1e6, as a stiff spring beside light bodies gives): the same spectrum', () => {
    const reals = [-40, -3, 0.5],
      pairs: [number, number][] = [
        [-0.5, 30],
        [-2, 0.7],
        [0, 1e-3],
      ];
    const A = similar(reals, pairs, 7);
    const n = A.length,
      d = Array.from({ length: n }, (_, i) => 10 ** (-6 + (12 * i) / (n - 1)));
    const scaled = A.map((row, i) => row.map((v, j) => (d[i] * v) / d[j]));
    const want = [
      ...reals.map((re) => ({ re, im: 0 })),
      ...pairs.flatMap(([re, im]) => [
        { re, im },
        { re, im: -im },
      ]),
    ].sort((p, q) => q.re - p.re || q.im - p.im);
    const got = eigenvalues(scaled);
    got.forEach((e, i) => expect(Math.hypot(e.re - want[i].re, e.im - want[i].im)).toBeLessThanOrEqual(1e-9 * (1 + Math.hypot(want[i].re, want[i].im))));
  });
  it('triangular and 1 x 1 matrices: the diagonal', () => {
    expect(eigenvalues([[5]])).toEqual([{ re: 5, im: 0 }]);
    expect(
      eigenvalues([
        [1, 2, 3],
        [0, 4, 5],
        [0, 0, -6],
      ]).map((e) => e.re),
    ).toEqual([4, 1, -6]);
    expect(eigenvalues([])).toEqual([]);
  });
  it('the pendulum linearized at the bottom: ±i sqrt(g / l_eff), l_eff = (Izz + m L^2) / (m L)', () => {
    const w = Math.sqrt(9.80665 / (0.26 / 0.5));
    const [e1, e2] = eigenvalues(linearize(pendulum(), { at: { 'j1.q': -Math.PI / 2 } }).A);
    expect(Math.abs(e1.re)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(e1.im - w) / w).toBeLessThanOrEqual(1e-12);
    expect(e2.im).toBe(-e1.im);
  });
});

describe('the double pendulum hanging down: normal modes', () => {
  it('eigenvalues of A are ±i w_k with det(K - w^2 M) = 0 (M and the gravity stiffness K by hand)', async () => {
    const { default: build, parameters: p } = await import('../../mechanisms/doublependulum.ts');
    const g = 9.80665;
    // rods hanging straight down (j1.q = -pi/2, j2.q = 0); Izz of each rod is its I (mechanisms/doublependulum.ts)
    const M11 = p.I1 + p.m1 * p.lc1 ** 2 + p.I2 + p.m2 * (p.L1 ** 2 + p.lc2 ** 2 + 2 * p.L1 * p.lc2);
    const M12 = p.I2 + p.m2 * (p.lc2 ** 2 + p.L1 * p.lc2);
    const M22 = p.I2 + p.m2 * p.lc2 ** 2;
    const K11 = g * (p.m1 * p.lc1 + p.m2 * p.L1 + p.m2 * p.lc2),
      K12 = g * p.m2 * p.lc2,
      K22 = K12;
    // det(K - s M) = 0, s = w^2: a s^2 - b s + c = 0
    const a = M11 * M22 - M12 ** 2,
      b = K11 * M22 + K22 * M11 - 2 * K12 * M12,
      c = K11 * K22 - K12 ** 2;
    const root = Math.sqrt(b * b - 4 * a * c);
    const w = [Math.sqrt((b + root) / (2 * a)), Math.sqrt((2 * c) / (b + root))];
    const e = eigenvalues(linearize(build(), { at: { 'j1.q': -Math.PI / 2, 'j2.q': 0, 'j1.qd': 0, 'j2.qd': 0 } }).A);
    const im = e.map((x) => x.im).sort((x, y) => y - x);
    expect(Math.max(...e.map((x) => Math.abs(x.re)))).toBeLessThanOrEqual(1e-9);
    [w[0], w[1], -w[1], -w[0]].forEach((v, i) => expect(Math.abs(im[i] - v) / Math.abs(v)).toBeLessThanOrEqual(1e-10));
  });
});
