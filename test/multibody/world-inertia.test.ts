// The cheaper forms of world-inertia.ts against the plain formulas, in numbers:
// I_w = R I R^T, w x (I_w w) and w x (w x R r) for seeded random rotations,
// with the declared values the form is chosen from and with other values
// (a --set after the choice: the form must still be exact, only its cost differs).
import { describe, expect, it } from 'vitest';
import { type Mat3, type Vec3, mat3, vec3 } from '../../src/expr/index.ts';
import { centripetal, worldInertia } from '../../src/library/multibody/world-inertia.ts';
import { prng, quaternionRotation as rotation } from './random-tree.ts';

type M = number[][];

const mm = (a: M, b: M): M => a.map((row) => b[0].map((_, j) => row.reduce((s, x, k) => s + x * b[k][j], 0)));
const tr = (a: M): M => a[0].map((_, j) => a.map((row) => row[j]));
const mv = (a: M, v: number[]) => a.map((row) => row.reduce((s, x, k) => s + x * v[k], 0));
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const numbers = (v: Vec3) => v.map((x) => x.value);
const matrix = (m: Mat3) => m.map((row) => row.map((x) => x.value));
const expr = (m: M): Mat3 => mat3(m as never);

const inertias: { name: string; declared: M; actual: M }[] = [
  {
    name: 'a rod (two equal moments)',
    declared: [
      [1e-4, 0, 0],
      [0, 0.0075, 0],
      [0, 0, 0.0075],
    ],
    actual: [
      [1e-4, 0, 0],
      [0, 0.0075, 0],
      [0, 0, 0.0075],
    ],
  },
  {
    name: 'three distinct moments',
    declared: [
      [0.13, 0, 0],
      [0, 0.524, 0],
      [0, 0, 0.539],
    ],
    actual: [
      [0.13, 0, 0],
      [0, 0.524, 0],
      [0, 0, 0.539],
    ],
  },
  {
    name: 'a sphere',
    declared: [
      [2, 0, 0],
      [0, 2, 0],
      [0, 0, 2],
    ],
    actual: [
      [2, 0, 0],
      [0, 2, 0],
      [0, 0, 2],
    ],
  },
  {
    name: 'products of inertia',
    declared: [
      [0.3, 0.01, -0.02],
      [0.01, 0.4, 0.03],
      [-0.02, 0.03, 0.5],
    ],
    actual: [
      [0.3, 0.01, -0.02],
      [0.01, 0.4, 0.03],
      [-0.02, 0.03, 0.5],
    ],
  },
  {
    name: 'a rod declared, products set later',
    declared: [
      [1e-4, 0, 0],
      [0, 0.0075, 0],
      [0, 0, 0.0075],
    ],
    actual: [
      [0.002, 3e-4, 0],
      [3e-4, 0.0075, -2e-4],
      [0, -2e-4, 0.007],
    ],
  },
];

describe('world-resolved inertia', () => {
  it.each(inertias)('$name: I_w = R I R^T and w x (I_w w), symmetric', ({ declared, actual }) => {
    const u = prng(7);
    for (let trial = 0; trial < 20; trial++) {
      const R = rotation(u),
        w = [u() - 0.5, u() - 0.5, u() - 0.5].map((x) => 4 * x);
      const want = mm(mm(R, actual), tr(R));
      const { Iw, gyroscopic } = worldInertia(expr(R), expr(actual), declared);
      const got = matrix(Iw);
      const scale = Math.max(...actual.flat().map(Math.abs));
      got.forEach((row, i) =>
        row.forEach((x, j) => {
          // the forms around a moment use R R^T = 1: exact up to the rounding of R itself
          expect(Math.abs(x - want[i][j])).toBeLessThan(1e-14 * scale);
          expect(Iw[i][j]).toBe(Iw[j][i]);
        }),
      );
      const g = numbers(gyroscopic(vec3(w[0], w[1], w[2])));
      const gw = cross(w, mv(want, w));
      g.forEach((x, i) => expect(Math.abs(x - gw[i])).toBeLessThan(1e-14 * scale * 16));
    }
  });

  it.each([
    { declared: [0.15, 0, 0], actual: [0.15, 0, 0] },
    { declared: [0, 0, 0.032], actual: [0, 0, 0.032] },
    { declared: [-0.3638, 0.006, 0.2275], actual: [-0.3638, 0.006, 0.2275] },
    { declared: [0.15, 0, 0], actual: [0.15, 0.02, -0.01] },
  ])('w x (w x R r), r = $actual declared $declared', ({ declared, actual }) => {
    const u = prng(11);
    for (let trial = 0; trial < 20; trial++) {
      const R = rotation(u),
        w = [u() - 0.5, u() - 0.5, u() - 0.5].map((x) => 4 * x);
      const want = cross(w, cross(w, mv(R, actual)));
      const got = numbers(centripetal(vec3(w[0], w[1], w[2]), expr(R), vec3(actual[0], actual[1], actual[2]), declared));
      got.forEach((x, i) => expect(Math.abs(x - want[i])).toBeLessThan(1e-14));
    }
  });
});
