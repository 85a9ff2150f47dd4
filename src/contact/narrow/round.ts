// Sphere and capsule pairs: a capsule is the set within its radius of a
// segment, a sphere within its radius of a point, so each pair is two points
// (the closest of their cores, segments.ts) at distance L, and
//   d = L - rA - rB,   n = (cB - cA) / L   (A to B),
//   contact point midway between cA + rA n and cB - rB n.
// Coincident cores (L = 0) have no direction: n is the world's +z then,
// a choice, as MuJoCo's.
import type { ContactList } from './contact-list.ts';
import { closestOnSegment, closestSegmentSegment } from './segments.ts';

type P = [number, number, number];

// the two cores' closest points and radii => the contact pushed when d < margin
export function roundPair(out: ContactList, cA: P, rA: number, cB: P, rB: number, margin: number, pair: number): void {
  const dx = cB[0] - cA[0],
    dy = cB[1] - cA[1],
    dz = cB[2] - cA[2];
  const L = Math.hypot(dx, dy, dz);
  const d = L - rA - rB;
  if (!(d < margin)) return;
  const [nx, ny, nz] = L > 0 ? [dx / L, dy / L, dz / L] : [0, 0, 1];
  const m = rA + d / 2;
  out.push(d, nx, ny, nz, cA[0] + m * nx, cA[1] + m * ny, cA[2] + m * nz, pair);
}

/** a capsule's core segment: start p and direction d (p + t d, t in [0, 1]); a sphere's: its centre and 0 */
export function core(pose: ArrayLike<number>, at: number, length: number): [P, P] {
  const h = length / 2;
  const ax: P = [pose[at + 2], pose[at + 5], pose[at + 8]];
  return [
    [pose[at + 9] - h * ax[0], pose[at + 10] - h * ax[1], pose[at + 11] - h * ax[2]],
    [2 * h * ax[0], 2 * h * ax[1], 2 * h * ax[2]],
  ];
}

const along = (p: P, d: P, t: number): P => [p[0] + t * d[0], p[1] + t * d[1], p[2] + t * d[2]];

// (A a sphere or capsule: radius and length 0 for a sphere; B likewise) => the contact of the two
export function capsuleCapsule(
  out: ContactList,
  pose: ArrayLike<number>,
  a: number,
  rA: number,
  lA: number,
  b: number,
  rB: number,
  lB: number,
  margin: number,
  pair: number,
): void {
  const [pA, dA] = core(pose, a, lA),
    [pB, dB] = core(pose, b, lB);
  if (lA === 0) return roundPair(out, pA, rA, along(pB, dB, closestOnSegment(pA, pB, dB)), rB, margin, pair);
  if (lB === 0) return roundPair(out, along(pA, dA, closestOnSegment(pB, pA, dA)), rA, pB, rB, margin, pair);
  const [s, t] = closestSegmentSegment(pA, dA, pB, dB);
  roundPair(out, along(pA, dA, s), rA, along(pB, dB, t), rB, margin, pair);
}
