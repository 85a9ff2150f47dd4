// The equivalent inertia box: a solid box of the body's mass, its sides
// along the principal axes, whose inertia is the body's (the oracle is the
// box's own inertia, m (b² + c²) / 12 ..., turned back by its orientation).
import { quat } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { MIN_SIDE_FRACTION, inertiaBox, principalAxes } from '../../src/io/inertia-box.ts';

type M = number[][];
const mm = (A: M, B: M): M => A.map((r) => B[0].map((_, j) => r.reduce((s, v, k) => s + v * B[k][j], 0)));
const tr = (A: M): M => A[0].map((_, j) => A.map((r) => r[j]));

/** the rotation matrix of a unit quaternion [x, y, z, w] (row-major) */
function rotation([x, y, z, w]: readonly number[]): M {
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** the inertia of a solid box of mass m and sides [a, b, c] about its centre, turned by R: R diag(...) R^T */
function boxInertia(m: number, [a, b, c]: readonly number[], R: M): M {
  const D = [
    [(m * (b * b + c * c)) / 12, 0, 0],
    [0, (m * (a * a + c * c)) / 12, 0],
    [0, 0, (m * (a * a + b * b)) / 12],
  ];
  return mm(mm(R, D), tr(R));
}

/** a seeded random rotation (for repeatable tests) */
function randomRotation(seed: number): M {
  let s = seed;
  const r = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const q = new Float64Array([r(), r(), r(), r()]);
  quat.normalize(q, q);
  return rotation([q[0], q[1], q[2], q[3]]);
}

const close = (A: M, B: M, tol: number) => A.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(B[i][j], tol)));

describe('inertiaBox', () => {
  it('reproduces the inertia it was made from: diagonal, and turned by random rotations', () => {
    for (const [seed, m, sides] of [
      [1, 17.4, [0.6, 0.2, 0.1]],
      [7, 0.3, [0.05, 0.4, 0.12]],
      [42, 2, [1, 1, 0.3]],
      [99, 5, [0.2, 0.3, 0.25]],
    ] as const) {
      for (const R of [
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        randomRotation(seed),
      ]) {
        const I = boxInertia(m, sides, R);
        const box = inertiaBox(m, I)!;
        // the box's own inertia, turned by the box's orientation, is the body's (1e-12 relative)
        const back = boxInertia(m, box.size, rotation(box.orientation));
        close(back, I, 12);
        expect([...box.size].sort()).toEqual([...sides].sort().map((v) => expect.closeTo(v, 12)));
      }
    }
  });

  it('the PUMA link 2 of the published set: sides sqrt(6 (I2 + I3 - I1) / m) ... along the frame axes', () => {
    const m = 17.4,
      [I1, I2, I3] = [0.13, 0.524, 0.539];
    const box = inertiaBox(m, [
      [I1, 0, 0],
      [0, I2, 0],
      [0, 0, I3],
    ])!;
    const want = [Math.sqrt((6 * (I2 + I3 - I1)) / m), Math.sqrt((6 * (I1 + I3 - I2)) / m), Math.sqrt((6 * (I1 + I2 - I3)) / m)];
    // along the frame axes: the orientation is a right-angle permutation, the sides follow it
    const R = rotation(box.orientation).map((row) => row.map((v) => Math.abs(v)));
    const along = [0, 1, 2].map((i) => R[i].reduce((s, v, k) => s + v * box.size[k], 0));
    along.forEach((v, i) => expect(v).toBeCloseTo(want[i], 12));
  });

  it('a flat body (triangle inequality at equality) keeps a visible thickness; no mass or no inertia: no box', () => {
    const box = inertiaBox(4.8, [
      [0.0735, 0, 0],
      [0, 0.086, 0],
      [0, 0, 0.0125],
    ])!; // the PUMA's link 3: I1 + I3 = I2
    expect(Math.min(...box.size)).toBeCloseTo(MIN_SIDE_FRACTION * Math.max(...box.size), 12);
    expect(
      inertiaBox(0, [
        [0.175, 0, 0],
        [0, 0.35, 0],
        [0, 0, 0.175],
      ]),
    ).toBeUndefined();
    expect(
      inertiaBox(2, [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ]),
    ).toBeUndefined();
  });

  it('principalAxes: A = V D V^T with V a rotation', () => {
    const R = randomRotation(5);
    const I = boxInertia(3, [0.3, 0.5, 0.7], R);
    const { moments, axes } = principalAxes(I);
    const V = tr(axes as unknown as M);
    close(
      mm(
        mm(V, [
          [moments[0], 0, 0],
          [0, moments[1], 0],
          [0, 0, moments[2]],
        ]),
        tr(V),
      ),
      I,
      13,
    );
    const [u, v, w] = axes;
    expect(u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])).toBeCloseTo(1, 12);
  });
});
