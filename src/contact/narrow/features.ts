// The feature of a solid facing a direction (world), for contact manifolds
// (convex-pair.ts): the face a reference face or incident face is taken from.
//   box       its face whose normal is most along d: 4 corners
//   convex    its hull face whose normal is most along d (hull.ts)
//   cylinder  the end disc when d is within 45 degrees of the axis: 8 rim
//             points, the first the rim point farthest along d (so a tilted
//             disc's deepest point is exact, as plane.ts's rim points);
//             else the side's line farthest along d: its two ends
// A face or disc can be a reference face (its side planes clip the other's
// feature); a side line only an incident one.
import { hullOfShape } from '../shapes.ts';
import type { Solid, V } from './support.ts';

export interface Feature {
  kind: 'face' | 'disc' | 'line';
  /** outward unit normal of the face or disc; the line's direction away from the axis */
  n: V;
  /** its corners (a face: a counter-clockwise loop seen from outside), rim points, or the line's ends (world) */
  points: V[];
  /** a disc's centre and radius */
  centre?: V;
  radius?: number;
}

/** rim points of a disc seen as an incident feature */
const RIM_POINTS = 8;

const toWorld = (pose: ArrayLike<number>, p: number, x: number, y: number, z: number): V => [
  pose[p + 9] + pose[p] * x + pose[p + 1] * y + pose[p + 2] * z,
  pose[p + 10] + pose[p + 3] * x + pose[p + 4] * y + pose[p + 5] * z,
  pose[p + 11] + pose[p + 6] * x + pose[p + 7] * y + pose[p + 8] * z,
];
const rotateOut = (pose: ArrayLike<number>, p: number, v: readonly number[]): V => [
  pose[p] * v[0] + pose[p + 1] * v[1] + pose[p + 2] * v[2],
  pose[p + 3] * v[0] + pose[p + 4] * v[1] + pose[p + 5] * v[2],
  pose[p + 6] * v[0] + pose[p + 7] * v[1] + pose[p + 8] * v[2],
];

// (shape, poses, its pose index, unit direction d (world)) => its feature facing d
export function featureAlong(s: Solid, pose: ArrayLike<number>, p: number, d: V): Feature {
  // d in the shape's frame
  const l = [0, 1, 2].map((j) => pose[p + j] * d[0] + pose[p + 3 + j] * d[1] + pose[p + 6 + j] * d[2]);
  if (s.type === 'box') {
    let j = 0;
    for (let k = 1; k < 3; k++) if (Math.abs(l[k]) > Math.abs(l[j])) j = k;
    const sign = l[j] >= 0 ? 1 : -1;
    const [u, w] = [(j + 1) % 3, (j + 2) % 3];
    const h = s.size.map((x) => x / 2);
    const points = [
      [1, 1],
      [-1, 1],
      [-1, -1],
      [1, -1],
    ].map(([a, b]) => {
      const x = [0, 0, 0];
      ((x[j] = sign * h[j]), (x[u] = a * h[u]), (x[w] = b * h[w]));
      return toWorld(pose, p, x[0], x[1], x[2]);
    });
    const n = [0, 0, 0];
    n[j] = sign;
    return { kind: 'face', n: rotateOut(pose, p, n), points };
  }
  if (s.type === 'convex') {
    const hull = hullOfShape(s);
    let best = hull.faces[0],
      most = -Infinity;
    for (const f of hull.faces) {
      const e = f.n[0] * l[0] + f.n[1] * l[1] + f.n[2] * l[2];
      if (e > most) ((most = e), (best = f));
    }
    const v = hull.vertices;
    return { kind: 'face', n: rotateOut(pose, p, best.n), points: best.loop.map((k) => toWorld(pose, p, v[3 * k], v[3 * k + 1], v[3 * k + 2])) };
  }
  // cylinder: u, the direction across the axis most along d (the x axis when d is along the axis)
  const rho = Math.hypot(l[0], l[1]);
  const [ux, uy] = rho > 1e-12 ? [l[0] / rho, l[1] / rho] : [1, 0];
  const h = s.length / 2,
    R = s.radius;
  if (Math.abs(l[2]) >= Math.SQRT1_2) {
    const z = l[2] >= 0 ? h : -h;
    const points: V[] = [];
    for (let k = 0; k < RIM_POINTS; k++) {
      const c = Math.cos((2 * Math.PI * k) / RIM_POINTS),
        sn = Math.sin((2 * Math.PI * k) / RIM_POINTS);
      // counter-clockwise about the disc's outward normal (+z on the top end)
      const t = z > 0 ? sn : -sn;
      points.push(toWorld(pose, p, R * (c * ux - t * uy), R * (c * uy + t * ux), z));
    }
    return { kind: 'disc', n: rotateOut(pose, p, [0, 0, z > 0 ? 1 : -1]), points, centre: toWorld(pose, p, 0, 0, z), radius: R };
  }
  return { kind: 'line', n: rotateOut(pose, p, [ux, uy, 0]), points: [toWorld(pose, p, R * ux, R * uy, -h), toWorld(pose, p, R * ux, R * uy, h)] };
}
