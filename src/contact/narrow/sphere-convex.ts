// Sphere (A) against a convex hull (B), as sphere-box.ts against a box: with
// c the centre in B's frame and s = max over the hull's faces of n.c - d
// (hull.ts), c is inside when s <= 0:
// Inside:   the face of s, the least way out: d = s - r, n = -n_face (B is
//           pushed away through it), B's point the projection c - s n_face.
// Outside:  B's point nearest c, by GJK (gjk.ts) on the point against the
//           hull: d = |q - c| - r, n = (q - c) / |q - c|.
// The contact point is midway between c + r n and B's point. A capsule's
// core points come here too (capsule-convex.ts), as to sphere-box.ts.
import { type CollisionShape, hullOfShape } from '../shapes.ts';
import type { ContactList } from './contact-list.ts';
import { gjk } from './gjk.ts';
import { type V, support } from './support.ts';

type Convex = Extract<CollisionShape, { type: 'convex' }>;

export function sphereConvex(out: ContactList, pose: ArrayLike<number>, a: number, radius: number, b: number, B: Convex, margin: number, pair: number): void {
  sphereConvexAt(out, [pose[a + 9], pose[a + 10], pose[a + 11]], radius, pose, b, B, margin, pair);
}

// (centre (world) and radius, the hull's pose at b) => the contact pushed when d < margin
export function sphereConvexAt(
  out: ContactList,
  centre: readonly number[],
  radius: number,
  pose: ArrayLike<number>,
  b: number,
  B: Convex,
  margin: number,
  pair: number,
): void {
  const near = nearestOnConvex(centre, pose, b, B);
  const d = near.dist - radius;
  if (!(d < margin)) return;
  const n = near.n;
  const mid = (i: number) => 0.5 * (centre[i] + radius * n[i] + near.q[i]);
  out.push(d, n[0], n[1], n[2], mid(0), mid(1), mid(2), pair);
}

/** the hull's signed distance at world point x (negative inside): what capsule-convex.ts minimises along the core */
export const convexDistanceAt = (x: readonly number[], pose: ArrayLike<number>, b: number, B: Convex) => nearestOnConvex(x, pose, b, B).dist;

// (world point x, the hull's pose) => its signed distance, the unit normal from x towards the hull's surface (outside) or out through the nearest face (inside), and the hull's point
function nearestOnConvex(x: readonly number[], pose: ArrayLike<number>, b: number, B: Convex): { dist: number; n: V; q: V } {
  const hull = hullOfShape(B);
  const w = [x[0] - pose[b + 9], x[1] - pose[b + 10], x[2] - pose[b + 11]];
  const c = [0, 1, 2].map((j) => pose[b + j] * w[0] + pose[b + 3 + j] * w[1] + pose[b + 6 + j] * w[2]);
  let s = -Infinity,
    face = hull.faces[0];
  for (const f of hull.faces) {
    const e = f.n[0] * c[0] + f.n[1] * c[1] + f.n[2] * c[2] - f.d;
    if (e > s) ((s = e), (face = f));
  }
  const world = (v: readonly number[], i: number) => pose[b + 3 * i] * v[0] + pose[b + 3 * i + 1] * v[1] + pose[b + 3 * i + 2] * v[2];
  const inside = () => {
    const nl = face.n.map((v) => -v),
      surface = [c[0] - s * face.n[0], c[1] - s * face.n[1], c[2] - s * face.n[2]];
    return { dist: s, n: [world(nl, 0), world(nl, 1), world(nl, 2)] as V, q: [0, 1, 2].map((i) => pose[b + 9 + i] + world(surface, i)) as V };
  };
  if (s <= 0) return inside();
  const g = gjk(
    (dx, dy, dz, q) => {
      ((q.a[0] = x[0]), (q.a[1] = x[1]), (q.a[2] = x[2]));
      support(q.b, B, pose, b, -dx, -dy, -dz);
      ((q.w[0] = x[0] - q.b[0]), (q.w[1] = x[1] - q.b[1]), (q.w[2] = x[2] - q.b[2]));
      return q;
    },
    [w[0], w[1], w[2]],
    hull.radius,
  );
  // on the surface within GJK's tolerance: the face's answer
  if (g.overlap) return inside();
  const len = Math.hypot(g.b[0] - x[0], g.b[1] - x[1], g.b[2] - x[2]);
  return { dist: g.dist, n: [(g.b[0] - x[0]) / len, (g.b[1] - x[1]) / len, (g.b[2] - x[2]) / len], q: g.b };
}
