// The narrow phase's box-box, capsule-box, sphere-cylinder and
// capsule-cylinder pairs against closed forms worked by hand (random poses
// against the oracles: narrow.test.ts): a small box resting rotated on a
// large one touches at its four bottom corners; two cubes turned onto
// crossed edges touch at the edges' crossing; separated boxes by their
// exact distance; a capsule lying on a face rests on both ends; a sphere
// by the side, the end and the rim of a cylinder.
import { describe, expect, it } from 'vitest';
import { signedDistance } from '../../src/contact/narrow/collide.ts';
import type { CollisionShape } from '../../src/contact/shapes.ts';
import { I3, contacts } from './contacts.ts';
import { poses, rodrigues } from './geometry-oracle.ts';

const close = (a: readonly number[], b: readonly number[], digits = 13) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i], digits));
const cube = (edge: number): CollisionShape => ({ type: 'box', size: [edge, edge, edge] });

describe('box and box', () => {
  it('a small box turned 30 degrees on a large one: four contacts at its bottom corners, d = -0.1, normal +z', () => {
    const th = Math.PI / 6;
    const list = contacts(poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([0, 0, 1], th), p: [0.2, -0.1, 1.4] }), cube(2), cube(1));
    expect(list).toHaveLength(4);
    const corners = [
      [1, 1],
      [-1, 1],
      [-1, -1],
      [1, -1],
    ].map(([sx, sy]) => [0.2 + 0.5 * (sx * Math.cos(th) - sy * Math.sin(th)), -0.1 + 0.5 * (sx * Math.sin(th) + sy * Math.cos(th))]);
    for (const c of list) {
      expect(c.d).toBeCloseTo(-0.1, 14);
      close(c.n, [0, 0, 1], 15);
      // midway between the corner (z = 0.9) and the face (z = 1)
      expect(c.p[2]).toBeCloseTo(0.95, 14);
      expect(corners.some(([x, y]) => Math.hypot(c.p[0] - x, c.p[1] - y) < 1e-13)).toBe(true);
    }
    // the order of the pair: the same contacts with normals reversed
    const flipped = contacts(poses({ R: rodrigues([0, 0, 1], th), p: [0.2, -0.1, 1.4] }, { R: I3, p: [0, 0, 0] }), cube(1), cube(2));
    expect(flipped).toHaveLength(4);
    for (const c of flipped) (expect(c.d).toBeCloseTo(-0.1, 14), close(c.n, [0, 0, -1], 15));
  });

  it('a box hanging over the edge of another: the clipped face, corners over the face and points on its edge', () => {
    // B (size 1) centred over A's edge x = 1: its bottom face spans x in [0.5, 1.5], clipped to [0.5, 1]
    const list = contacts(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [1, 0, 1.45] }), cube(2), cube(1));
    expect(list).toHaveLength(4);
    const xs = list.map((c) => c.p[0]).sort((a, b) => a - b);
    close(xs, [0.5, 0.5, 1, 1], 14);
    for (const c of list) expect(c.d).toBeCloseTo(-0.05, 14);
  });

  it('two cubes on crossed edges: one contact where the edges cross, d = -0.1 along z', () => {
    // A's top edge along x at z = sqrt 2, B's bottom edge along y at z = sqrt 2 - 0.1
    const A = { R: rodrigues([1, 0, 0], Math.PI / 4), p: [0, 0, 0] },
      B = { R: rodrigues([0, 1, 0], Math.PI / 4), p: [0, 0, 2 * Math.SQRT2 - 0.1] };
    const list = contacts(poses(A, B), cube(2), cube(2));
    expect(list).toHaveLength(1);
    expect(list[0].d).toBeCloseTo(-0.1, 14);
    close(list[0].n, [0, 0, 1], 14);
    close(list[0].p, [0, 0, Math.SQRT2 - 0.05], 14);
  });

  it('separated: the exact distance, face to face and corner to corner', () => {
    expect(signedDistance(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [3, 0.3, 0] }), 0, cube(2), 12, cube(2))).toBeCloseTo(1, 14);
    expect(signedDistance(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [3, 3, 3] }), 0, cube(2), 12, cube(2))).toBeCloseTo(Math.sqrt(3), 14);
    // B turned 45 degrees about z: its edge faces A's face, at x = 4 - sqrt 2
    expect(signedDistance(poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([0, 0, 1], Math.PI / 4), p: [4, 0, 0] }), 0, cube(2), 12, cube(2))).toBeCloseTo(
      3 - Math.SQRT2,
      14,
    );
  });
});

