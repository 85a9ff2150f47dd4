// The volume, centre of mass and inertia of a triangle mesh, as MuJoCo's
// compiler computes them for a mesh geom (user_mesh.cc, mjCMesh::Process,
// ComputeVolume, ComputeInertia; MuJoCo 3.14):
//   1. the file's vertices moved by -refpos, turned by refquat^-1, scaled
//      (a negative scale product flips the mesh: the triangles' winding is
//      reversed so that they still face out)
//   2. each triangle with the centroid of all faces (area weighted) makes a
//      pyramid of signed volume (c - f)·n A/3 (c its centre, n its unit
//      normal, A its area); their sum is the volume and their centres
//      (3c + f)/4 weighted by volume the centre of mass: the divergence
//      theorem over the surface (O'Rourke, Computational Geometry in C, 2nd
//      ed., sec. 1.3.8, which MuJoCo's documentation cites)
//   3. the inertia about that centre: each triangle D, E, F with the centre
//      is a tetrahedron of volume V = c·n A/3 whose second moments are
//      ∫ x_i x_j dV = V/20 (2 Σ_P P_i P_j + Σ_{P≠Q} P_i Q_j) over P, Q in
//      {D, E, F} (the tetrahedron's covariance with one vertex at the origin:
//      Tonon, "Explicit exact formulas for the 3-D tetrahedron inertia
//      tensor", J. Math. Stat. 1 (2005), eq. 2); I = tr(S) E - S
// Rules (<mesh inertia>, MuJoCo's default "legacy"):
//   legacy  each pyramid's volume counted positive (|·|): a non-convex mesh's
//           volume is over-counted, as MuJoCo does for compatibility
//   exact   signed: exact for a closed, consistently oriented mesh; two
//           triangles crossing an edge the same way is an error (MuJoCo's),
//           and so is an open mesh (an edge without a triangle running back
//           along it): MuJoCo documents exact as needing a watertight mesh
//           but computes a number for an open one, which means little
//   shell   the mass on the surface: area instead of volume, and a
//           triangle's second moments A/12 (...) in place of V/20 (...)
//   convex  signed, over the triangles of the vertices' convex hull
//           (convex-hull.ts; MuJoCo's is qhull's: the same solid, so the
//           same integrals)
// MuJoCo then turns the tensor to its principal axes with a Jacobi iteration
// (user_util.cc, mjuu_eig3) that stops once a rotation's cosine is within
// 1e-12 of 1, dropping what is left off the diagonal: its axes differ from
// the exact tensor's by up to ~1e-6 rad, its tensor by up to ~1e-7 relative
// (its principal moments agree to ~1e-12). Kron keeps the exact tensor.
// Results are per unit density: the geom's mass is density x measure (or its
// mass), its inertia mass/measure x the tensor. A mesh whose volume is zero
// or negative (open, inside out) is a ModelError, as it is MuJoCo's.
import { principalMoments } from '../library/multibody/body.ts';
import type { Vec3 } from './urdf-parse.ts';
import { type Quat, rotate } from './mjcf-frame.ts';
import { type MeshSource, type TriangleMesh, meshFail } from './mesh-file.ts';
import { convexHull } from '../contact/convex-hull.ts';

export type MeshInertiaRule = 'legacy' | 'exact' | 'convex' | 'shell';

export interface MeshTransform {
  scale: Vec3;
  refpos: Vec3;
  refquat: Quat;
}

export interface MeshMass {
  /** volume (m^3), or area (m^2) under the shell rule: what density multiplies */
  measure: number;
  /** centre of mass in the geom's frame */
  com: Vec3;
  /** inertia about com per unit density [xx, yy, zz, xy, xz, yz] in the geom's axes */
  inertia: [number, number, number, number, number, number];
}

/** MuJoCo's mjMINVAL: smaller areas and volumes are none */
const MINVAL = 1e-14;

interface Triangle {
  area: number;
  normal: Vec3;
  center: Vec3;
}

/** a triangle's area, unit normal along (b - a) x (c - a) and centre; area 0 below MINVAL (MuJoCo's `triangle`) */
function triangle(a: readonly number[], b: readonly number[], c: readonly number[]): Triangle {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
    v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const n: Vec3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const len = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  const center: Vec3 = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
  if (len < MINVAL) return { area: 0, normal: n, center };
  return { area: 0.5 * len, normal: [n[0] / len, n[1] / len, n[2] / len], center };
}

