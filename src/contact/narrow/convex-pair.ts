// Any two of box, cylinder and convex (A, B) with no closed form of their
// own (box-box has box-box.ts): box-cylinder, cylinder-cylinder and every
// pair with a convex hull. GJK (gjk.ts) on their support functions gives
// the distance of separated solids: one contact at the closest points,
// n = (b - a) / |b - a|. Overlapping ones go to EPA (epa.ts): depth delta
// and normal n (A to B) of the least penetration. Then a manifold, as
// box-box.ts's (ODE's dBoxBox): the face of A along n and the face of B
// along -n (features.ts) are candidate reference faces; the one of least
// overlap along its own normal is taken when that overlap is within
// FACE_BIAS of delta (face contacts win near-ties, as box-box.ts), and the
// other solid's feature facing it (its face, disc rim or side line) is
// clipped by its side planes (Sutherland-Hodgman, clip.ts; a disc's by its
// circle): every clipped point below the reference face is a contact, its
// depth along the face's normal. So a box-shaped hull on a box, or a
// cylinder on its end, rests on its corners or its rim. When no face is
// near the least penetration (edge against edge) or clipping leaves
// nothing, or cuts off the deepest point (a corner of the incident face
// beyond the reference face's sides): one contact at EPA's points,
// d = -delta, besides the clipped ones.
import type { ContactList } from './contact-list.ts';
import { epa } from './epa.ts';
import { type Feature, featureAlong } from './features.ts';
import { type MinkowskiSupport, type Vertex, gjk } from './gjk.ts';
import { clip } from './clip.ts';
import { type Solid, type V, sizeOf, support } from './support.ts';

/** a face is the reference when its overlap is at most delta / FACE_BIAS (box-box.ts's bias) */
const FACE_BIAS = 0.95;

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

// (contacts, poses, A's pose index and shape, B's, margin, pair) => the pair's contacts with distance < margin appended
export function convexPair(out: ContactList, pose: ArrayLike<number>, a: number, A: Solid, b: number, B: Solid, margin: number, pair: number): void {
  const sD: MinkowskiSupport = (dx, dy, dz, q: Vertex) => {
    support(q.a, A, pose, a, dx, dy, dz);
    support(q.b, B, pose, b, -dx, -dy, -dz);
    ((q.w[0] = q.a[0] - q.b[0]), (q.w[1] = q.a[1] - q.b[1]), (q.w[2] = q.a[2] - q.b[2]));
    return q;
  };
  const size = Math.max(sizeOf(A), sizeOf(B));
  // the first direction: from B's origin to A's (D's point nearest the origin lies that way for solids about their origins)
  const d0: V = [pose[a + 9] - pose[b + 9], pose[a + 10] - pose[b + 10], pose[a + 11] - pose[b + 11]];
  if (Math.hypot(...d0) === 0) d0[2] = 1;
  const g = gjk(sD, d0, size);
  if (!g.overlap) {
    if (!(g.dist < margin)) return;
    const e = sub(g.b, g.a),
      len = Math.hypot(...e);
    const n = e.map((x) => x / len);
    out.push(g.dist, n[0], n[1], n[2], (g.a[0] + g.b[0]) / 2, (g.a[1] + g.b[1]) / 2, (g.a[2] + g.b[2]) / 2, pair);
    return;
  }
  const pen = epa(sD, g.simplex, size);
  // D flat: a solid of no volume, which checkShape refuses; touching at most
  if (!pen) return;
  const h = (u: V) => dot(u, sD(u[0], u[1], u[2], { w: [0, 0, 0], a: [0, 0, 0], b: [0, 0, 0] }).w);
  const fa = featureAlong(A, pose, a, pen.n),
    fb = featureAlong(B, pose, b, [-pen.n[0], -pen.n[1], -pen.n[2]]);
  // candidate references: the overlap along each face's normal (A to B), least first, A's on a tie
  const candidates = [
    { ref: fa, inc: fb, sign: 1, overlap: fa.kind === 'line' ? Infinity : h(fa.n) },
    { ref: fb, inc: fa, sign: -1, overlap: fb.kind === 'line' ? Infinity : h(fb.n.map((x) => -x) as V) },
  ].sort((x, y) => x.overlap - y.overlap);
  const from = out.count;
  for (const c of candidates) {
    if (!(pen.depth >= FACE_BIAS * c.overlap - 1e-12 * size)) continue;
    if (clipped(out, c.ref, c.inc, c.sign, margin, pair, size)) break;
  }
  // the manifold holds the least penetration (its deepest point at least delta deep), unless clipping cut the deepest point off
  if (out.count > from && out.minFrom(from) <= -pen.depth + 1e-9 * size) return;
  if (!(-pen.depth < margin)) return;
  out.push(-pen.depth, pen.n[0], pen.n[1], pen.n[2], (pen.a[0] + pen.b[0]) / 2, (pen.a[1] + pen.b[1]) / 2, (pen.a[2] + pen.b[2]) / 2, pair);
}

