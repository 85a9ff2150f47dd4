// Sphere (A) against box (B), in the box's coordinates: the centre c's
// closest point q of the box is c clamped to the half-sizes h (Ericson 5.1.3).
// Outside (c != q):  d = |q - c| - r,  n = (q - c) / |q - c|  (sphere to box).
// Inside (q = c):    the face with the least way out, axis i with the least
//   h_i - |c_i|;  d = -(h_i - |c_i|) - r,  n = -sign(c_i) e_i  (the box is
//   pushed away from the sphere through that face's opposite).
// The contact point is midway between c + r n and the box's surface point.
// sphereBoxAt takes the centre as a point: a capsule's core point (capsule-convex.ts).
import type { CollisionShape } from '../shapes.ts';
import type { ContactList } from './contact-list.ts';

type Box = Extract<CollisionShape, { type: 'box' }>;

export function sphereBox(out: ContactList, pose: ArrayLike<number>, a: number, radius: number, b: number, box: Box, margin: number, pair: number): void {
  sphereBoxAt(out, [pose[a + 9], pose[a + 10], pose[a + 11]], radius, pose, b, box, margin, pair);
}

// (centre (world) and radius of the sphere, the box's pose at b) => the contact pushed when d < margin
export function sphereBoxAt(
  out: ContactList,
  centre: readonly number[],
  radius: number,
  pose: ArrayLike<number>,
  b: number,
  box: Box,
  margin: number,
  pair: number,
): void {
  // the centre in box coordinates: R_b^T (c - p_b)
  const w = [centre[0] - pose[b + 9], centre[1] - pose[b + 10], centre[2] - pose[b + 11]];
  const c = [0, 1, 2].map((j) => pose[b + j] * w[0] + pose[b + 3 + j] * w[1] + pose[b + 6 + j] * w[2]);
  const h = box.size.map((s) => s / 2);
  const q = c.map((x, i) => Math.min(h[i], Math.max(-h[i], x)));
  const e = [q[0] - c[0], q[1] - c[1], q[2] - c[2]];
  const L = Math.hypot(e[0], e[1], e[2]);
  let d: number, nl: number[], surface: number[];
  if (L > 0) {
    ((d = L - radius), (nl = e.map((x) => x / L)), (surface = q));
  } else {
    let i = 0;
    for (let k = 1; k < 3; k++) if (h[k] - Math.abs(c[k]) < h[i] - Math.abs(c[i])) i = k;
    const side = c[i] < 0 ? -1 : 1,
      depth = h[i] - Math.abs(c[i]);
    ((d = -depth - radius), (nl = [0, 0, 0]), (nl[i] = -side));
    ((surface = [...c]), (surface[i] = side * h[i]));
  }
  if (!(d < margin)) return;
  pushLocal(out, centre, radius, pose, b, d, nl, surface, pair);
}

// (the sphere, B's pose, distance, normal and surface point in B's coordinates) => the contact pushed, in world coordinates:
// n = R_b nl, the point midway between c + r n and the surface point
export function pushLocal(
  out: ContactList,
  centre: readonly number[],
  radius: number,
  pose: ArrayLike<number>,
  b: number,
  d: number,
  nl: readonly number[],
  surface: readonly number[],
  pair: number,
): void {
  const world = (v: readonly number[], i: number) => pose[b + 3 * i] * v[0] + pose[b + 3 * i + 1] * v[1] + pose[b + 3 * i + 2] * v[2];
  const n = [world(nl, 0), world(nl, 1), world(nl, 2)];
  const mid = (i: number) => 0.5 * (centre[i] + radius * n[i] + pose[b + 9 + i] + world(surface, i));
  out.push(d, n[0], n[1], n[2], mid(0), mid(1), mid(2), pair);
}
