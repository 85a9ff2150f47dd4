// Box (A) against box (B): the separating-axis test over the 15 candidate
// axes (Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996: three face
// normals of each box and the nine cross products of their edges), then a
// contact manifold as ODE's dBoxBox (Russell Smith, ode/src/box.cpp) and
// Bullet's btBoxBoxDetector, which is the same code:
//   - the axis of least penetration (face axes preferred: an edge axis wins
//     only when it is clearly shallower, FACE_BIAS, so resting boxes keep a
//     face contact when an edge pair ties with it);
//   - a face axis: the box it belongs to gives the reference face (its face
//     towards the other box), the other box the incident face (its face most
//     against the normal); the incident face is clipped by the reference
//     face's four side planes (Sutherland-Hodgman), and every clipped point
//     below the reference face is a contact, its depth measured along the
//     normal (up to 8 points; a box resting flat on another: its 4 corners);
//   - an edge axis: one contact at the closest points of the two edges that
//     lie furthest along the axis, towards each other.
// Separated boxes (some axis separates them) get their exact distance, for
// margins above 0 and for tools: the closest pair of two disjoint convex
// polytopes involves a vertex or two edges (a face-face or edge-face closest
// pair is a convex set that reaches a lower-dimensional feature), so it is
// the least of the 16 vertices against the other box (clamping, Ericson
// 5.1.3) and the 144 edge pairs (segments.ts).
import type { CollisionShape } from '../shapes.ts';
import type { ContactList } from './contact-list.ts';
import { closestSegmentSegment } from './segments.ts';
import { clip } from './clip.ts';

type Box = Extract<CollisionShape, { type: 'box' }>;
type V = [number, number, number];

/** an edge axis replaces the best face axis only when its penetration is below FACE_BIAS times the face's */
const FACE_BIAS = 0.95;
/** cross products of nearly parallel edges (|a x b| below this) are no axis: their direction is noise */
const PARALLEL = 1e-6;

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const axis = (pose: ArrayLike<number>, at: number, j: number): V => [pose[at + j], pose[at + 3 + j], pose[at + 6 + j]];
const along = (p: ArrayLike<number>, s: number, d: ArrayLike<number>): V => [p[0] + s * d[0], p[1] + s * d[1], p[2] + s * d[2]];

interface Frame {
  c: V;
  ax: [V, V, V];
  h: V;
}

const frameOf = (pose: ArrayLike<number>, at: number, box: Box): Frame => ({
  c: [pose[at + 9], pose[at + 10], pose[at + 11]],
  ax: [axis(pose, at, 0), axis(pose, at, 1), axis(pose, at, 2)],
  h: [box.size[0] / 2, box.size[1] / 2, box.size[2] / 2],
});

/** the box's half-width along unit direction L */
const radius = (F: Frame, L: V) => F.h[0] * Math.abs(dot(F.ax[0], L)) + F.h[1] * Math.abs(dot(F.ax[1], L)) + F.h[2] * Math.abs(dot(F.ax[2], L));

export function boxBox(out: ContactList, pose: ArrayLike<number>, a: number, A: Box, b: number, B: Box, margin: number, pair: number): void {
  const FA = frameOf(pose, a, A),
    FB = frameOf(pose, b, B);
  const D: V = [FB.c[0] - FA.c[0], FB.c[1] - FA.c[1], FB.c[2] - FA.c[2]];
  // the axis of largest separation s = |L.D| - rA - rB (negative: the penetration along L)
  let best = -Infinity,
    bestAxis: V = [0, 0, 1],
    kind = -1;
  for (let f = 0; f < 6; f++) {
    const L = (f < 3 ? FA : FB).ax[f % 3];
    const s = Math.abs(dot(L, D)) - radius(FA, L) - radius(FB, L);
    if (s > best) ((best = s), (bestAxis = L), (kind = f));
  }
  let edge: [number, number] | undefined,
    edgeBest = -Infinity,
    edgeAxis: V = bestAxis;
  let separated = best > 0;
  for (let i = 0; i < 3 && !separated; i++)
    for (let j = 0; j < 3; j++) {
      const u = FA.ax[i],
        w = FB.ax[j];
      const L: V = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
      const len = Math.hypot(L[0], L[1], L[2]);
      if (len < PARALLEL) continue;
      ((L[0] /= len), (L[1] /= len), (L[2] /= len));
      const s = Math.abs(dot(L, D)) - radius(FA, L) - radius(FB, L);
      if (s > 0) {
        separated = true;
        break;
      }
      if (s > edgeBest) ((edgeBest = s), (edgeAxis = L), (edge = [i, j]));
    }
  if (edge && !(edgeBest > FACE_BIAS * best + 1e-12)) edge = undefined;
  if (edge) bestAxis = edgeAxis;
  if (separated) return separatedBoxes(out, FA, FB, margin, pair);
  // n: the axis oriented from A to B
  const n: V = dot(bestAxis, D) < 0 ? [-bestAxis[0], -bestAxis[1], -bestAxis[2]] : [...bestAxis];
  if (edge) return edgeEdge(out, FA, FB, edge[0], edge[1], n, margin, pair);
  if (kind < 3) return faceContacts(out, FA, FB, kind, n, margin, pair, 1);
  faceContacts(out, FB, FA, kind - 3, [-n[0], -n[1], -n[2]], margin, pair, -1);
}

