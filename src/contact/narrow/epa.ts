// EPA, the expanding polytope algorithm: the penetration of two overlapping
// convex solids (van den Bergen, "Proximity queries and penetration depth
// computation on 3D game objects", GDC 2001), on D = A - B as gjk.ts. The
// origin is inside D; a polytope of D's points around it (GJK's simplex,
// blown up to a tetrahedron) grows towards the origin's nearest boundary
// point: take its face nearest the origin (normal n, distance dist), add
// D's support point w along n, replace the faces w sees by a fan from their
// horizon; stop when w is no farther out than the face, n.w - dist <= TOL
// (size), or when rounding has made the polytope non-convex (its nearest
// face comes nearer: the last good face is kept). Then v = dist n is the nearest point of D's boundary:
//   depth  |v| = dist   (the shortest move of B that separates them is v)
//   normal n, from A to B
//   points on A and B  sum lambda a, sum lambda b over the face's corners,
//          lambda v's barycentric coordinates in the face.
// Polytopes (box, convex) end exactly on a face of D; a cylinder's curved
// side converges geometrically (each face split near the minimum cuts its
// error about 4 times), MAX_ITERATIONS bounds it.
import { type MinkowskiSupport, type Vertex, newVertex } from './gjk.ts';
import type { V } from './support.ts';

export interface Penetration {
  depth: number;
  /** unit, from A to B */
  n: V;
  /** A's point deepest in B, and B's deepest in A (world) */
  a: V;
  b: V;
}

interface Face {
  v: [Vertex, Vertex, Vertex];
  n: V;
  dist: number;
  /** the origin's projection on the plane lies in the triangle (van den Bergen's rule: only such faces can hold the nearest point) */
  inside: boolean;
}

/** stop when the support point is within TOL (size) beyond the nearest face: 1e-13 of a 1 m solid (a curved side's normal then to about 1e-6) */
const TOL = 1e-13;
/** a face is seen from a point this far (size) above its plane; below it the point counts as on it */
const SEEN = 1e-14;
const MAX_ITERATIONS = 200;

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

// (D's support, GJK's simplex holding the origin, the solids' size (m)) => the penetration; undefined when D is flat (no volume)
export function epa(sD: MinkowskiSupport, simplex: Vertex[], size: number): Penetration | undefined {
  const start = tetrahedron(sD, simplex, size);
  if (!start) return undefined;
  const inner = centroid(start);
  const face = (a: Vertex, b: Vertex, c: Vertex): Face | undefined => {
    const m = cross(sub(b.w, a.w), sub(c.w, a.w));
    const len = Math.hypot(m[0], m[1], m[2]);
    if (!(len > 0)) return undefined;
    let n: V = [m[0] / len, m[1] / len, m[2] / len];
    // outward: away from the polytope's inner point (it stays inside as the polytope grows)
    if (dot(n, sub(a.w, inner)) < 0) ((n = [-n[0], -n[1], -n[2]]), ([b, c] = [c, b]));
    const dist = dot(n, a.w),
      x: V = [dist * n[0], dist * n[1], dist * n[2]];
    const inside = [a, b, c].every((p, k, v) => dot(n, cross(sub(v[(k + 1) % 3].w, p.w), sub(x, p.w))) >= -1e-12 * len);
    return { v: [a, b, c], n, dist, inside };
  };
  const nearestOf = (list: Face[]) =>
    list.reduce((m, f) => ((f.inside && (!m.inside || f.dist < m.dist)) || (!m.inside && !f.inside && f.dist < m.dist) ? f : m), list[0]);
  const [p, q, r, s] = start;
  let faces = [face(p, q, r), face(p, r, s), face(p, s, q), face(q, s, r)].filter((f): f is Face => f !== undefined);
  let best = faces[0];
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    const nearest = nearestOf(faces);
    // the polytope only grows, so its nearest face only moves out: one nearer is rounding's damage, keep the last good face
    if (it > 0 && nearest.dist < best.dist - SEEN * size) break;
    best = nearest;
    const w = sD(best.n[0], best.n[1], best.n[2], newVertex());
    if (dot(best.n, w.w) - best.dist <= TOL * size) break;
    // the faces w sees, and their horizon: edges whose reverse is not an edge of a seen face
    const seen = faces.filter((f) => dot(f.n, sub(w.w, f.v[0].w)) > SEEN * size);
    if (seen.length === 0) break;
    const edges = new Map<string, [Vertex, Vertex]>();
    const key = new Map<Vertex, number>();
    const id = (x: Vertex) => key.get(x) ?? (key.set(x, key.size), key.size - 1);
    for (const f of seen) for (let k = 0; k < 3; k++) edges.set(`${id(f.v[k])} ${id(f.v[(k + 1) % 3])}`, [f.v[k], f.v[(k + 1) % 3]]);
    const fan: Face[] = [];
    for (const [k, [x, y]] of edges) {
      const [i, j] = k.split(' ');
      if (edges.has(`${j} ${i}`)) continue;
      const f = face(x, y, w);
      if (f) fan.push(f);
    }
    const gone = new Set(seen);
    faces = [...faces.filter((f) => !gone.has(f)), ...fan];
    if (faces.length === 0) return undefined;
  }
  return penetrationOn(best);
}

