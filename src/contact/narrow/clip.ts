// Sutherland-Hodgman clipping of a polygon against one plane (Sutherland &
// Hodgman, "Reentrant polygon clipping", CACM 17(1), 1974): the contact
// manifolds' incident faces clipped by a reference face's side planes
// (box-box.ts, convex-pair.ts).

type V = [number, number, number];

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** the polygon's part with s (u . x) <= limit (Sutherland-Hodgman against one plane) */
export function clip(poly: V[], u: ArrayLike<number>, s: number, limit: number): V[] {
  const kept: V[] = [];
  for (let k = 0; k < poly.length; k++) {
    const x = poly[k],
      y = poly[(k + 1) % poly.length];
    const fx = s * dot(u, x) - limit,
      fy = s * dot(u, y) - limit;
    if (fx <= 0) kept.push(x);
    if ((fx < 0 && fy > 0) || (fx > 0 && fy < 0)) {
      const t = fx / (fx - fy);
      kept.push([x[0] + t * (y[0] - x[0]), x[1] + t * (y[1] - x[1]), x[2] + t * (y[2] - x[2])]);
    }
  }
  return kept;
}