// (reference box R, incident box I, R's face axis, nR the normal from R to I, sign: +1 when R is A) => the clipped contacts
function faceContacts(out: ContactList, R: Frame, I: Frame, i: number, nR: V, margin: number, pair: number, sign: 1 | -1): void {
  const side = dot(R.ax[i], nR) > 0 ? 1 : -1;
  const face = along(R.c, side * R.h[i], R.ax[i]);
  // the incident face: I's face whose outward normal is most against nR
  let j = 0;
  for (let k = 1; k < 3; k++) if (Math.abs(dot(I.ax[k], nR)) > Math.abs(dot(I.ax[j], nR))) j = k;
  const out_j = dot(I.ax[j], nR) > 0 ? -1 : 1;
  const ic = along(I.c, out_j * I.h[j], I.ax[j]);
  const [p, q] = [(j + 1) % 3, (j + 2) % 3];
  let poly: V[] = [
    [1, 1],
    [-1, 1],
    [-1, -1],
    [1, -1],
  ].map(([sp, sq]) => along(along(ic, sp * I.h[p], I.ax[p]), sq * I.h[q], I.ax[q]));
  // clip by the reference face's side planes: |(x - face).u| <= h_u for its two other axes
  for (const k of [(i + 1) % 3, (i + 2) % 3])
    for (const s of [1, -1]) {
      poly = clip(poly, R.ax[k], s, dot(R.ax[k], face) * s + R.h[k]);
      if (poly.length === 0) return;
    }
  const top = dot(nR, face);
  for (const x of poly) {
    const depth = top - dot(nR, x);
    if (!(-depth < margin)) continue;
    // midway between x (on I's face) and its projection x + depth nR on R's face; the normal from A to B
    const m = along(x, depth / 2, nR);
    out.push(-depth, sign * nR[0], sign * nR[1], sign * nR[2], m[0], m[1], m[2], pair);
  }
}

// (boxes, A's edge axis i, B's edge axis j, n from A to B) => one contact at the two edges' closest points
function edgeEdge(out: ContactList, FA: Frame, FB: Frame, i: number, j: number, n: V, margin: number, pair: number): void {
  // A's edge along a_i furthest along +n, B's edge along b_j furthest along -n
  const start = (F: Frame, e: number, dir: number): [V, V] => {
    let c: V = [...F.c];
    for (let k = 0; k < 3; k++) if (k !== e) c = along(c, (dir * dot(F.ax[k], n) >= 0 ? 1 : -1) * F.h[k], F.ax[k]);
    return [along(c, -F.h[e], F.ax[e]), F.ax[e].map((v) => 2 * F.h[e] * v) as V];
  };
  const [pA, dA] = start(FA, i, 1),
    [pB, dB] = start(FB, j, -1);
  const [s, t] = closestSegmentSegment(pA, dA, pB, dB);
  const xa = along(pA, s, dA),
    xb = along(pB, t, dB);
  const d = dot([xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]], n);
  if (!(d < margin)) return;
  out.push(d, n[0], n[1], n[2], (xa[0] + xb[0]) / 2, (xa[1] + xb[1]) / 2, (xa[2] + xb[2]) / 2, pair);
}

// (disjoint boxes) => one contact at their closest points, when nearer than the margin
function separatedBoxes(out: ContactList, FA: Frame, FB: Frame, margin: number, pair: number): void {
  let best = Infinity,
    xa: V = [0, 0, 0],
    xb: V = [0, 0, 0];
  const consider = (p: V, q: V) => {
    const L = Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]);
    if (L < best) ((best = L), (xa = p), (xb = q));
  };
  for (const v of corners(FA)) consider(v, closestInBox(FB, v));
  for (const v of corners(FB)) consider(closestInBox(FA, v), v);
  const ea = edges(FA),
    eb = edges(FB);
  for (const [p1, d1] of ea)
    for (const [p2, d2] of eb) {
      const [s, t] = closestSegmentSegment(p1, d1, p2, d2);
      consider(along(p1, s, d1), along(p2, t, d2));
    }
  if (!(best < margin)) return;
  const n = [(xb[0] - xa[0]) / best, (xb[1] - xa[1]) / best, (xb[2] - xa[2]) / best];
  out.push(best, n[0], n[1], n[2], (xa[0] + xb[0]) / 2, (xa[1] + xb[1]) / 2, (xa[2] + xb[2]) / 2, pair);
}

function corners(F: Frame): V[] {
  const list: V[] = [];
  for (let k = 0; k < 8; k++)
    list.push(along(along(along(F.c, (k & 1 ? 1 : -1) * F.h[0], F.ax[0]), (k & 2 ? 1 : -1) * F.h[1], F.ax[1]), (k & 4 ? 1 : -1) * F.h[2], F.ax[2]));
  return list;
}

/** the 12 edges as start and direction (start + t dir, t in [0, 1]) */
function edges(F: Frame): [V, V][] {
  const list: [V, V][] = [];
  for (let e = 0; e < 3; e++) {
    const [p, q] = [(e + 1) % 3, (e + 2) % 3];
    for (const sp of [-1, 1])
      for (const sq of [-1, 1]) {
        const mid = along(along(F.c, sp * F.h[p], F.ax[p]), sq * F.h[q], F.ax[q]);
        list.push([along(mid, -F.h[e], F.ax[e]), F.ax[e].map((v) => 2 * F.h[e] * v) as V]);
      }
  }
  return list;
}

/** the point of the box closest to x (x clamped in the box's coordinates) */
function closestInBox(F: Frame, x: V): V {
  const w: V = [x[0] - F.c[0], x[1] - F.c[1], x[2] - F.c[2]];
  let q: V = [...F.c];
  for (let k = 0; k < 3; k++) q = along(q, Math.min(F.h[k], Math.max(-F.h[k], dot(F.ax[k], w))), F.ax[k]);
  return q;
}