describe('capsule and box, sphere and capsule against a cylinder', () => {
  const lying = rodrigues([0, 1, 0], Math.PI / 2); // the capsule's axis along x

  it('a capsule lying on a box: two contacts, at both ends, d = -0.02, normal -z (capsule to box)', () => {
    const list = contacts(poses({ R: lying, p: [0.1, 0.2, 1.08] }, { R: I3, p: [0, 0, 0] }), { type: 'capsule', radius: 0.1, length: 1 }, cube(2));
    expect(list).toHaveLength(2);
    const ends = list.map((c) => c.p[0]).sort((a, b) => a - b);
    close(ends, [-0.4, 0.6], 12);
    for (const c of list) (expect(c.d).toBeCloseTo(-0.02, 12), close(c.n, [0, 0, -1], 12), expect(c.p[2]).toBeCloseTo(0.99, 12));
  });

  it("a capsule tilted across a box's edge: the edge point deepest, d = h cos - r off the edge", () => {
    // the core through (1 + u, 0, 1 + w) along (cos a, 0, -sin a): the edge (x = 1, z = 1, along y) is at distance |(u, w) x (cos a, -sin a)|
    const a = 0.3,
      u = 0.05,
      w = 0.1,
      r = 0.15;
    const R = rodrigues([0, 1, 0], Math.PI / 2 + a); // axis z onto (cos a, 0, -sin a)
    const list = contacts(poses({ R, p: [1 + u, 0, 1 + w] }, { R: I3, p: [0, 0, 0] }), { type: 'capsule', radius: r, length: 2 }, cube(2));
    const h = Math.abs(u * -Math.sin(a) - w * Math.cos(a));
    const deepest = list.reduce((x, y) => (y.d < x.d ? y : x));
    expect(deepest.d).toBeCloseTo(h - r, 11);
    // the search finds a smooth minimum's t to the square root of the rounding error: the distance to 1e-16, the normal to 1e-8
    close(deepest.n, [-Math.sin(a), 0, -Math.cos(a)], 7);
  });

  it("a sphere by a cylinder's side, above its end, by its rim", () => {
    const cyl: CollisionShape = { type: 'cylinder', radius: 1, length: 2 },
      ball: CollisionShape = { type: 'sphere', radius: 0.5 };
    const at = (p: number[]) => contacts(poses({ R: I3, p }, { R: I3, p: [0, 0, 0] }), ball, cyl)[0];
    const side = at([0, 2, 0.3]);
    (expect(side.d).toBeCloseTo(0.5, 15), close(side.n, [0, -1, 0], 15), close(side.p, [0, 1.25, 0.3], 15));
    const end = at([0.3, 0, 1.7]);
    (expect(end.d).toBeCloseTo(0.2, 15), close(end.n, [0, 0, -1], 15));
    expect(at([2, 0, 2]).d).toBeCloseTo(Math.SQRT2 - 0.5, 15);
    // inside, nearer the side than the end: out through the side
    const inside = at([0.8, 0, 0]);
    (expect(inside.d).toBeCloseTo(-0.2 - 0.5, 15), close(inside.n, [-1, 0, 0], 15));
  });

  it("a capsule lying across a standing cylinder's end: both ends, d = -0.01", () => {
    const list = contacts(
      poses({ R: lying, p: [0, 0, 1.09] }, { R: I3, p: [0, 0, 0] }),
      { type: 'capsule', radius: 0.1, length: 1 },
      { type: 'cylinder', radius: 1, length: 2 },
    );
    expect(list).toHaveLength(2);
    for (const c of list) (expect(c.d).toBeCloseTo(-0.01, 12), close(c.n, [0, 0, -1], 12));
  });
});
