// The convex hull of a point set as outward triangles, for MuJoCo's
// <mesh inertia="convex"> (io/mesh-inertia.ts) and the contact shape `convex`
// (hull.ts), by the incremental algorithm
// (de Berg et al., Computational Geometry, 3rd ed., ch. 11): a first
// tetrahedron of extreme points, then each point outside the hull replaces
// the faces it sees by a fan from the horizon (the edges between faces it
// sees and faces it does not). A point within eps of a face's plane does not
// see it, so coplanar points (a box's face) add no slivers. O(n F) for n
// points and F hull faces: a mesh of thousands of vertices takes a fraction
// of a second. The result is checked closed (every edge run once in each
// direction); undefined for a flat or degenerate set (no volume).

type P = readonly number[];

const sub = (a: P, b: P) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: P, b: P) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: P, b: P) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

interface Face {
  v: [number, number, number];
  /** the outward normal (not unit) and its plane's offset: n·x - d is the signed distance times |n| */
  n: number[];
  d: number;
  /** |n|: distances are (n·x - d) / len */
  len: number;
}

// (points x y z ...) => triangles (vertex indices, counter-clockwise seen from outside), or undefined when the points span no volume
export function convexHull(xyz: readonly number[]): number[] | undefined {
  const count = xyz.length / 3;
  const p = (i: number): P => xyz.slice(3 * i, 3 * i + 3);
  if (count < 4) return undefined;
  // the tolerance: a distance this far below the set's size is on the plane
  let size = 0;
  for (let i = 0; i < xyz.length; i++) size = Math.max(size, Math.abs(xyz[i]));
  const eps = 1e-10 * Math.max(size, 1e-300);
  const start = firstTetrahedron(count, p, eps);
  if (!start) return undefined;
  const face = (a: number, b: number, c: number): Face => {
    const n = cross(sub(p(b), p(a)), sub(p(c), p(a)));
    return { v: [a, b, c], n, d: dot(n, p(a)), len: Math.hypot(n[0], n[1], n[2]) };
  };
  const [a, b, c, d] = start;
  // orient the first faces outward: d behind (a, b, c)
  const abc = face(a, b, c);
  let faces = dot(abc.n, p(d)) - abc.d > 0 ? [face(a, c, b), face(a, b, d), face(b, c, d), face(c, a, d)] : [abc, face(a, d, b), face(b, d, c), face(c, d, a)];
  for (let i = 0; i < count; i++) {
    if (start.includes(i)) continue;
    const x = p(i);
    const sees = (f: Face) => (dot(f.n, x) - f.d) / f.len > eps;
    const visible = faces.filter(sees);
    if (!visible.length) continue;
    // the horizon: edges of visible faces whose reverse is not an edge of a visible face
    const edges = new Set<string>();
    for (const f of visible) for (let k = 0; k < 3; k++) edges.add(`${f.v[k]} ${f.v[(k + 1) % 3]}`);
    const fan: Face[] = [];
    for (const f of visible) {
      for (let k = 0; k < 3; k++) {
        const [u, w] = [f.v[k], f.v[(k + 1) % 3]];
        if (!edges.has(`${w} ${u}`)) fan.push(face(u, w, i));
      }
    }
    const gone = new Set(visible);
    faces = [...faces.filter((f) => !gone.has(f)), ...fan];
  }
  const triangles = faces.flatMap((f) => f.v);
  return closed(triangles) ? triangles : undefined;
}

/** four points spanning a volume: the extremes along x, the farthest from their line, the farthest from their plane */
function firstTetrahedron(count: number, p: (i: number) => P, eps: number): [number, number, number, number] | undefined {
  let a = 0;
  for (let i = 1; i < count; i++) if (p(i)[0] < p(a)[0]) a = i;
  const farthest = (distance: (x: P) => number) => {
    let best = -1,
      far = eps;
    for (let i = 0; i < count; i++) {
      const dist = distance(p(i));
      if (dist > far) [best, far] = [i, dist];
    }
    return best < 0 ? undefined : best;
  };
  const b = farthest((x) => Math.hypot(...sub(x, p(a))));
  if (b === undefined) return undefined;
  const ab = sub(p(b), p(a)),
    lab = Math.hypot(...ab);
  const c = farthest((x) => Math.hypot(...cross(ab, sub(x, p(a)))) / lab);
  if (c === undefined) return undefined;
  const n = cross(ab, sub(p(c), p(a))),
    ln = Math.hypot(...n);
  const d = farthest((x) => Math.abs(dot(n, sub(x, p(a)))) / ln);
  return d === undefined ? undefined : [a, b, c, d];
}

/** every directed edge's reverse is an edge too, once */
function closed(triangles: readonly number[]): boolean {
  const edges = new Map<string, number>();
  for (let i = 0; i < triangles.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const key = `${triangles[i + k]} ${triangles[i + ((k + 1) % 3)]}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of edges) {
    const [u, w] = key.split(' ');
    if (n !== 1 || edges.get(`${w} ${u}`) !== 1) return false;
  }
  return true;
}
