// Capsule (A) against a box, a cylinder or a convex hull (B): a capsule is
// the set within its radius of its core segment, so its contacts are
// spheres on the core against B (sphere-box.ts, sphere-cylinder.ts,
// sphere-convex.ts), at two points:
//   t*  the core point deepest in B: the minimum over t in [0, 1] of B's
//       signed distance at the core point p(t). B is convex, so its signed
//       distance is a convex function of the point and of t along a segment
//       (unimodal): golden-section search finds it (Kiefer 1953) in
//       GOLDEN_STEPS steps, to 1e-13 of the length at a kink and to the
//       square root of the rounding error (1e-8) at a smooth minimum, where
//       the distance is then right to 1e-16 and the normal to 1e-8. On a plateau (the core
//       parallel to a face) t* is the plateau's end nearest a core end;
//   the core's end farther from t*: a capsule lying on a face rests on both
//       ends (as plane-capsule), and one across an edge on the edge point.
// So the two points move continuously as the capsule turns: t* reaches an
// end only where the far end stays the other end. The witness points are
// the sphere pair's, exact; the distance at t* exact to the search's
// tolerance (MuJoCo's mjc_CapsuleBox likewise keeps up to two contacts).
import type { CollisionShape } from '../shapes.ts';
import type { ContactList } from './contact-list.ts';
import { core } from './round.ts';
import { sphereBoxAt } from './sphere-box.ts';
import { sphereCylinderAt } from './sphere-cylinder.ts';
import { convexDistanceAt, sphereConvexAt } from './sphere-convex.ts';

type Convex = Extract<CollisionShape, { type: 'box' | 'cylinder' | 'convex' }>;
type P = [number, number, number];

/** golden-section steps: 0.618^60 = 3e-13 of the core's length */
const GOLDEN_STEPS = 60;
/** a core end within this (m) of the deepest point's distance counts as deepest (the plateau's end) */
const TIE = 1e-10;
const PHI = (Math.sqrt(5) - 1) / 2;

export function capsuleConvex(
  out: ContactList,
  pose: ArrayLike<number>,
  a: number,
  radius: number,
  length: number,
  b: number,
  B: Convex,
  margin: number,
  pair: number,
): void {
  const [p, d] = core(pose, a, length);
  const at = (t: number): P => [p[0] + t * d[0], p[1] + t * d[1], p[2] + t * d[2]];
  const sphere = (t: number) =>
    B.type === 'box'
      ? sphereBoxAt(out, at(t), radius, pose, b, B, margin, pair)
      : B.type === 'cylinder'
        ? sphereCylinderAt(out, at(t), radius, pose, b, B, margin, pair)
        : sphereConvexAt(out, at(t), radius, pose, b, B, margin, pair);
  if (length === 0) return sphere(0);
  const f = (t: number) => distanceTo(B, pose, b, at(t));
  let lo = 0,
    hi = 1,
    x1 = hi - PHI,
    x2 = PHI,
    f1 = f(x1),
    f2 = f(x2);
  for (let k = 0; k < GOLDEN_STEPS; k++) {
    if (f1 <= f2) ((hi = x2), (x2 = x1), (f2 = f1), (x1 = hi - PHI * (hi - lo)), (f1 = f(x1)));
    else ((lo = x1), (x1 = x2), (f1 = f2), (x2 = lo + PHI * (hi - lo)), (f2 = f(x2)));
  }
  let t = (lo + hi) / 2;
  const fmin = Math.min(f(t), f1, f2);
  if (f(0) <= fmin + TIE) t = 0;
  else if (f(1) <= fmin + TIE) t = 1;
  sphere(t);
  sphere(t < 0.5 ? 1 : 0);
}

/** B's signed distance at world point x (negative inside): Ericson's box and cylinder distances, a hull's by its faces and GJK */
function distanceTo(B: Convex, pose: ArrayLike<number>, b: number, x: P): number {
  if (B.type === 'convex') return convexDistanceAt(x, pose, b, B);
  const w = [x[0] - pose[b + 9], x[1] - pose[b + 10], x[2] - pose[b + 11]];
  const y = [0, 1, 2].map((j) => pose[b + j] * w[0] + pose[b + 3 + j] * w[1] + pose[b + 6 + j] * w[2]);
  const q = B.type === 'box' ? y.map((v, i) => Math.abs(v) - B.size[i] / 2) : [Math.hypot(y[0], y[1]) - B.radius, Math.abs(y[2]) - B.length / 2];
  let outside = 0,
    inside = -Infinity;
  for (const v of q) ((outside += Math.max(v, 0) ** 2), (inside = Math.max(inside, v)));
  return Math.sqrt(outside) + Math.min(inside, 0);
}
