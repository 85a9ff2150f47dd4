// GJK: the distance of two convex solids A and B and their closest points
// (Gilbert, Johnson & Keerthi, IEEE J. Robotics and Automation 4(2), 1988),
// on the Minkowski difference D = A - B, seen only through its support
// function s_D(d) = s_A(d) - s_B(-d) (support.ts). Glossary:
//   W      the simplex: up to 4 points w = a - b of D, each with its a and b
//   v      the point of W's hull closest to the origin; |v| bounds the
//          distance from above, v.w / |v| (w = s_D(-v)) from below
//   lambda v's barycentric coordinates on W: the witness points are
//          sum lambda a (on A) and sum lambda b (on B)
// The closest point of a simplex of at most 4 points is found over all its
// 15 faces (Johnson's subalgorithm by enumeration): each face's affine
// projection of the origin, kept when its barycentric coordinates are all
// >= 0, the nearest kept one wins. Stops when |v|^2 - v.w <= TOL |v|^2 (the
// distance is then right to TOL/2 of itself), when the new point is no
// better, or when the origin is inside W (penetration: EPA takes W on).
import type { V } from './support.ts';

/** a point of D and the points of A and B it is made of */
export interface Vertex {
  w: V;
  a: V;
  b: V;
}

/** (direction d, out) => out.w = s_A(d) - s_B(-d), with out.a, out.b */
export type MinkowskiSupport = (dx: number, dy: number, dz: number, out: Vertex) => Vertex;

export interface GjkResult {
  /** the origin is in D (within the tolerance): the solids overlap, W holds it (EPA's start) */
  overlap: boolean;
  /** the distance (0 when overlapping) */
  dist: number;
  /** the closest points, on A and on B (world) */
  a: V;
  b: V;
  /** the last simplex */
  simplex: Vertex[];
}

const TOL = 1e-13;
const MAX_ITERATIONS = 100;

export const newVertex = (): Vertex => ({ w: [0, 0, 0], a: [0, 0, 0], b: [0, 0, 0] });

// (D's support, a first direction, the size of the solids (m)) => their distance and closest points, or their overlap
export function gjk(sD: MinkowskiSupport, d0: V, size: number): GjkResult {
  let simplex = [sD(d0[0], d0[1], d0[2], newVertex())];
  let v: V = [...simplex[0].w],
    lambda = [1];
  let vv = dot(v, v);
  const touch = (1e-12 * size) ** 2;
  for (let it = 0; it < MAX_ITERATIONS && vv > touch; it++) {
    const p = sD(-v[0], -v[1], -v[2], newVertex());
    if (vv - dot(v, p.w) <= TOL * vv) break;
    if (simplex.some((q) => q.w[0] === p.w[0] && q.w[1] === p.w[1] && q.w[2] === p.w[2])) break;
    const next = closestOnSimplex([...simplex, p]);
    if (!next || next.vv >= vv) break;
    ((simplex = next.kept), (v = next.v), (lambda = next.lambda), (vv = next.vv));
    if (simplex.length === 4) break;
  }
  const overlap = vv <= touch || simplex.length === 4;
  const a: V = [0, 0, 0],
    b: V = [0, 0, 0];
  simplex.forEach((q, k) => {
    for (let i = 0; i < 3; i++) ((a[i] += lambda[k] * q.a[i]), (b[i] += lambda[k] * q.b[i]));
  });
  return { overlap, dist: overlap ? 0 : Math.sqrt(vv), a, b, simplex };
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** the point of the simplex's hull nearest the origin: over every face, its projection when inside the face */
export function closestOnSimplex(W: Vertex[]): { v: V; vv: number; lambda: number[]; kept: Vertex[] } | undefined {
  let best: { v: V; vv: number; lambda: number[]; kept: Vertex[] } | undefined;
  for (let mask = 1; mask < 1 << W.length; mask++) {
    const kept = W.filter((_, k) => mask & (1 << k));
    const lambda = affineProjection(kept.map((q) => q.w));
    if (!lambda || lambda.some((l) => l < 0)) continue;
    const v: V = [0, 0, 0];
    kept.forEach((q, k) => ((v[0] += lambda[k] * q.w[0]), (v[1] += lambda[k] * q.w[1]), (v[2] += lambda[k] * q.w[2])));
    const vv = dot(v, v);
    if (!best || vv < best.vv) best = { v, vv, lambda, kept };
  }
  return best;
}

/** barycentric coordinates of the origin's projection on the affine hull of 1 to 4 points; undefined when they are degenerate */
function affineProjection(p: V[]): number[] | undefined {
  if (p.length === 1) return [1];
  const e1 = sub(p[1], p[0]);
  if (p.length === 2) {
    const ee = dot(e1, e1);
    if (!(ee > 0)) return undefined;
    const t = -dot(p[0], e1) / ee;
    return [1 - t, t];
  }
  const e2 = sub(p[2], p[0]);
  const n = cross(e1, e2),
    nn = dot(n, n);
  if (p.length === 3) {
    if (!(nn > 1e-24 * dot(e1, e1) * dot(e2, e2))) return undefined;
    // the origin's projection q on the plane; lambda_i: the sub-triangles' signed areas over the whole
    const s = dot(n, p[0]) / nn;
    const q: V = [s * n[0], s * n[1], s * n[2]];
    const l0 = dot(n, cross(sub(p[1], q), sub(p[2], q))) / nn,
      l1 = dot(n, cross(sub(p[2], q), sub(p[0], q))) / nn;
    return [l0, l1, 1 - l0 - l1];
  }
  const e3 = sub(p[3], p[0]);
  const det = dot(e3, n);
  if (!(Math.abs(det) > 1e-12 * Math.sqrt(nn * dot(e3, e3)))) return undefined;
  // solve [e1 e2 e3] mu = -p0 by Cramer's rule
  const m = [-p[0][0], -p[0][1], -p[0][2]];
  const mu = [dot(m, cross(e2, e3)) / det, dot(e1, cross(m, e3)) / det, dot(e1, cross(e2, m)) / det];
  return [1 - mu[0] - mu[1] - mu[2], ...mu];
}
