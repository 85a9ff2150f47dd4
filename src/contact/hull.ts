// A convex collision shape's hull, computed once per shape at set-up (the
// shape is plain data: its vertices; this is the derived part the narrow
// phase reads): the hull's own vertices (points inside the hull dropped,
// they never support), and its faces as polygons, coplanar triangles of the
// incremental hull (convex-hull.ts) merged, each with its outward
// unit normal n and offset d (n.x = d on the face). A box's 8 corners give
// 6 quads, so a hull of a box has the box's faces (narrow/convex-pair.ts
// clips them as box-box.ts clips a box's).
import { convexHull } from './convex-hull.ts';

export interface HullFace {
  /** outward unit normal, in the shape's frame */
  readonly n: readonly [number, number, number];
  /** n.x on the face */
  readonly d: number;
  /** indices into ConvexHull.vertices (x y z each), counter-clockwise seen from outside */
  readonly loop: readonly number[];
}

export interface ConvexHull {
  /** the hull's vertices, x y z each, in the shape's frame */
  readonly vertices: Float64Array;
  readonly faces: readonly HullFace[];
  /** the largest |vertex|: the shape's bounding radius about its origin */
  readonly radius: number;
}

/** two triangles whose unit normals differ by less than this (and whose planes meet within 1e-9 of the size) are one face */
const COPLANAR = 1e-9;

const hulls = new WeakMap<object, ConvexHull | null>();

// (flat vertices x y z ...) => the hull (cached on the array), or undefined when they span no volume
export function hullOf(vertices: readonly number[]): ConvexHull | undefined {
  let h = hulls.get(vertices);
  if (h === undefined) hulls.set(vertices, (h = buildHull(vertices) ?? null));
  return h ?? undefined;
}

function buildHull(xyz: readonly number[]): ConvexHull | undefined {
  if (xyz.length < 12 || xyz.length % 3 !== 0 || !xyz.every(Number.isFinite)) return undefined;
  const triangles = convexHull(xyz);
  if (!triangles) return undefined;
  const used = [...new Set(triangles)].sort((a, b) => a - b);
  const index = new Map(used.map((v, k) => [v, k]));
  const vertices = new Float64Array(used.flatMap((v) => [xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]]));
  const p = (k: number) => [vertices[3 * k], vertices[3 * k + 1], vertices[3 * k + 2]];
  let radius = 0;
  for (let k = 0; k < used.length; k++) radius = Math.max(radius, Math.hypot(...p(k)));
  // group the triangles by plane: a triangle joins the first group whose normal and offset it shares
  const groups: { n: [number, number, number]; d: number; area: number; tris: number[][] }[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => index.get(triangles[t + k])!);
    const [pa, pb, pc] = [p(a), p(b), p(c)];
    const u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]],
      w = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
    const m = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const area = Math.hypot(m[0], m[1], m[2]);
    const n = m.map((x) => x / area) as [number, number, number];
    const d = n[0] * pa[0] + n[1] * pa[1] + n[2] * pa[2];
    const g = groups.find((g) => 1 - (g.n[0] * n[0] + g.n[1] * n[1] + g.n[2] * n[2]) < COPLANAR && Math.abs(g.d - d) < COPLANAR * radius);
    if (!g) groups.push({ n, d, area, tris: [[a, b, c]] });
    else {
      g.tris.push([a, b, c]);
      // the largest triangle's normal: the best conditioned
      if (area > g.area) ((g.n = n), (g.d = d), (g.area = area));
    }
  }
  return { vertices, faces: groups.map((g) => ({ n: g.n, d: g.d, loop: boundaryLoop(g.tris) })), radius };
}

/** the boundary of a fan of triangles (edges run once), as one loop in their winding */
function boundaryLoop(tris: readonly number[][]): number[] {
  const edges = new Set(tris.flatMap(([a, b, c]) => [`${a} ${b}`, `${b} ${c}`, `${c} ${a}`]));
  const next = new Map<number, number>();
  for (const e of edges) {
    const [u, w] = e.split(' ').map(Number);
    if (!edges.has(`${w} ${u}`)) next.set(u, w);
  }
  const start = next.keys().next().value!;
  const loop = [start];
  for (let v = next.get(start)!; v !== start && loop.length <= next.size; v = next.get(v)!) loop.push(v);
  return loop;
}
