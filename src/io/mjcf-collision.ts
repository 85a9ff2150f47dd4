// An MJCF robot's collision geometry (mjcfMechanism's contact option): every
// geom that may collide (contype or conaffinity non-zero) and that the
// contact layer has a shape for becomes a Collider of its body (src/contact),
// the world's planes a ground. MuJoCo's parameters map onto the contact
// layer's as MuJoCo mixes a pair's: the larger sliding friction (the first of
// friction's numbers, default 1) and the means of the two solrefs (time
// constant and damping ratio, default 0.02 s and 1) and of the two solimps
// (MuJoCo's solmix weighs them equally by default; solmix is not read), or
// those of the geom of higher priority as they are; all put on the robot's
// geom, the plane carrying none (material.ts then takes the one side's as
// they are; with several planes, those of the first the geom may touch).
// MuJoCo's contacts are soft constraints solved per step; Kron's are compliant
// forces: mjcf-solref.ts turns the mixed solref and solimp into the linear
// spring (an equivalent solref) that rests a body at MuJoCo's depth.
// A mesh geom is the convex hull of its mesh's vertices (the contact
// layer's convex shape, as MuJoCo collides a mesh), placed as MuJoCo places
// them (refpos, refquat, scale: mesh-collider.ts) at the geom's pos and quat;
// a mesh file not found or not read is a warning naming the geom and file.
// A geom the contact layer has no shape for (an ellipsoid, a height field)
// is a warning, counted.
// For now the robot touches the world's planes and not itself: a robot's
// links overlap at its joints where MuJoCo's filters (and its
// self-collision exclusions) let them, which the importer does not make yet. So the bits are re-encoded: a geom
// that MuJoCo's rule lets touch a plane of the file (contype of one &
// conaffinity of the other, either way) gets contype 1 and conaffinity 0, a
// plane contype 0 and conaffinity 1; robot pairs then never touch.
import type { Collider } from '../contact/collider.ts';
import type { CollisionShape } from '../contact/shapes.ts';
import { KronError } from '../errors.ts';
import { convexOf, meshFileCollider, placeVertices } from './mesh-collider.ts';
import type { MjcfMesh } from './mjcf-mesh.ts';
import type { ReadFile } from './mjcf-xml.ts';
import type { Mechanism } from '../library/multibody/mechanism.ts';
import { rotate } from './mjcf-frame.ts';
import type { MjcfGeom } from './mjcf-parse.ts';
import { SOLIMP, SOLREF, equivalentSolref } from './mjcf-solref.ts';

/** the contact shape of a geom, in MuJoCo's half sizes; undefined: none yet */
function shapeOf(g: MjcfGeom): CollisionShape | undefined {
  const s = g.size;
  switch (g.type) {
    case 'sphere':
      return { type: 'sphere', radius: s[0] };
    case 'capsule':
      return { type: 'capsule', radius: s[0], length: 2 * s[1] };
    case 'cylinder':
      return { type: 'cylinder', radius: s[0], length: 2 * s[1] };
    case 'box':
      return { type: 'box', size: [2 * s[0], 2 * s[1], 2 * s[2]] };
    default:
      return undefined;
  }
}

/** MuJoCo's rule: the two geoms may touch */
const touch = (a: MjcfGeom, b: MjcfGeom) => (a.contype & b.conaffinity) !== 0 || (b.contype & a.conaffinity) !== 0;

/** the mean of two parameter vectors (MuJoCo's mix at equal solmix) */
const mean = (a: readonly number[], b: readonly number[]) => a.map((x, i) => (x + b[i]) / 2);