/** the origin's projection on the face, as depth, normal and the witness points */
function penetrationOn(f: Face): Penetration {
  const [p, q, r] = f.v;
  const x: V = [f.dist * f.n[0], f.dist * f.n[1], f.dist * f.n[2]];
  const m = cross(sub(q.w, p.w), sub(r.w, p.w)),
    mm = dot(m, m);
  let l0 = dot(m, cross(sub(q.w, x), sub(r.w, x))) / mm,
    l1 = dot(m, cross(sub(r.w, x), sub(p.w, x))) / mm;
  // rounding can put the projection a hair outside the face: clamp into it
  ((l0 = Math.max(0, l0)), (l1 = Math.max(0, l1)));
  const l2 = Math.max(0, 1 - l0 - l1),
    sum = l0 + l1 + l2;
  const mix = (k: 'a' | 'b'): V => [0, 1, 2].map((i) => (l0 * p[k][i] + l1 * q[k][i] + l2 * r[k][i]) / sum) as V;
  return { depth: Math.max(0, f.dist), n: f.n, a: mix('a'), b: mix('b') };
}

const centroid = (t: Vertex[]): V => [0, 1, 2].map((i) => (t[0].w[i] + t[1].w[i] + t[2].w[i] + t[3].w[i]) / 4) as V;

/** four points of D spanning a volume around the origin: GJK's simplex, completed by supports along directions it lacks */
function tetrahedron(sD: MinkowskiSupport, simplex: Vertex[], size: number): Vertex[] | undefined {
  const W = [...simplex];
  const far = 1e-9 * size;
  // the directions to try: the axes, then across what W spans
  const tryAdd = (dirs: V[], ok: (x: Vertex) => boolean) => {
    for (const d of dirs)
      for (const s of [1, -1]) {
        const x = sD(s * d[0], s * d[1], s * d[2], newVertex());
        if (ok(x)) return W.push(x) > 0;
      }
    return false;
  };
  const AXES: V[] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  if (W.length === 1 && !tryAdd(AXES, (x) => Math.hypot(...sub(x.w, W[0].w)) > far)) return undefined;
  if (W.length === 2) {
    const e = sub(W[1].w, W[0].w);
    const across = AXES.map((a) => cross(e, a)).filter((c) => Math.hypot(...c) > 0);
    if (!tryAdd(across, (x) => Math.hypot(...cross(e, sub(x.w, W[0].w))) > far * Math.hypot(...e))) return undefined;
  }
  if (W.length === 3) {
    const n = cross(sub(W[1].w, W[0].w), sub(W[2].w, W[0].w));
    if (!tryAdd([n], (x) => Math.abs(dot(n, sub(x.w, W[0].w))) > far * Math.hypot(...n))) return undefined;
  }
  return W;
}
