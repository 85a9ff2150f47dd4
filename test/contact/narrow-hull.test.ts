// The convex shape and the GJK/EPA narrow phase (convex-pair.ts) against
// independent oracles: the hull of a box's 8 corners collides as the box
// shape does (its closed forms: plane.ts, sphere-box.ts, capsule-convex.ts,
// box-box.ts); random hulls' distances against brute force over their
// triangles, their penetration against the separating-axis minimum over
// face normals and edge cross products (convex-oracle.ts); a bad convex
// shape is a ModelError naming its owner.
import { describe, expect, it } from 'vitest';
import { signedDistance } from '../../src/contact/narrow/collide.ts';
import { gjk, type Vertex } from '../../src/contact/narrow/gjk.ts';
import { epa } from '../../src/contact/narrow/epa.ts';
import { type Solid, support } from '../../src/contact/narrow/support.ts';
import { type CollisionShape, checkShape } from '../../src/contact/shapes.ts';
import { ContactScene, Mechanism, ModelError } from 'kron';
import { rng } from '../structure/helpers.ts';
import { type Contact, I3, contacts } from './contacts.ts';
import { poses, rodrigues, world } from './geometry-oracle.ts';
import { type V3, hullDistance, satDepth, pointsOf } from './convex-oracle.ts';

/** the same contacts in any order, each number to tol */
function sameContacts(got: Contact[], want: Contact[], tol: number) {
  expect(got.length).toBe(want.length);
  const left = [...want];
  for (const c of got) {
    const k = left.findIndex((w) => Math.abs(w.d - c.d) <= tol && [0, 1, 2].every((i) => Math.abs(w.n[i] - c.n[i]) <= tol && Math.abs(w.p[i] - c.p[i]) <= tol));
    expect(k, `contact ${JSON.stringify(c)} among ${JSON.stringify(left)}`).toBeGreaterThanOrEqual(0);
    left.splice(k, 1);
  }
}

const boxHull = (size: readonly number[]): CollisionShape => {
  const v: number[] = [];
  for (let k = 0; k < 8; k++) v.push((k & 1 ? 1 : -1) * (size[0] / 2), (k & 2 ? 1 : -1) * (size[1] / 2), (k & 4 ? 1 : -1) * (size[2] / 2));
  return { type: 'convex', vertices: v };
};

const randomPose = (r: () => number, spread: number) => ({
  R: rodrigues([r() - 0.5, r() - 0.5, r() - 0.5], 2 * Math.PI * r()),
  p: [spread * (r() - 0.5), spread * (r() - 0.5), spread * (r() - 0.5)],
});

describe('a hull of a box collides as the box', () => {
  const size = [0.6, 0.9, 1.2] as const;
  const box: CollisionShape = { type: 'box', size },
    hull = boxHull(size);

  it('against a plane, a sphere and a capsule: the same contacts to 1e-9 at random poses', () => {
    const r = rng(11);
    const others: CollisionShape[] = [{ type: 'plane' }, { type: 'sphere', radius: 0.4 }, { type: 'capsule', radius: 0.2, length: 1.1 }];
    for (const other of others)
      for (let trial = 0; trial < 40; trial++) {
        const pose = poses(randomPose(r, 0.5), randomPose(r, 2));
        // a capsule's core point is a golden-section search (capsule-convex.ts): its normal is right to 1e-8 at a smooth minimum
        const tol = other.type === 'capsule' ? 1e-7 : 1e-9;
        sameContacts(contacts(pose, other, hull), contacts(pose, other, box), tol);
        sameContacts(contacts(pose, hull, other), contacts(pose, box, other), tol);
      }
  });

  it('against a box: resting flat, turned, on an edge, crossed, separated: the box-box manifold to 1e-9', () => {
    const table: CollisionShape = { type: 'box', size: [3, 3, 0.4] };
    const cases = [
      // resting flat, 1 mm deep: four corners
      poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [0.1, -0.2, 0.2 + 0.6 - 0.001] }),
      // turned 30 degrees about z, 2 mm deep
      poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([0, 0, 1], Math.PI / 6), p: [0.3, 0.1, 0.8 - 0.002] }),
      // hanging over the table's edge
      poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([0, 0, 1], 0.4), p: [1.45, 0, 0.8 - 0.003] }),
      // on an edge, tilted 10 degrees about x
      poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([1, 0, 0], 0.17), p: [0, 0, 0.85] }),
      // separated by 5 cm
      poses({ R: I3, p: [0, 0, 0] }, { R: rodrigues([1, 1, 0], 0.3), p: [0.2, 0.2, 1.5] }),
    ];
    for (const pose of cases) {
      const want = contacts(pose, table, box);
      expect(want.length).toBeGreaterThan(0);
      sameContacts(contacts(pose, table, hull), want, 1e-9);
      sameContacts(contacts(pose, boxHull(table.size), box), want, 1e-9);
      sameContacts(contacts(pose, boxHull(table.size), hull), want, 1e-9);
    }
    // resting flat: four corners at the depth, normal +z
    const flat = contacts(cases[0], table, hull);
    expect(flat.length).toBe(4);
    for (const c of flat) (expect(c.d).toBeCloseTo(-0.001, 12), expect(c.n).toEqual([0, 0, 1]));
  });

  it('two cubes on crossed edges: one contact at the crossing, as box-box', () => {
    const cube: CollisionShape = { type: 'box', size: [1, 1, 1] };
    const pose = poses({ R: rodrigues([1, 0, 0], Math.PI / 4), p: [0, 0, 0] }, { R: rodrigues([0, 1, 0], Math.PI / 4), p: [0, 0, Math.SQRT2 - 0.01] });
    const want = contacts(pose, cube, cube);
    expect(want.length).toBe(1);
    sameContacts(contacts(pose, boxHull([1, 1, 1]), boxHull([1, 1, 1])), want, 1e-9);
    expect(want[0].d).toBeCloseTo(-0.01, 12);
  });
});

