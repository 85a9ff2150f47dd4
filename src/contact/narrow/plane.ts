// Plane (geometry A, the half-space z <= 0 of its frame) against sphere,
// capsule, box and cylinder (geometry B): closed forms. With n the plane's
// normal and o its origin, a point q of B is at signed distance n.(q - o);
// each candidate point is B's deepest point of a feature (a sphere's or a cap's
// lowest point, a box's corner, four points on each rim of a cylinder, a
// convex hull's vertex), kept
// when its distance is below the margin. The contact point is midway between
// the candidate and its projection on the plane; the normal is n (A to B).
import { type CollisionShape, hullOfShape } from '../shapes.ts';
import type { ContactList } from './contact-list.ts';

type Shape<T extends CollisionShape['type']> = Extract<CollisionShape, { type: T }>;

// the candidate point q (world) at distance d pushed when d < margin
function candidate(out: ContactList, pose: ArrayLike<number>, a: number, qx: number, qy: number, qz: number, margin: number, pair: number): void {
  const nx = pose[a + 2],
    ny = pose[a + 5],
    nz = pose[a + 8];
  const d = nx * (qx - pose[a + 9]) + ny * (qy - pose[a + 10]) + nz * (qz - pose[a + 11]);
  if (d < margin) out.push(d, nx, ny, nz, qx - 0.5 * d * nx, qy - 0.5 * d * ny, qz - 0.5 * d * nz, pair);
}

// (plane pose at a, sphere or capsule pose at b) => each end's lowest point (a sphere: a capsule of length 0)
export function planeCapsule(
  out: ContactList,
  pose: ArrayLike<number>,
  a: number,
  b: number,
  radius: number,
  length: number,
  margin: number,
  pair: number,
): void {
  const nx = pose[a + 2],
    ny = pose[a + 5],
    nz = pose[a + 8];
  const h = length / 2;
  // a sphere's one centre, a capsule's two
  for (let s = h > 0 ? -1 : 1; s <= 1; s += 2) {
    const cx = pose[b + 9] + s * h * pose[b + 2],
      cy = pose[b + 10] + s * h * pose[b + 5],
      cz = pose[b + 11] + s * h * pose[b + 8];
    candidate(out, pose, a, cx - radius * nx, cy - radius * ny, cz - radius * nz, margin, pair);
  }
}

// (plane pose at a, box pose at b) => its eight corners (no allocation: called at every evaluation)
export function planeBox(out: ContactList, pose: ArrayLike<number>, a: number, b: number, box: Shape<'box'>, margin: number, pair: number): void {
  const hx = box.size[0] / 2,
    hy = box.size[1] / 2,
    hz = box.size[2] / 2;
  for (let k = 0; k < 8; k++) {
    const sx = k & 1 ? hx : -hx,
      sy = k & 2 ? hy : -hy,
      sz = k & 4 ? hz : -hz;
    const qx = pose[b + 9] + pose[b] * sx + pose[b + 1] * sy + pose[b + 2] * sz;
    const qy = pose[b + 10] + pose[b + 3] * sx + pose[b + 4] * sy + pose[b + 5] * sz;
    const qz = pose[b + 11] + pose[b + 6] * sx + pose[b + 7] * sy + pose[b + 8] * sz;
    candidate(out, pose, a, qx, qy, qz, margin, pair);
  }
}

/** the rim points' directions in (u, v): the deepest (-u), the two halfway (+-v), the highest (+u) */
const RIM = [-1, 0, 0, 1, 0, -1, 1, 0];

// (plane pose at a, cylinder pose at b) => four points on each rim: the deepest, the highest and the two halfway, so that a
// cylinder standing on an end rests on four points and one tilted onto its rim on the deepest (no allocation)
export function planeCylinder(out: ContactList, pose: ArrayLike<number>, a: number, b: number, cyl: Shape<'cylinder'>, margin: number, pair: number): void {
  const nx = pose[a + 2],
    ny = pose[a + 5],
    nz = pose[a + 8];
  const ax = pose[b + 2],
    ay = pose[b + 5],
    az = pose[b + 8];
  const na = nx * ax + ny * ay + nz * az;
  // u: the rim's direction away from the plane (n's part across the axis); any direction across the axis when the ends lie flat
  let ux = nx - na * ax,
    uy = ny - na * ay,
    uz = nz - na * az;
  let norm = Math.hypot(ux, uy, uz);
  if (norm < 1e-12) ((ux = pose[b]), (uy = pose[b + 3]), (uz = pose[b + 6]), (norm = 1));
  ((ux /= norm), (uy /= norm), (uz /= norm));
  const vx = ay * uz - az * uy,
    vy = az * ux - ax * uz,
    vz = ax * uy - ay * ux;
  const h = cyl.length / 2,
    r = cyl.radius;
  for (let s = -1; s <= 1; s += 2) {
    for (let k = 0; k < 8; k += 2) {
      const cu = r * RIM[k],
        cv = r * RIM[k + 1];
      candidate(
        out,
        pose,
        a,
        pose[b + 9] + s * h * ax + cu * ux + cv * vx,
        pose[b + 10] + s * h * ay + cu * uy + cv * vy,
        pose[b + 11] + s * h * az + cu * uz + cv * vz,
        margin,
        pair,
      );
    }
  }
}

// (plane pose at a, convex hull pose at b) => its hull's vertices below the margin: a hull resting on a face touches at that face's corners, as a box
export function planeConvex(out: ContactList, pose: ArrayLike<number>, a: number, b: number, convex: Shape<'convex'>, margin: number, pair: number): void {
  const v = hullOfShape(convex).vertices;
  for (let k = 0; k < v.length; k += 3) {
    const sx = v[k],
      sy = v[k + 1],
      sz = v[k + 2];
    const qx = pose[b + 9] + pose[b] * sx + pose[b + 1] * sy + pose[b + 2] * sz;
    const qy = pose[b + 10] + pose[b + 3] * sx + pose[b + 4] * sy + pose[b + 5] * sz;
    const qz = pose[b + 11] + pose[b + 6] * sx + pose[b + 7] * sy + pose[b + 8] * sz;
    candidate(out, pose, a, qx, qy, qz, margin, pair);
  }
}
