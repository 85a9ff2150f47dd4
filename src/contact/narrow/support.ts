// Support functions of the solid shapes GJK and EPA see (gjk.ts, epa.ts):
// s(d) = a point of the shape farthest along world direction d. With R, o
// the pose, s(d) = o + R s_local(R^T d), and in the shape's own frame
//   box       s_i = sign(d_i) h_i                      (the corner towards d)
//   cylinder  R_c (d_x, d_y) / |(d_x, d_y)| + sign(d_z) h e_z   (the rim point towards d)
//   convex    the hull vertex of largest d . v         (hull.ts)
// A zero component picks the + side (any point of that face supports).
// Spheres and capsules never come here: their pairs with a convex shape are
// closed forms about their core (capsule-convex.ts), which keeps the radius
// out of the iteration.
import { type CollisionShape, hullOfShape } from '../shapes.ts';

export type Solid = Extract<CollisionShape, { type: 'box' | 'cylinder' | 'convex' }>;
export type V = [number, number, number];

// (out, shape, poses, its pose index, direction) => out: the shape's point farthest along d (world)
export function support(out: V, s: Solid, pose: ArrayLike<number>, p: number, dx: number, dy: number, dz: number): V {
  // d in the shape's frame: R^T d
  const lx = pose[p] * dx + pose[p + 3] * dy + pose[p + 6] * dz,
    ly = pose[p + 1] * dx + pose[p + 4] * dy + pose[p + 7] * dz,
    lz = pose[p + 2] * dx + pose[p + 5] * dy + pose[p + 8] * dz;
  let x = 0,
    y = 0,
    z: number;
  if (s.type === 'box') {
    ((x = lx >= 0 ? s.size[0] / 2 : -s.size[0] / 2), (y = ly >= 0 ? s.size[1] / 2 : -s.size[1] / 2), (z = lz >= 0 ? s.size[2] / 2 : -s.size[2] / 2));
  } else if (s.type === 'cylinder') {
    const rho = Math.hypot(lx, ly);
    if (rho > 0) ((x = (s.radius * lx) / rho), (y = (s.radius * ly) / rho));
    z = lz >= 0 ? s.length / 2 : -s.length / 2;
  } else {
    const v = hullOfShape(s).vertices;
    let best = -Infinity,
      k = 0;
    for (let i = 0; i < v.length; i += 3) {
      const e = v[i] * lx + v[i + 1] * ly + v[i + 2] * lz;
      if (e > best) ((best = e), (k = i));
    }
    ((x = v[k]), (y = v[k + 1]), (z = v[k + 2]));
  }
  out[0] = pose[p + 9] + pose[p] * x + pose[p + 1] * y + pose[p + 2] * z;
  out[1] = pose[p + 10] + pose[p + 3] * x + pose[p + 4] * y + pose[p + 5] * z;
  out[2] = pose[p + 11] + pose[p + 6] * x + pose[p + 7] * y + pose[p + 8] * z;
  return out;
}

/** a size of the shape (m): the scale of the narrow phase's tolerances */
export function sizeOf(s: Solid): number {
  if (s.type === 'box') return Math.hypot(...s.size) / 2;
  if (s.type === 'cylinder') return Math.hypot(s.radius, s.length / 2);
  return hullOfShape(s).radius;
}