/** the hull of n random points in a ball of the given radius */
function randomHull(r: () => number, radius: number, n = 8 + Math.floor(10 * r())): CollisionShape & { type: 'convex' } {
  const vertices: number[] = [];
  for (let k = 0; k < n; k++) {
    const u = [r() - 0.5, r() - 0.5, r() - 0.5],
      l = Math.hypot(...u);
    vertices.push(...u.map((x) => (radius * x * (0.6 + 0.4 * r())) / l));
  }
  return { type: 'convex', vertices };
}

const worldPoints = (pose: Float64Array, k: number, s: { vertices: readonly number[] }): V3[] => pointsOf(s.vertices).map((y) => world(pose, k, y));

/** GJK and EPA directly: the distance (> 0) or minus the penetration depth */
function penetration(pose: Float64Array, A: Solid, B: Solid): number {
  const sD = (dx: number, dy: number, dz: number, q: Vertex) => {
    (support(q.a, A, pose, 0, dx, dy, dz), support(q.b, B, pose, 12, -dx, -dy, -dz));
    for (let i = 0; i < 3; i++) q.w[i] = q.a[i] - q.b[i];
    return q;
  };
  const g = gjk(sD, [1, 0, 0], 1);
  return g.overlap ? -epa(sD, g.simplex, 1)!.depth : g.dist;
}

