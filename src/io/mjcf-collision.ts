// An MJCF robot's collision geometry (mjcfMechanism's contact option): every
// geom that may touch another (mjcf-filter.ts) and that the contact layer
// has a shape for becomes a Collider of its body (src/contact), the world's
// planes grounds and its other geoms world geometry. MuJoCo's parameters map
// onto the contact layer's as MuJoCo mixes a pair's: the larger sliding
// friction (the first of friction's numbers, default 1) and the means of
// the two solrefs (time constant and damping ratio, default 0.02 s and 1)
// and of the two solimps (MuJoCo's solmix weighs them equally by default;
// solmix is not read), or those of the geom of higher priority as they are.
// Every pair gets its mix (mixParameters, through the mechanism's
// contactRules.mix: mjcf-filter.ts); a geom's Collider carries its mix with
// the first plane it may touch (else its own), the plane none.
// MuJoCo's contacts are soft constraints solved per step; Kron's are compliant
// forces: mjcf-solref.ts turns the mixed solref and solimp into the linear
// spring (an equivalent solref) that rests a body at MuJoCo's depth.
// A mesh geom is the convex hull of its mesh's vertices (the contact
// layer's convex shape, as MuJoCo collides a mesh), placed as MuJoCo places
// them (refpos, refquat, scale: mesh-collider.ts) at the geom's pos and quat;
// a mesh file not found or not read is a warning naming the geom and file.
// A geom the contact layer has no shape for (an ellipsoid, a height field)
// is a warning, counted.
// Which geoms touch which is the file's (mjcf-filter.ts): the geoms' own
// contype and conaffinity, MuJoCo's same-body and parent filters (the
// contact layer's: scene-pairs.ts), <contact><exclude> and <contact><pair>.
// condim 1 (frictionless) mixes as MuJoCo's: the larger of the two (or the
// higher priority's), and a pair at condim 1 has no friction; condim 4 and 6
// (torsional, rolling friction) act as 3.
import { type Collider, checkColliders } from '../contact/collider.ts';
import type { ContactMaterial } from '../contact/material.ts';
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
export const touch = (a: MjcfGeom, b: MjcfGeom) => (a.contype & b.conaffinity) !== 0 || (b.contype & a.conaffinity) !== 0;

/** the mean of two parameter vectors (MuJoCo's mix at equal solmix) */
const mean = (a: readonly number[], b: readonly number[]) => a.map((x, i) => (x + b[i]) / 2);

/** a pair's MuJoCo parameters before they are mapped onto the contact layer's */
export interface MixedParameters {
  condim: number;
  friction: number;
  solref: readonly number[];
  solimp: readonly number[];
}

// (two geoms) => their pair's parameters as MuJoCo mixes them: of two priorities the higher geom's alone, else the larger condim and friction and the mean solref and solimp
export function mixParameters(g: MjcfGeom, p: MjcfGeom): MixedParameters {
  const [a, b] = g.priority === p.priority ? [g, p] : g.priority > p.priority ? [g, g] : [p, p];
  return {
    condim: Math.max(a.condim, b.condim),
    friction: Math.max(a.friction, b.friction),
    solref: mean(a.solref ?? SOLREF, b.solref ?? SOLREF),
    solimp: mean(a.solimp ?? SOLIMP, b.solimp ?? SOLIMP),
  };
}

// (a pair's MuJoCo parameters, whether a box is one of the two) => the contact layer's: condim 1 frictionless, solref and solimp as the spring resting a body at MuJoCo's depth (a box on a face's four corners: mjcf-solref.ts)
export function materialOf(p: MixedParameters, box: boolean): ContactMaterial {
  return { friction: p.condim === 1 ? 0 : p.friction, ...equivalentSolref(p.solref, p.solimp, box ? 4 : 1) };
}

/** a geom's collider: its shape at its pose, the file's filter bits, and its parameters mixed with `other`'s (the first plane it may touch, else itself) */
function colliderOf(g: MjcfGeom, shape: CollisionShape, other: MjcfGeom): Collider {
  const [w, x, y, z] = g.quat;
  return {
    shape,
    ...(g.name !== undefined && { name: g.name }),
    offset: g.pos,
    ...(w !== 1 && { orientation: [x, y, z, w] as [number, number, number, number] }),
    contype: g.contype,
    conaffinity: g.conaffinity,
    material: materialOf(mixParameters(g, other), shape.type === 'box'),
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

// (a body's geoms, which geoms collide (mjcf-filter.ts), the world's planes, the count of those left out so far, mesh geoms' shapes, each collider's geom) => its colliders
export function collidersOf(
  geoms: readonly MjcfGeom[],
  collided: ReadonlySet<MjcfGeom>,
  planes: readonly MjcfGeom[],
  left: { count: number; types: Set<string> },
  meshShape: MeshShape | undefined,
  geomOf: Map<Collider, MjcfGeom>,
): Collider[] {
  const out: Collider[] = [];
  for (const g of geoms) {
    if (!collided.has(g)) continue;
    const shape = g.type === 'mesh' && meshShape ? meshShape(g) : shapeOf(g);
    if (!shape) {
      if (g.type !== 'mesh' || !meshShape) (left.count++, left.types.add(g.type));
      continue;
    }
    const c = colliderOf(g, shape, planes.find((p) => touch(g, p)) ?? g);
    geomOf.set(c, g);
    out.push(c);
  }
  return out;
}

// (mechanism, the world's geoms that collide, left out so far, mesh shapes, each collider's geom) => planes added as grounds (the normal: the geom's z axis), other shapes as world geometry
export function addWorldColliders(
  m: Mechanism,
  world: readonly MjcfGeom[],
  left: { count: number; types: Set<string> },
  meshShape: MeshShape | undefined,
  geomOf: Map<Collider, MjcfGeom>,
): void {
  for (const g of world.filter((w) => w.type === 'plane')) {
    const c = m.ground({
      normal: rotate(g.quat, [0, 0, 1]),
      point: g.pos,
      ...(g.name !== undefined && { name: g.name }),
      contype: g.contype,
      conaffinity: g.conaffinity,
    });
    geomOf.set(c, g);
  }
  const solid = collidersOf(
    world.filter((w) => w.type !== 'plane'),
    new Set(world),
    [],
    left,
    meshShape,
    geomOf,
  );
  checkColliders(solid, 'world');
  m.worldCollision.push(...solid);
}
