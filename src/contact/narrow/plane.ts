// Plane (geometry A, the half-space z <= 0 of its frame) against sphere,
// capsule, box and cylinder (geometry B): closed forms. With n the plane's
// normal and o its origin, a point q of B is at signed distance n.(q - o);
// each candidate point is B's deepest point of a feature (a sphere's or a cap's
// lowest point, a box's corner, four points on each rim of a cylinder), kept
// when its distance is below the margin. The contact point is midway between
// the candidate and its projection on the plane; the normal is n (A to B).
import type { CollisionShape } from '../shapes.ts';
import type { ContactList } from './contact-list.ts';

type Shape<T extends CollisionShape['type']> = Extract<CollisionShape, { type: T }>;

// the candidate point q (world) at distance d pushed when d < margin
function candidate(out: ContactList, pose: ArrayLike<number>, a: number, qx: number, qy: number, qz: number, margin: number, pair: number): void {
  const nx = pose[a + 2], ny = pose[a + 5], nz = pose[a + 8];
  const d = nx * (qx - pose[a + 9]) + ny * (qy - pose[a + 10]) + nz * (qz - pose[a + 11]);
  if (d < margin) out.push(d, nx, ny, nz, qx - 0.5 * d * nx, qy - 0.5 * d * ny, qz - 0.5 * d * nz, pair);
}

// (plane pose at a, sphere or capsule pose at b) => each end's lowest point (a sphere: a capsule of length 0)
export function planeCapsule(out: ContactList, pose: ArrayLike<number>, a: number, b: number, radius: number, length: number, margin: number, pair: number): void {
  const nx = pose[a + 2], ny = pose[a + 5], nz = pose[a + 8];
  const h = length / 2;
  // a sphere's one centre, a capsule's two
  for (let s = h > 0 ? -1 : 1; s <= 1; s += 2) {
    const cx = pose[b + 9] + s * h * pose[b + 2], cy = pose[b + 10] + s * h * pose[b + 5], cz = pose[b + 11] + s * h * pose[b + 8];
    candidate(out, pose, a, cx - radius * nx, cy - radius * ny, cz - radius * nz, margin, pair);
  }
}

// (plane pose at a, box pose at b) => its eight corners
export function planeBox(out: ContactList, pose: ArrayLike<number>, a: number, b: number, box: Shape<'box'>, margin: number, pair: number): void {
  const [hx, hy, hz] = [box.size[0] / 2, box.size[1] / 2, box.size[2] / 2];
  for (let k = 0; k < 8; k++) {
    const sx = k & 1 ? hx : -hx, sy = k & 2 ? hy : -hy, sz = k & 4 ? hz : -hz;
    const q = (i: number) => pose[b + 9 + i] + pose[b + 3 * i] * sx + pose[b + 3 * i + 1] * sy + pose[b + 3 * i + 2] * sz;
    candidate(out, pose, a, q(0), q(1), q(2), margin, pair);
  }
}

// (plane pose at a, cylinder pose at b) => four points on each rim: the deepest, the highest and the two halfway, so that a
// cylinder standing on an end rests on four points and one tilted onto its rim on the deepest
export function planeCylinder(out: ContactList, pose: ArrayLike<number>, a: number, b: number, cyl: Shape<'cylinder'>, margin: number, pair: number): void {
  const n = [pose[a + 2], pose[a + 5], pose[a + 8]];
  const ax = [pose[b + 2], pose[b + 5], pose[b + 8]];
  const na = n[0] * ax[0] + n[1] * ax[1] + n[2] * ax[2];
  // u: the rim's direction away from the plane (n's part across the axis); any direction across the axis when the ends lie flat
  let u = [n[0] - na * ax[0], n[1] - na * ax[1], n[2] - na * ax[2]];
  let norm = Math.hypot(u[0], u[1], u[2]);
  if (norm < 1e-12) u = [pose[b], pose[b + 3], pose[b + 6]], norm = 1;
  u = u.map((x) => x / norm);
  const v = [ax[1] * u[2] - ax[2] * u[1], ax[2] * u[0] - ax[0] * u[2], ax[0] * u[1] - ax[1] * u[0]];
  const h = cyl.length / 2, r = cyl.radius;
  for (const s of [-1, 1]) {
    for (const [cu, cv] of [[-1, 0], [0, 1], [0, -1], [1, 0]]) {
      const q = (i: number) => pose[b + 9 + i] + s * h * ax[i] + r * (cu * u[i] + cv * v[i]);
      candidate(out, pose, a, q(0), q(1), q(2), margin, pair);
    }
  }
}
