// Box-cylinder and cylinder-cylinder (convex-pair.ts: GJK, EPA and a
// clipped manifold) against closed forms worked by hand: parallel cylinders
// side by side (distance of the axes less the radii), a cylinder standing
// on a box (its rim at the depth, clipped at the box's edge), tilted on a
// box (its lowest rim point, z - h cos - r sin), lying on its side (both
// ends of its lowest line), stacked on a wider cylinder (the smaller rim).
import { describe, expect, it } from 'vitest';
import { signedDistance } from '../../src/contact/narrow/collide.ts';
import type { CollisionShape } from '../../src/contact/shapes.ts';
import { I3, contacts } from './contacts.ts';
import { poses, rodrigues } from './geometry-oracle.ts';

const close = (a: readonly number[], b: readonly number[], tol: number) => a.forEach((v, i) => expect(Math.abs(v - b[i])).toBeLessThan(tol));

describe('cylinder pairs against closed forms', () => {
  const c1: CollisionShape = { type: 'cylinder', radius: 0.3, length: 1 },
    c2: CollisionShape = { type: 'cylinder', radius: 0.2, length: 0.8 };

  it('parallel cylinders side by side: d = |x| - r1 - r2 along the line of the axes, separated and overlapping', () => {
    for (const x of [0.7, 0.52, 0.48, 0.3]) {
      const pose = poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [x, 0, 0.1] });
      const c = contacts(pose, c1, c2);
      const deepest = c.reduce((m, k) => (k.d < m.d ? k : m));
      expect(Math.abs(deepest.d - (x - 0.5))).toBeLessThan(1e-9);
      close(deepest.n, [1, 0, 0], 1e-6);
      // midway between the two sides, within both lengths
      expect(Math.abs(deepest.p[0] - (0.3 + x - 0.2) / 2)).toBeLessThan(1e-6);
      expect(Math.abs(deepest.p[2])).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });

  it('a cylinder standing on a box: its rim points at the depth, normal +z; over the edge, clipped at it', () => {
    const table: CollisionShape = { type: 'box', size: [2, 2, 0.2] };
    const pose = poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [0.2, 0.1, 0.1 + 0.5 - 0.004] });
    const c = contacts(pose, table, c1);
    expect(c.length).toBe(8);
    for (const k of c) {
      expect(k.d).toBeCloseTo(-0.004, 12);
      close(k.n, [0, 0, 1], 1e-12);
      expect(Math.hypot(k.p[0] - 0.2, k.p[1] - 0.1)).toBeCloseTo(0.3, 12);
      expect(k.p[2]).toBeCloseTo(0.1 - 0.002, 12);
    }
    // the other way round: the same contacts, normals flipped
    const flipped = contacts(poses({ R: I3, p: [0.2, 0.1, 0.1 + 0.5 - 0.004] }, { R: I3, p: [0, 0, 0] }), c1, table);
    expect(flipped.map((k) => k.n[2])).toEqual(c.map(() => -1));
    // half over the edge at x = 1: the rim points on the box, and the two where the rim's chords cross its edge
    const over = contacts(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [1, 0, 0.1 + 0.5 - 0.004] }), table, c1);
    expect(over.length).toBeGreaterThanOrEqual(4);
    for (const k of over) (expect(k.d).toBeCloseTo(-0.004, 12), expect(k.p[0]).toBeLessThanOrEqual(1 + 1e-12));
    expect(Math.max(...over.map((k) => k.p[0]))).toBeCloseTo(1, 12);
  });

  it('a cylinder tilted 20 degrees on a box: the deepest point is the lowest rim point, d = z - h cos - r sin', () => {
    const th = (20 * Math.PI) / 180;
    const table: CollisionShape = { type: 'box', size: [4, 4, 0.2] };
    const z = 0.1 + 0.5 * Math.cos(th) + 0.3 * Math.sin(th) - 0.01;
    const pose = poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([0, 1, 0], th), p: [0, 0, z] });
    const d = signedDistance(pose, 0, table, 12, c1);
    expect(d).toBeCloseTo(z - 0.1 - 0.5 * Math.cos(th) - 0.3 * Math.sin(th), 12);
  });

  it('a cylinder lying on its side on a box: both ends of its lowest line at the depth', () => {
    const table: CollisionShape = { type: 'box', size: [4, 4, 0.2] };
    const pose = poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([1, 0, 0], Math.PI / 2), p: [0, 0, 0.1 + 0.3 - 0.003] });
    const c = contacts(pose, table, c1);
    expect(c.length).toBe(2);
    for (const k of c) (expect(k.d).toBeCloseTo(-0.003, 9), close(k.n, [0, 0, 1], 1e-9));
    expect(c.map((k) => k.p[1]).sort((a, b) => a - b)).toEqual([expect.closeTo(-0.5, 9), expect.closeTo(0.5, 9)]);
  });

  it('a narrow cylinder stacked on a wide one: the narrow rim at the depth', () => {
    const pose = poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [0.05, 0, 0.5 + 0.4 - 0.002] });
    const c = contacts(pose, c1, c2);
    expect(c.length).toBe(8);
    for (const k of c) {
      expect(k.d).toBeCloseTo(-0.002, 12);
      close(k.n, [0, 0, 1], 1e-12);
      expect(Math.hypot(k.p[0] - 0.05, k.p[1])).toBeCloseTo(0.2, 12);
    }
  });

  it('separated: the distance of the end faces, and of crossed cylinders by their sides', () => {
    expect(signedDistance(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [0.1, 0, 1.5] }), 0, c1, 12, c2)).toBeCloseTo(1.5 - 0.9, 12);
    // crossed at right angles, axes 1 apart: the sides' distance 1 - 0.3 - 0.2 (curved: EPA/GJK to 1e-9)
    const crossed = poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([0, 1, 0], Math.PI / 2), p: [0, 1, 0] });
    expect(Math.abs(signedDistance(crossed, 0, c1, 12, c2) - 0.5)).toBeLessThan(1e-9);
  });
});