describe('random hulls against brute force', () => {
  it('separated: the distance is the least over vertex-triangle and edge-edge pairs (1e-9)', () => {
    const r = rng(3);
    let n = 0;
    for (let trial = 0; trial < 60; trial++) {
      const A = randomHull(r, 0.3 + r()),
        B = randomHull(r, 0.3 + r());
      const pose = poses(randomPose(r, 0.2), randomPose(r, 4));
      const [a, b] = [worldPoints(pose, 0, A), worldPoints(pose, 1, B)];
      // disjoint by the separating axes (exact for polytopes); then the nearest pair is a vertex-triangle or an edge-edge one
      if (satDepth(a, b) > -0.01) continue;
      const truth = hullDistance(a, b);
      n++;
      expect(Math.abs(signedDistance(pose, 0, A, 12, B) - truth)).toBeLessThan(1e-9);
    }
    expect(n).toBeGreaterThan(30);
  });

  it('overlapping: EPA depth is the separating-axis minimum (1e-9); the manifold within the face bias of it', () => {
    const r = rng(5);
    let n = 0;
    for (let trial = 0; trial < 60; trial++) {
      const A = randomHull(r, 0.5 + r()),
        B = randomHull(r, 0.5 + r());
      const pose = poses(randomPose(r, 0.2), randomPose(r, 1.2));
      const sat = satDepth(worldPoints(pose, 0, A), worldPoints(pose, 1, B));
      if (sat <= 0.01) continue;
      n++;
      expect(Math.abs(-penetration(pose, A, B) - sat)).toBeLessThan(1e-9);
      // the deepest manifold point: the overlap along the reference face, between the least overlap and it / 0.95 (convex-pair.ts)
      const d = signedDistance(pose, 0, A, 12, B);
      expect(-d).toBeGreaterThanOrEqual(sat - 1e-9);
      expect(-d).toBeLessThanOrEqual(sat / 0.95 + 1e-9);
    }
    expect(n).toBeGreaterThan(30);
  });

  it('a-b and b-a: the same contacts with normals flipped; the penetration continuous along a path', () => {
    const r = rng(9);
    const types: CollisionShape['type'][] = ['box', 'cylinder', 'convex'];
    const shape = (t: CollisionShape['type']): Solid =>
      t === 'box'
        ? { type: 'box', size: [0.3 + r(), 0.3 + r(), 0.3 + r()] }
        : t === 'cylinder'
          ? { type: 'cylinder', radius: 0.2 + r() / 2, length: 0.4 + r() }
          : randomHull(r, 0.4 + r());
    for (let trial = 0; trial < 90; trial++) {
      const A = shape(types[trial % 3]),
        B = shape(types[Math.floor(trial / 3) % 3]);
      if (A.type === 'box' && B.type === 'box') continue;
      const pose = poses(randomPose(r, 0.2), randomPose(r, 1.5));
      const ab = contacts(pose, A, B);
      const swapped = new Float64Array(24);
      (swapped.set(pose.subarray(12, 24), 0), swapped.set(pose.subarray(0, 12), 12));
      const ba = contacts(swapped, B, A).map((c) => ({ ...c, n: c.n.map((x) => -x) }));
      if (A.type !== B.type) sameContacts(ab, ba, 1e-12);
      else expect(Math.min(...ab.map((c) => c.d))).toBeCloseTo(Math.min(...ba.map((c) => c.d)), 8);
      // along a straight path of B, the penetration (or distance) moves no faster than B
      const step = 1e-3,
        dir = [r() - 0.5, r() - 0.5, r() - 0.5].map((x, _, a) => x / Math.hypot(...a));
      let last = penetration(pose, A, B);
      for (let k = 1; k <= 20; k++) {
        const moved = Float64Array.from(pose);
        for (let i = 0; i < 3; i++) moved[21 + i] += k * step * dir[i];
        const now = penetration(moved, A, B);
        expect(Math.abs(now - last)).toBeLessThanOrEqual(step * (1 + 1e-6) + 1e-9);
        last = now;
      }
    }
  });
});

describe('a bad convex shape is a ModelError naming its owner', () => {
  it('flat, too few, not finite, not triples', () => {
    const flat = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 0];
    expect(() => checkShape({ type: 'convex', vertices: flat }, 'arm')).toThrow(/collision geometry of arm: convex vertices \(5 points\) span no volume/);
    expect(() => checkShape({ type: 'convex', vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0] }, 'arm')).toThrow(ModelError);
    expect(() => checkShape({ type: 'convex', vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NaN] }, 'arm')).toThrow(/convex vertex 4 has NaN/);
    expect(() => checkShape({ type: 'convex', vertices: [0, 0, 0, 1] }, 'arm')).toThrow(/not x y z triples/);
    const m = new Mechanism('m');
    expect(() => m.body('plate', { m: 1, I: [1, 1, 1], collision: [{ shape: { type: 'convex', vertices: flat }, name: 'mesh' }] })).toThrow(
      /collision geometry of plate \(mesh\): convex vertices/,
    );
  });

  it('a hull in a scene: pairs with every shape, no NaN at coincident poses', () => {
    const m = new Mechanism('m');
    const shapes: CollisionShape[] = [
      boxHull([1, 1, 1]),
      { type: 'cylinder', radius: 0.5, length: 1 },
      { type: 'box', size: [1, 1, 1] },
      { type: 'sphere', radius: 0.5 },
      { type: 'capsule', radius: 0.3, length: 1 },
    ];
    shapes.forEach((shape, k) => {
      const f = m.free(`j${k}`);
      const b = m.body(`b${k}`, { m: 1, I: [1, 1, 1], collision: [{ shape }] });
      (m.connect(m.world.frame_b, f.frame_a), m.connect(f.frame_b, b.frame_a));
    });
    m.ground();
    expect(ContactScene.of(m).pairs.length).toBe(15);
    // every pair at the same pose (all centres at the origin): finite contacts
    const pose = poses({ R: I3, p: [0, 0, 0] }, { R: I3, p: [0, 0, 0] });
    for (const A of shapes)
      for (const B of shapes) for (const c of contacts(pose, A, B)) expect([c.d, ...c.n, ...c.p].every(Number.isFinite), `${A.type}-${B.type}`).toBe(true);
  });
});