const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

// (triangles, transform, rule, names for messages) => measure, centre of mass and unit-density inertia in the geom's frame
export function meshMass(mesh: TriangleMesh, t: MeshTransform, rule: MeshInertiaRule, src: MeshSource): MeshMass {
  const vertex = (k: number) => mesh.vertices.slice(3 * k, 3 * k + 3);
  const nv = mesh.vertices.length / 3;
  if (nv < 4) meshFail(src, `has ${nv} vertices`, 'a mesh with volume has at least 4 vertices');
  if (rule === 'exact' && mesh.faces.length) {
    orientationCheck(mesh, src);
    closedCheck(mesh, src);
  }
  const faces = [...mesh.faces];
  if (t.scale[0] * t.scale[1] * t.scale[2] < 0) for (let i = 0; i < faces.length; i += 3) [faces[i + 1], faces[i + 2]] = [faces[i + 2], faces[i + 1]];
  const inverse: Quat = [t.refquat[0], -t.refquat[1], -t.refquat[2], -t.refquat[3]];
  const moved = Array.from({ length: nv }, (_, k) => {
    const p = vertex(k).map((x, i) => x - t.refpos[i]);
    const r = t.refquat[0] === 1 && t.refquat[1] === 0 && t.refquat[2] === 0 && t.refquat[3] === 0 ? p : rotate(inverse, p);
    return r.map((x, i) => x * t.scale[i]);
  });
  if (rule === 'convex' || faces.length === 0) {
    // the hull of the moved vertices (a mesh without faces is its hull, as in MuJoCo): outward whatever the scale's sign (MuJoCo builds it with qhull)
    const hull =
      convexHull(moved.flat()) ??
      meshFail(
        src,
        'its vertices span no volume: it has no convex hull',
        'a flat mesh has no volume: use <mesh inertia="shell">, or give the body an <inertial>',
      );
    faces.splice(0, faces.length, ...hull);
  }
  const tri = (i: number, at = moved) => triangle(at[faces[i]], at[faces[i + 1]], at[faces[i + 2]]);
  // the faces' centroid, the apex of the pyramids
  const f: Vec3 = [0, 0, 0];
  let area = 0;
  for (let i = 0; i < faces.length; i += 3) {
    const { area: A, center } = tri(i);
    for (let k = 0; k < 3; k++) f[k] += A * center[k];
    area += A;
  }
  if (area < MINVAL) meshFail(src, `its surface area ${area} is too small`, 'the triangles have no area: check the file and the mesh scale');
  for (let k = 0; k < 3; k++) f[k] /= area;
  const com = centreOfMass(faces, tri, f, rule, src);
  const centred = moved.map((p) => p.map((x, i) => x - com[i]));
  const { measure, inertia } = secondMoments(
    faces,
    (i) => tri(i, centred),
    (i) => [centred[faces[i]], centred[faces[i + 1]], centred[faces[i + 2]]],
    rule,
  );
  const [least, middle, most] = principalMoments(inertia);
  if (!(least > 0))
    meshFail(
      src,
      `its principal moments of inertia ${least}, ${middle}, ${most} are not all positive`,
      'a flat or degenerate mesh has no volume: use <mesh inertia="shell">, or give the body an <inertial>',
    );
  return { measure, com, inertia };
}

/** MuJoCo's ComputeVolume (the shell rule: ComputeSurfaceArea): centre of mass from the pyramids at apex f */
function centreOfMass(faces: readonly number[], tri: (i: number) => Triangle, f: Vec3, rule: MeshInertiaRule, src: MeshSource): Vec3 {
  const com: Vec3 = [0, 0, 0];
  let total = 0;
  for (let i = 0; i < faces.length; i += 3) {
    const { area, normal, center } = tri(i);
    let w = rule === 'shell' ? area : (dot([center[0] - f[0], center[1] - f[1], center[2] - f[2]], normal) * area) / 3;
    if (rule === 'legacy') w = Math.abs(w);
    total += w;
    for (let k = 0; k < 3; k++) com[k] += w * ((center[k] * 3) / 4 + f[k] / 4);
  }
  if (total < MINVAL) {
    if (rule === 'shell') meshFail(src, `its surface area ${total} is too small`, 'check the file and the mesh scale');
    if (total < 0)
      meshFail(
        src,
        `its volume ${Number(total.toPrecision(6))} is negative: the triangles face inward (inside out)`,
        'reverse the triangles\' winding (counter-clockwise seen from outside), or use <mesh inertia="legacy">',
      );
    meshFail(
      src,
      `its volume ${Number(total.toPrecision(6))} is too small (an open or flat mesh)`,
      'close the mesh, use <mesh inertia="shell"> (mass on the surface), or give the body an <inertial>',
    );
  }
  return [com[0] / total, com[1] / total, com[2] / total];
}

