// Closest points between a point and a segment, and between two segments
// (Ericson, Real-Time Collision Detection, 2005, sec. 5.1.2 and 5.1.9):
// what sphere-capsule and capsule-capsule reduce to. Parameters s, t in
// [0, 1] along the segments p1 + s (q1 - p1), p2 + t (q2 - p2).

type V = readonly [number, number, number];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V, b: V): [number, number, number] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

/** t of the point of segment p + t d (t in [0, 1]) closest to c */
export function closestOnSegment(c: V, p: V, d: V): number {
  const dd = dot(d, d);
  return dd > 0 ? clamp01(dot(sub(c, p), d) / dd) : 0;
}

/** [s, t] of the closest points of segments p1 + s d1 and p2 + t d2 (Ericson's ClosestPtSegmentSegment) */
export function closestSegmentSegment(p1: V, d1: V, p2: V, d2: V): [number, number] {
  const r = sub(p1, p2);
  const a = dot(d1, d1),
    e = dot(d2, d2),
    f = dot(d2, r);
  if (a <= 0 && e <= 0) return [0, 0];
  if (a <= 0) return [0, clamp01(f / e)];
  const c = dot(d1, r);
  if (e <= 0) return [clamp01(-c / a), 0];
  const b = dot(d1, d2),
    denom = a * e - b * b;
  // parallel segments (denom 0): any s; take 0, then t follows
  let s = denom > 1e-14 * a * e ? clamp01((b * f - c * e) / denom) : 0;
  let t = (b * s + f) / e;
  if (t < 0) ((t = 0), (s = clamp01(-c / a)));
  else if (t > 1) ((t = 1), (s = clamp01((b - c) / a)));
  return [s, t];
}