// (reference face, incident feature, +1 when the reference is A's) => the clipped points pushed; false when none is left
function clipped(out: ContactList, ref: Feature, inc: Feature, sign: number, margin: number, pair: number, size: number): boolean {
  let poly = inc.points.map((x) => [...x] as V);
  if (ref.kind === 'face') {
    const P = ref.points;
    const mid = P.reduce((m, x) => [m[0] + x[0] / P.length, m[1] + x[1] / P.length, m[2] + x[2] / P.length], [0, 0, 0]);
    for (let k = 0; k < P.length && poly.length; k++) {
      const e = sub(P[(k + 1) % P.length], P[k]);
      const u = cross(e, ref.n);
      const len = Math.hypot(...u);
      if (!(len > 0)) continue;
      const s = dot(u, sub(mid, P[k])) > 0 ? -1 : 1;
      poly = clip(poly, u, s, s * dot(u, P[k]));
    }
  } else poly = clipDisc(poly, ref);
  const n = ref.n,
    top = dot(n, ref.points[0]);
  const kept: V[] = [];
  let pushed = false;
  for (const x of poly) {
    // rounding and a line's two edges repeat points: one contact each
    if (kept.some((y) => Math.hypot(...sub(x, y)) <= 1e-12 * size)) continue;
    kept.push(x);
    const d = dot(n, x) - top;
    if (!(d < margin)) continue;
    out.push(d, sign * n[0], sign * n[1], sign * n[2], x[0] - (d / 2) * n[0], x[1] - (d / 2) * n[1], x[2] - (d / 2) * n[2], pair);
    pushed = true;
  }
  return pushed;
}

/** the polygon's part within the disc's cylinder (its vertices inside, and where its edges cross the circle) */
function clipDisc(poly: V[], disc: Feature): V[] {
  const c = disc.centre!,
    r = disc.radius!,
    n = disc.n;
  // the radial offset of x from the disc's axis
  const radial = (x: V) => {
    const w = sub(x, c),
      t = dot(w, n);
    return [w[0] - t * n[0], w[1] - t * n[1], w[2] - t * n[2]];
  };
  const kept: V[] = [];
  for (let k = 0; k < poly.length; k++) {
    const x = poly[k],
      y = poly[(k + 1) % poly.length];
    const p = radial(x),
      q = radial(y);
    if (dot(p, p) <= r * r) kept.push(x);
    // |p + t (q - p)| = r for t in (0, 1)
    const e = sub(q, p),
      A = dot(e, e),
      B = 2 * dot(p, e),
      C = dot(p, p) - r * r;
    const disc2 = B * B - 4 * A * C;
    if (!(A > 0) || disc2 < 0) continue;
    for (const t of [(-B - Math.sqrt(disc2)) / (2 * A), (-B + Math.sqrt(disc2)) / (2 * A)])
      if (t > 0 && t < 1) kept.push([x[0] + t * (y[0] - x[0]), x[1] + t * (y[1] - x[1]), x[2] + t * (y[2] - x[2])]);
  }
  return kept;
}
