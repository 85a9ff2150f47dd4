// The narrow phase against closed forms worked by hand, and a fuzz test on
// random poses against independent oracles (geometry-oracle.ts): the two
// witness points p -/+ (d/2) n lie on the two surfaces (signed distance
// functions, 1e-9), and the distance is the smallest over points sampled on
// the surfaces (never above it; within the sampling's resolution of it).
import { describe, expect, it } from 'vitest';
import { ContactList } from '../../src/contact/narrow/contact-list.ts';
import { collide, narrowPhaseFor, signedDistance } from '../../src/contact/narrow/collide.ts';
import type { CollisionShape } from '../../src/contact/shapes.ts';
import { rng } from '../structure/helpers.ts';
import { local, poses, rodrigues, sdf, surfaceSamples, world } from './geometry-oracle.ts';

const I3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const plane: CollisionShape = { type: 'plane' };

// (shape A at pose 0, B at pose 1) => the contacts, all of them (margin Infinity)
function contacts(pose: Float64Array, A: CollisionShape, B: CollisionShape): ContactList {
  const out = new ContactList(2);
  collide(out, pose, 0, A, 12, B, Infinity, 7);
  return out;
}

const at = (c: ContactList, k: number) => ({ d: c.dist[k], n: [...c.normal.subarray(3 * k, 3 * k + 3)], p: [...c.point.subarray(3 * k, 3 * k + 3)] });