/** a geom's contact parameters against the plane p, mixed as MuJoCo mixes them, and the filter bits re-encoded (header) */
function colliderOf(g: MjcfGeom, shape: CollisionShape, p: MjcfGeom): Collider {
  const [w, x, y, z] = g.quat;
  // of two priorities the higher geom's parameters alone, else the mix
  const [a, b] = g.priority === p.priority ? [g, p] : g.priority > p.priority ? [g, g] : [p, p];
  const solref = mean(a.solref ?? SOLREF, b.solref ?? SOLREF),
    solimp = mean(a.solimp ?? SOLIMP, b.solimp ?? SOLIMP);
  // a box rests on a face's four corners (mjcf-solref.ts)
  const rows = shape.type === 'box' ? 4 : 1;
  return {
    shape,
    ...(g.name !== undefined && { name: g.name }),
    offset: g.pos,
    ...(w !== 1 && { orientation: [x, y, z, w] as [number, number, number, number] }),
    contype: 1,
    conaffinity: 0,
    material: { friction: Math.max(a.friction, b.friction), ...equivalentSolref(solref, solimp, rows) },
  };
}

/** the planes of the world body that may collide */
export const planesOf = (world: readonly MjcfGeom[]) => world.filter((g) => g.collides && g.type === 'plane');

/** a mesh geom's convex shape; undefined (warned) when its mesh cannot be read */
export type MeshShape = (g: MjcfGeom) => CollisionShape | undefined;

// (the file's meshes, how files are read, warnings) => each mesh geom's convex shape, each mesh read once; a mesh not read is a warning naming the geom and file
export function meshShapes(meshes: Record<string, MjcfMesh>, readFile: ReadFile | undefined, warnings: string[]): MeshShape {
  const done = new Map<string, CollisionShape | string>();
  const shapeOfMesh = (name: string): CollisionShape | string => {
    const mesh = meshes[name];
    if (!mesh) return `its mesh "${name}" is not defined`;
    const placement = { scale: mesh.scale, refpos: mesh.refpos, refquat: mesh.refquat };
    if (mesh.file === undefined) return mesh.vertex ? convexOf(placeVertices(mesh.vertex, placement)) : `its mesh "${name}" has neither a file nor vertices`;
    let bytes: string | Uint8Array | undefined;
    try {
      bytes = readFile?.(mesh.file);
      if (bytes === undefined) return `its mesh file ${mesh.file} is ${readFile ? 'not found' : 'not read (pass readFile to read mesh files)'}`;
      return meshFileCollider(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes, { mesh: name, file: mesh.file }, placement);
    } catch (e) {
      if (!(e instanceof KronError)) throw e;
      return `its mesh file ${mesh.file} could not be read (${e.message})`;
    }
  };
  return (g) => {
    const name = g.mesh ?? '';
    if (!done.has(name)) done.set(name, shapeOfMesh(name));
    const shape = done.get(name)!;
    if (typeof shape !== 'string') return shape;
    warnings.push(`mesh geom ${g.name ?? `of mesh "${name}"`}: ${shape}: not collided`);
    return undefined;
  };
}

// (a body's geoms, the world's planes, the count of those left out so far, mesh geoms' shapes) => its colliders: the geoms that may touch a plane
export function collidersOf(
  geoms: readonly MjcfGeom[],
  planes: readonly MjcfGeom[],
  left: { count: number; types: Set<string> },
  meshShape?: MeshShape,
): Collider[] {
  const out: Collider[] = [];
  for (const g of geoms) {
    const plane = g.collides ? planes.find((p) => touch(g, p)) : undefined;
    if (!plane) continue;
    if (g.type === 'mesh' && meshShape) {
      const shape = meshShape(g);
      if (shape) out.push(colliderOf(g, shape, plane));
      continue;
    }
    const shape = shapeOf(g);
    if (shape) out.push(colliderOf(g, shape, plane));
    else (left.count++, left.types.add(g.type));
  }
  return out;
}

// (mechanism, the world's planes) => each added as a ground (its normal: the geom's z axis)
export function addGrounds(m: Mechanism, planes: readonly MjcfGeom[]): void {
  for (const g of planes) {
    m.ground({
      normal: rotate(g.quat, [0, 0, 1]),
      point: g.pos,
      ...(g.name !== undefined && { name: g.name }),
      contype: 0,
      conaffinity: 1,
    });
  }
}
