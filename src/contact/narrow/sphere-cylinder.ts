// Sphere (A) against cylinder (B), in the cylinder's coordinates (axis z,
// radius R, half-length h): with the centre c at radius rho = |(c_x, c_y)|,
// its closest point q of the solid cylinder clamps rho to R and c_z to h.
// Outside (c != q):  d = |q - c| - r,  n = (q - c) / |q - c|  (sphere to cylinder).
// Inside (q = c):    the nearer way out, the side (R - rho) or an end
//   (h - |c_z|); d = -(that) - r, n against it (the cylinder is pushed away
//   from the sphere), as sphere-box.ts. On the axis the side's direction is
//   the cylinder's x, a choice.
import type { CollisionShape } from '../shapes.ts';
import type { ContactList } from './contact-list.ts';
import { pushLocal } from './sphere-box.ts';

type Cylinder = Extract<CollisionShape, { type: 'cylinder' }>;

export function sphereCylinder(
  out: ContactList,
  pose: ArrayLike<number>,
  a: number,
  radius: number,
  b: number,
  cyl: Cylinder,
  margin: number,
  pair: number,
): void {
  sphereCylinderAt(out, [pose[a + 9], pose[a + 10], pose[a + 11]], radius, pose, b, cyl, margin, pair);
}

// (centre (world) and radius of the sphere, the cylinder's pose at b) => the contact pushed when d < margin
export function sphereCylinderAt(
  out: ContactList,
  centre: readonly number[],
  radius: number,
  pose: ArrayLike<number>,
  b: number,
  cyl: Cylinder,
  margin: number,
  pair: number,
): void {
  const w = [centre[0] - pose[b + 9], centre[1] - pose[b + 10], centre[2] - pose[b + 11]];
  const c = [0, 1, 2].map((j) => pose[b + j] * w[0] + pose[b + 3 + j] * w[1] + pose[b + 6 + j] * w[2]);
  const R = cyl.radius,
    h = cyl.length / 2;
  const rho = Math.hypot(c[0], c[1]);
  const [ux, uy] = rho > 0 ? [c[0] / rho, c[1] / rho] : [1, 0];
  const rq = Math.min(rho, R),
    zq = Math.min(h, Math.max(-h, c[2]));
  const q = [rq * ux, rq * uy, zq];
  const e = [q[0] - c[0], q[1] - c[1], q[2] - c[2]];
  const L = Math.hypot(e[0], e[1], e[2]);
  let d: number, nl: number[], surface: number[];
  if (L > 0) {
    ((d = L - radius), (nl = e.map((x) => x / L)), (surface = q));
  } else if (R - rho < h - Math.abs(c[2])) {
    ((d = -(R - rho) - radius), (nl = [-ux, -uy, 0]), (surface = [R * ux, R * uy, c[2]]));
  } else {
    const side = c[2] < 0 ? -1 : 1;
    ((d = -(h - Math.abs(c[2])) - radius), (nl = [0, 0, -side]), (surface = [c[0], c[1], side * h]));
  }
  if (!(d < margin)) return;
  pushLocal(out, centre, radius, pose, b, d, nl, surface, pair);
}