/** MuJoCo's ComputeInertia: the tetrahedra (triangles for the shell rule) at the centre of mass */
function secondMoments(
  faces: readonly number[],
  tri: (i: number) => Triangle,
  corners: (i: number) => number[][],
  rule: MeshInertiaRule,
): Pick<MeshMass, 'measure' | 'inertia'> {
  const pairs = [
    [0, 0],
    [1, 1],
    [2, 2],
    [0, 1],
    [0, 2],
    [1, 2],
  ];
  const P = [0, 0, 0, 0, 0, 0];
  const C = rule === 'shell' ? 12 : 20;
  let measure = 0;
  for (let i = 0; i < faces.length; i += 3) {
    const { area, normal, center } = tri(i);
    let w = rule === 'shell' ? area : (dot(center, normal) * area) / 3;
    if (rule === 'legacy') w = Math.abs(w);
    measure += w;
    const [D, E, F] = corners(i);
    for (let j = 0; j < 6; j++) {
      const [a, b] = pairs[j];
      P[j] += (w / C) * (2 * (D[a] * D[b] + E[a] * E[b] + F[a] * F[b]) + D[a] * E[b] + D[b] * E[a] + D[a] * F[b] + D[b] * F[a] + E[a] * F[b] + E[b] * F[a]);
    }
  }
  return { measure, inertia: [P[1] + P[2], P[0] + P[2], P[0] + P[1], -P[3], -P[4], -P[5]] };
}

/**
 * exact needs a consistently oriented mesh: no two triangles may run along
 * an edge in the same direction (MuJoCo's half-edge test, over triangles
 * whose area is above sqrt(mjMINVAL), on the file's coordinates)
 */
function orientationCheck(mesh: TriangleMesh, src: MeshSource): void {
  const seen = new Set<string>();
  const v = (k: number) => mesh.vertices.slice(3 * k, 3 * k + 3);
  const f = mesh.faces;
  for (let i = 0; i < f.length; i += 3) {
    if (!(triangle(v(f[i]), v(f[i + 1]), v(f[i + 2])).area > Math.sqrt(MINVAL))) continue;
    for (const [a, b] of [
      [f[i], f[i + 1]],
      [f[i + 1], f[i + 2]],
      [f[i + 2], f[i]],
    ]) {
      const key = `${a} ${b}`;
      if (seen.has(key)) {
        meshFail(
          src,
          `its faces have inconsistent orientation: two triangles run from vertex ${a + 1} to vertex ${b + 1}`,
          'orient every triangle counter-clockwise seen from outside, or use <mesh inertia="legacy">',
        );
      }
      seen.add(key);
    }
  }
}

/** exact needs a closed mesh: every edge (by its ends' coordinates) run along as often in each direction */
function closedCheck(mesh: TriangleMesh, src: MeshSource): void {
  const key = (k: number) => mesh.vertices.slice(3 * k, 3 * k + 3).join(' ');
  const balance = new Map<string, { count: number; from: number; to: number }>();
  const f = mesh.faces;
  for (let i = 0; i < f.length; i += 3) {
    for (const [a, b] of [
      [f[i], f[i + 1]],
      [f[i + 1], f[i + 2]],
      [f[i + 2], f[i]],
    ]) {
      const [ka, kb] = [key(a), key(b)];
      if (ka === kb) continue;
      const forward = ka < kb,
        edge = forward ? `${ka}|${kb}` : `${kb}|${ka}`;
      const e = balance.get(edge) ?? { count: 0, from: a, to: b };
      e.count += forward ? 1 : -1;
      balance.set(edge, e);
    }
  }
  for (const { count, from, to } of balance.values()) {
    if (count !== 0)
      meshFail(
        src,
        `it is not closed: the edge from vertex ${from + 1} to vertex ${to + 1} has no triangle running back along it`,
        'exact needs a watertight mesh: close it, or use <mesh inertia="legacy"> (MuJoCo\'s default)',
      );
  }
}