describe('narrow phase: closed forms', () => {
  it('plane and sphere: d = z - r, normal +z, point midway', () => {
    const c = contacts(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [1, 2, 0.3] }), plane, { type: 'sphere', radius: 0.5 });
    expect(c.count).toBe(1);
    const { d, n, p } = at(c, 0);
    expect(d).toBeCloseTo(-0.2, 15);
    expect(n).toEqual([0, 0, 1]);
    (expect(p[0]).toBe(1), expect(p[1]).toBe(2), expect(p[2]).toBeCloseTo(-0.1, 15));
    expect(c.pair[0]).toBe(7);
  });

  it('a tilted plane: the distance along its normal', () => {
    // the plane z' <= 0 rotated 90 degrees about x: its normal is world -y
    const pose = poses({ R: rodrigues([1, 0, 0], Math.PI / 2), p: [0, 1, 0] }, { R: I3, p: [5, -2, 3] });
    expect(signedDistance(pose, 0, plane, 12, { type: 'sphere', radius: 1 })).toBeCloseTo(3 - 1, 14);
  });

  it('plane and box on an edge: d = z - sqrt(2) h, two corners deepest', () => {
    const c = contacts(poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([1, 0, 0], Math.PI / 4), p: [0, 0, 1] }), plane, { type: 'box', size: [2, 2, 2] });
    expect(c.count).toBe(8);
    const ds = [...c.dist].slice(0, 8).sort((a, b) => a - b);
    (expect(ds[0]).toBeCloseTo(1 - Math.SQRT2, 14), expect(ds[1]).toBeCloseTo(1 - Math.SQRT2, 14));
    expect(ds[2]).toBeCloseTo(1, 14);
  });

  it('plane and capsule tilted by 30 degrees: the lower cap', () => {
    const th = Math.PI / 6;
    const pose = poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([1, 0, 0], th), p: [0, 0, 1] });
    expect(signedDistance(pose, 0, plane, 12, { type: 'capsule', radius: 0.1, length: 2 })).toBeCloseTo(1 - Math.cos(th) - 0.1, 14);
  });

  it('plane and cylinder tilted by 20 degrees: the lowest rim point, z - h cos - r sin', () => {
    const th = (20 * Math.PI) / 180;
    const pose = poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([0, 1, 0], th), p: [0, 0, 2] });
    expect(signedDistance(pose, 0, plane, 12, { type: 'cylinder', radius: 0.5, length: 3 })).toBeCloseTo(2 - 1.5 * Math.cos(th) - 0.5 * Math.sin(th), 14);
  });

  it('a cylinder standing on its end touches at four rim points', () => {
    const c = contacts(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [0, 0, 0.99] }), plane, { type: 'cylinder', radius: 0.3, length: 2 });
    const touching = [...c.dist].slice(0, c.count).filter((d) => d < 0);
    expect(touching).toHaveLength(4);
    for (const d of touching) expect(d).toBeCloseTo(-0.01, 14);
  });

  it('sphere and sphere: d = L - r1 - r2 along the line of centres', () => {
    const c = contacts(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [3, 0, 0] }), { type: 'sphere', radius: 1 }, { type: 'sphere', radius: 1.5 });
    const { d, n, p } = at(c, 0);
    (expect(d).toBe(0.5), expect(n).toEqual([1, 0, 0]), expect(p).toEqual([1.25, 0, 0]));
  });

  it('sphere and capsule: the distance to the core segment', () => {
    const pose = poses({ R: I3, p: [2, 0, 3] }, { R: I3, p: [0, 0, 0] });
    expect(signedDistance(pose, 0, { type: 'sphere', radius: 0.5 }, 12, { type: 'capsule', radius: 0.25, length: 2 })).toBeCloseTo(Math.hypot(2, 2) - 0.75, 14);
  });

  it('two crossed capsules: the common perpendicular', () => {
    const c = contacts(
      poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([0, 1, 0], Math.PI / 2), p: [0, 2, 0.3] }),
      { type: 'capsule', radius: 0.2, length: 4 },
      { type: 'capsule', radius: 0.3, length: 4 },
    );
    const { d, n, p } = at(c, 0);
    expect(d).toBeCloseTo(1.5, 14);
    [0, 1, 0].forEach((v, i) => expect(n[i]).toBeCloseTo(v, 14));
    [0, 0.2 + 0.75, 0.3].forEach((v, i) => expect(p[i]).toBeCloseTo(v, 14));
  });

  it('sphere and box: outside along a face, inside by the nearest face; the order of the pair flips the normal', () => {
    const box: CollisionShape = { type: 'box', size: [2, 4, 6] },
      ball: CollisionShape = { type: 'sphere', radius: 1 };
    const out = at(contacts(poses({ R: I3, p: [3, 0.5, 0.5] }, { R: I3, p: [0, 0, 0] }), ball, box), 0);
    (expect(out.d).toBe(1), expect(out.n).toEqual([-1, 0, 0]), expect(out.p).toEqual([1.5, 0.5, 0.5]));
    const inside = at(contacts(poses({ R: I3, p: [0.8, 0, 0] }, { R: I3, p: [0, 0, 0] }), { type: 'sphere', radius: 0.5 }, box), 0);
    (expect(inside.d).toBeCloseTo(-0.7, 15), expect(inside.n).toEqual([-1, 0, 0]));
    const flipped = contacts(poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [3, 0.5, 0.5] }), box, ball);
    expect(at(flipped, 0).n.map((v) => v + 0)).toEqual([1, 0, 0]);
    // a corner: the distance to the corner point
    expect(signedDistance(poses({ R: I3, p: [2, 3, 4] }, { R: I3, p: [0, 0, 0] }), 0, ball, 12, box)).toBeCloseTo(Math.hypot(1, 1, 1) - 1, 14);
  });

  it('says which pairs it has', () => {
    expect(narrowPhaseFor('box', 'plane')).toBe(true);
    expect(narrowPhaseFor('box', 'sphere')).toBe(true);
    expect(narrowPhaseFor('capsule', 'sphere')).toBe(true);
    expect(narrowPhaseFor('box', 'box')).toBe(true);
    expect(narrowPhaseFor('capsule', 'box')).toBe(true);
    expect(narrowPhaseFor('cylinder', 'sphere')).toBe(true);
    expect(narrowPhaseFor('cylinder', 'capsule')).toBe(true);
    expect(narrowPhaseFor('cylinder', 'box')).toBe(true);
    expect(narrowPhaseFor('cylinder', 'cylinder')).toBe(true);
    expect(narrowPhaseFor('convex', 'convex')).toBe(true);
    expect(narrowPhaseFor('plane', 'plane')).toBe(false);
  });
});

// a random shape of the type, sizes 0.2 to 1.2
function randomShape(type: CollisionShape['type'], r: () => number): CollisionShape {
  const s = () => 0.2 + r();
  switch (type) {
    case 'sphere':
      return { type, radius: s() };
    case 'capsule':
      return { type, radius: s() / 2, length: 2 * s() };
    case 'box':
      return { type, size: [s(), s(), s()] };
    case 'cylinder':
      return { type, radius: s() / 2, length: 2 * s() };
    case 'plane':
      return { type };
    case 'convex':
      return randomConvex(r, s());
  }
}

/** the hull of 8 to 15 random points in a ball of the given radius (a random polytope) */
function randomConvex(r: () => number, radius: number): CollisionShape {
  const n = 8 + Math.floor(8 * r());
  const vertices: number[] = [];
  for (let k = 0; k < n; k++) {
    const u = [r() - 0.5, r() - 0.5, r() - 0.5],
      l = Math.hypot(...u);
    vertices.push(...u.map((x) => (radius * x) / l));
  }
  return { type: 'convex', vertices };
}

