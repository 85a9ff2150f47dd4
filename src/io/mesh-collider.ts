// A mesh as collision geometry: the contact layer collides it as the convex
// hull of its vertices (src/contact/hull.ts), as MuJoCo collides a mesh
// geom. Its vertices are the file's (OBJ or STL, mesh-file.ts), placed as
// the importer places the mesh (MJCF: moved by -refpos, turned by
// refquat^-1 and scaled, mesh-inertia.ts's step 1; URDF: scaled); the hull
// is computed here once, so that a flat mesh is a warning naming it, not
// an error when the body is made.
import type { CollisionShape } from '../contact/shapes.ts';
import { hullOf } from '../contact/hull.ts';
import { rotate } from './mjcf-frame.ts';
import { type MeshSource, readMeshFile } from './mesh-file.ts';

/** where the mesh's vertices go: scale, and MJCF's refpos and refquat (w x y z) */
export interface MeshPlacement {
  scale?: readonly number[];
  refpos?: readonly number[];
  refquat?: readonly number[];
}

// (x y z ... as in the file, placement) => the vertices in the geom's frame
export function placeVertices(xyz: readonly number[], t: MeshPlacement): number[] {
  const out: number[] = [];
  const turned = t.refquat && !(t.refquat[0] === 1 && t.refquat[1] === 0 && t.refquat[2] === 0 && t.refquat[3] === 0);
  const inverse = t.refquat && [t.refquat[0], -t.refquat[1], -t.refquat[2], -t.refquat[3]];
  for (let k = 0; k < xyz.length; k += 3) {
    let p = [xyz[k] - (t.refpos?.[0] ?? 0), xyz[k + 1] - (t.refpos?.[1] ?? 0), xyz[k + 2] - (t.refpos?.[2] ?? 0)];
    if (turned) p = rotate(inverse!, p);
    out.push(...p.map((x, i) => x * (t.scale?.[i] ?? 1)));
  }
  return out;
}

// (vertices in the geom's frame) => the convex shape, or why it has none (for the warning)
export function convexOf(vertices: readonly number[]): CollisionShape | string {
  return hullOf(vertices) ? { type: 'convex', vertices } : `its ${vertices.length / 3} vertices span no volume (a flat mesh has no convex hull)`;
}

// (file bytes, names for messages, placement) => the convex shape of the file's vertices, or why not
export function meshFileCollider(bytes: Uint8Array, src: MeshSource, t: MeshPlacement): CollisionShape | string {
  return convexOf(placeVertices(readMeshFile(bytes, src).vertices, t));
}
