// Brute-force oracles for convex hulls, independent of src/contact/hull.ts
// and of GJK/EPA: the hull's face triangles are the triples of points with
// every other point on one side of their plane (O(n^4), for the tests' few
// points); a point's signed distance is the largest face-plane distance
// inside, the least distance to a face triangle outside; the distance of
// two hulls is the least over vertex-triangle and edge-edge pairs of their
// face triangles; their penetration (SAT) the least overlap over the face
// normals of both and the cross products of their edges.

export type V3 = [number, number, number];

const sub = (a: readonly number[], b: readonly number[]): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: readonly number[], b: readonly number[]): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: readonly number[]) => Math.hypot(a[0], a[1], a[2]);

export const pointsOf = (xyz: readonly number[]): V3[] => Array.from({ length: xyz.length / 3 }, (_, k) => [xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2]]);

/** the hull's face triangles (outward unit normal n, offset d), by brute force over triples */
export function hullTriangles(points: readonly V3[]): { t: [V3, V3, V3]; n: V3; d: number }[] {
  const out: { t: [V3, V3, V3]; n: V3; d: number }[] = [];
  const size = Math.max(...points.map(norm));
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++)
      for (let k = j + 1; k < points.length; k++) {
        const m = cross(sub(points[j], points[i]), sub(points[k], points[i]));
        const len = norm(m);
        if (len < 1e-12 * size * size) continue;
        let n = m.map((x) => x / len) as V3;
        let d = dot(n, points[i]);
        const side = points.map((p) => dot(n, p) - d);
        const above = side.some((s) => s > 1e-12 * size),
          below = side.some((s) => s < -1e-12 * size);
        if (above && below) continue;
        if (above) ((n = n.map((x) => -x) as V3), (d = -d));
        out.push({ t: [points[i], points[j], points[k]], n, d });
      }
  return out;
}

/** the point of segment p q nearest x */
export function nearestOnSegment(x: readonly number[], p: readonly number[], q: readonly number[]): V3 {
  const e = sub(q, p),
    ee = dot(e, e);
  const t = ee > 0 ? Math.max(0, Math.min(1, dot(sub(x, p), e) / ee)) : 0;
  return [p[0] + t * e[0], p[1] + t * e[1], p[2] + t * e[2]];
}

/** the point of triangle t nearest x: its projection when inside, else the nearest of its edges' points */
export function nearestOnTriangle(x: readonly number[], t: readonly V3[]): V3 {
  const n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
  const s = dot(n, sub(x, t[0])) / dot(n, n);
  const q: V3 = [x[0] - s * n[0], x[1] - s * n[1], x[2] - s * n[2]];
  const inside = [0, 1, 2].every((k) => dot(n, cross(sub(t[(k + 1) % 3], t[k]), sub(q, t[k]))) >= 0);
  if (inside) return q;
  // the nearest of the three edges' points (the first on a tie), each edge's distance taken once
  let best = nearestOnSegment(x, t[0], t[1]),
    least = norm(sub(best, x));
  for (let k = 1; k < 3; k++) {
    const c = nearestOnSegment(x, t[k], t[(k + 1) % 3]),
      d = norm(sub(c, x));
    if (d < least) ((best = c), (least = d));
  }
  return best;
}

/** the signed distance of x to the hull of the triangles (negative inside) */
export function hullSdf(tris: ReturnType<typeof hullTriangles>, x: readonly number[]): number {
  let s = -Infinity;
  for (const f of tris) s = Math.max(s, dot(f.n, x) - f.d);
  if (s <= 0) return s;
  // outside: the least distance to a face triangle, over the faces whose plane x is above. The nearest point p of
  // the hull has x - p in its normal cone, a sum of the normals of the faces through p with weights >= 0, so
  // |x - p|^2 = sum w_i n_i.(x - p) > 0 makes n_i.(x - p) = n_i.x - d_i > 0 for one of them: a face x is above
  // holds p, and the faces below x cannot be nearer (half the triangles, the narrow phase tests' sampled oracle)
  let least = Infinity;
  for (const f of tris) if (dot(f.n, x) - f.d > 0) least = Math.min(least, norm(sub(nearestOnTriangle(x, f.t), x)));
  return least;
}