const randomPose = (r: () => number, spread: number) => ({
  R: rodrigues([r() - 0.5, r() - 0.5, r() - 0.5], 2 * Math.PI * r()),
  p: [spread * (r() - 0.5), spread * (r() - 0.5), spread * (r() - 0.5)],
});

/** is X a capsule whose core segment has points inside Y, a box or cylinder (sampled) */
function coreEnters(pose: Float64Array, x: number, X: CollisionShape, y: number, Y: CollisionShape): boolean {
  if (X.type !== 'capsule' || (Y.type !== 'box' && Y.type !== 'cylinder' && Y.type !== 'convex')) return false;
  return Array.from({ length: 201 }, (_, k) => world(pose, x, [0, 0, X.length * (k / 200 - 0.5)])).some((w) => sdf(Y, local(pose, y, w)) < 1e-9);
}

const PAIRS: [CollisionShape['type'], CollisionShape['type']][] = [
  ['plane', 'sphere'],
  ['plane', 'capsule'],
  ['plane', 'box'],
  ['plane', 'cylinder'],
  ['sphere', 'sphere'],
  ['sphere', 'capsule'],
  ['capsule', 'sphere'],
  ['capsule', 'capsule'],
  ['sphere', 'box'],
  ['box', 'sphere'],
  ['sphere', 'cylinder'],
  ['cylinder', 'sphere'],
  ['capsule', 'box'],
  ['box', 'capsule'],
  ['capsule', 'cylinder'],
  ['cylinder', 'capsule'],
  ['box', 'box'],
  ['box', 'cylinder'],
  ['cylinder', 'box'],
  ['cylinder', 'cylinder'],
  ['plane', 'convex'],
  ['sphere', 'convex'],
  ['convex', 'capsule'],
  ['box', 'convex'],
  ['cylinder', 'convex'],
  ['convex', 'convex'],
];

describe('narrow phase: random poses against the oracles', () => {
  for (const [ta, tb] of PAIRS) {
    it(`${ta} and ${tb}: witness points on both surfaces, distance the sampled minimum`, () => {
      const r = rng(ta.length * 31 + tb.length * 7 + tb.charCodeAt(0));
      let separated = 0,
        overlapping = 0;
      for (let trial = 0; trial < 60; trial++) {
        const A = randomShape(ta, r),
          B = randomShape(tb, r);
        const pose = poses(randomPose(r, 0.5), randomPose(r, 3));
        const c = contacts(pose, A, B);
        expect(c.count).toBeGreaterThan(0);
        let k = 0;
        for (let j = 1; j < c.count; j++) if (c.dist[j] < c.dist[k]) k = j;
        const { d, n, p } = at(c, k);
        expect(Math.hypot(n[0], n[1], n[2])).toBeCloseTo(1, 14);
        const pa = p.map((v, i) => v - (d / 2) * n[i]),
          pb = p.map((v, i) => v + (d / 2) * n[i]);
        // a capsule whose core enters a box or cylinder: its witness is the sphere's about the core's deepest point (capsule-convex.ts),
        // inside the capsule; else on both surfaces
        const sa = sdf(A, local(pose, 0, pa)),
          sb = sdf(B, local(pose, 1, pb));
        if (coreEnters(pose, 0, A, 1, B)) expect(sa).toBeLessThan(1e-9);
        else expect(Math.abs(sa)).toBeLessThan(1e-9);
        if (coreEnters(pose, 1, B, 0, A)) expect(sb).toBeLessThan(1e-9);
        else expect(Math.abs(sb)).toBeLessThan(1e-9);
        // the sampled oracle: B's surface points' distances to A (a plane), else A's surface points' to B
        const oracle =
          ta === 'plane'
            ? Math.min(...surfaceSamples(B, 3000).map((y) => sdf(A, local(pose, 0, world(pose, 1, y)))))
            : Math.min(...surfaceSamples(A, 3000).map((y) => sdf(B, local(pose, 1, world(pose, 0, y)))));
        if (ta === 'plane' || d > 0) {
          // never below the true minimum; above it by the sampling's resolution at most
          expect(oracle).toBeGreaterThanOrEqual(d - 1e-9);
          expect(oracle - d).toBeLessThan(0.03);
          separated++;
        } else {
          // overlapping: some of A's surface lies inside B, or B's inside A (one may hold the other)
          const back = Math.min(...surfaceSamples(B, 3000).map((y) => sdf(A, local(pose, 0, world(pose, 1, y)))));
          if (d < -0.03) expect(Math.min(oracle, back)).toBeLessThan(0);
          overlapping++;
        }
      }
      expect(separated).toBeGreaterThan(10);
      if (ta !== 'plane') expect(overlapping + separated).toBe(60);
    });
  }
});