/** the distance of two segments, by sampling-free brute force: the least of the four end-segment distances and the interior solution */
function segmentDistance(p1: V3, q1: V3, p2: V3, q2: V3): number {
  let best = Math.min(
    norm(sub(nearestOnSegment(p1, p2, q2), p1)),
    norm(sub(nearestOnSegment(q1, p2, q2), q1)),
    norm(sub(nearestOnSegment(p2, p1, q1), p2)),
    norm(sub(nearestOnSegment(q2, p1, q1), q2)),
  );
  // both interior: the common perpendicular, when its feet lie inside both
  const d1 = sub(q1, p1),
    d2 = sub(q2, p2),
    r = sub(p1, p2);
  const a = dot(d1, d1),
    b = dot(d1, d2),
    c = dot(d1, r),
    e = dot(d2, d2),
    f = dot(d2, r);
  const den = a * e - b * b;
  if (den > 1e-14 * a * e) {
    const s = (b * f - c * e) / den,
      t = (a * f - b * c) / den;
    if (s > 0 && s < 1 && t > 0 && t < 1)
      best = Math.min(best, norm(sub([p1[0] + s * d1[0], p1[1] + s * d1[1], p1[2] + s * d1[2]], [p2[0] + t * d2[0], p2[1] + t * d2[1], p2[2] + t * d2[2]])));
  }
  return best;
}

/** the distance of two disjoint hulls (world points): least over vertex-triangle pairs both ways and edge-edge pairs */
export function hullDistance(a: readonly V3[], b: readonly V3[]): number {
  const ta = hullTriangles(a),
    tb = hullTriangles(b);
  let best = Infinity;
  for (const x of a) for (const f of tb) best = Math.min(best, norm(sub(nearestOnTriangle(x, f.t), x)));
  for (const x of b) for (const f of ta) best = Math.min(best, norm(sub(nearestOnTriangle(x, f.t), x)));
  for (const f of ta)
    for (const g of tb)
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) best = Math.min(best, segmentDistance(f.t[i], f.t[(i + 1) % 3], g.t[j], g.t[(j + 1) % 3]));
  return best;
}

/** the least overlap of two hulls over their face normals and edge cross products (SAT): their penetration depth (negative: separated along that axis) */
export function satDepth(a: readonly V3[], b: readonly V3[]): number {
  const ta = hullTriangles(a),
    tb = hullTriangles(b);
  const axes: V3[] = [...ta.map((f) => f.n), ...tb.map((f) => f.n)];
  const edges = (t: typeof ta) => t.flatMap((f) => [0, 1, 2].map((k) => sub(f.t[(k + 1) % 3], f.t[k])));
  for (const u of edges(ta))
    for (const w of edges(tb)) {
      const c = cross(u, w),
        l = norm(c);
      if (l > 1e-9 * norm(u) * norm(w)) axes.push(c.map((x) => x / l) as V3);
    }
  let least = Infinity;
  for (const L of axes) {
    const pa = a.map((x) => dot(L, x)),
      pb = b.map((x) => dot(L, x));
    const overlap = Math.min(Math.max(...pa) - Math.min(...pb), Math.max(...pb) - Math.min(...pa));
    least = Math.min(least, overlap);
  }
  return least;
}

/** about n points on the hull's surface (on its face triangles, by area-blind barycentric grids) */
export function hullSamples(points: readonly V3[], n: number): V3[] {
  const tris = hullTriangles(points);
  const m = Math.max(2, Math.ceil(Math.sqrt((2 * n) / tris.length)));
  const out: V3[] = [];
  for (const { t } of tris)
    for (let i = 0; i <= m; i++)
      for (let j = 0; j <= m - i; j++) {
        const u = i / m,
          v = j / m,
          w = 1 - u - v;
        out.push([0, 1, 2].map((k) => u * t[0][k] + v * t[1][k] + w * t[2][k]) as V3);
      }
  return out;
}
