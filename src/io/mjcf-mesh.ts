// MJCF <mesh> assets, and the mass of the mesh geoms that use them when a
// body's inertia comes from its geoms (MuJoCo's compiler, mjCGeom::Compile):
// the mesh file is read through the parse options' readFile (or the
// <mesh vertex face> in the file), its volume, centre of mass and inertia
// computed as MuJoCo computes them (mesh-inertia.ts, under the mesh's
// `inertia` rule, default "legacy"), once per mesh. MuJoCo moves a mesh to
// its centre of mass and principal axes and composes that offset with the
// geom's pos and quat, so the mass sits where the file's triangles are,
// placed by the geom: here the centre and tensor are kept in the geom's
// frame, which gives the same body inertia. A missing or unreadable file is
// a ModelError naming the mesh, the file and the geom that needs it.
import { KronError, ModelError } from '../errors.ts';
import { DECIMAL, type Vec3 } from './urdf-parse.ts';
import { type Quat, rotate, unit } from './mjcf-frame.ts';
import type { SolidPart } from './mjcf-inertia.ts';
import { type ReadFile, type XmlNode, fail, where } from './mjcf-xml.ts';
import { type MeshInertiaRule, type MeshMass, meshMass } from './mesh-inertia.ts';
import { type MeshSource, type TriangleMesh, readMeshFile } from './mesh-file.ts';
import type { MjcfGeom, Reader } from './mjcf-parse.ts';

export interface MjcfMesh {
  /** the file (<compiler meshdir> or assetdir before it, relative to the main file's folder); undefined for a mesh given by its vertices */
  file?: string;
  scale?: Vec3;
  /** how its mass is computed (MuJoCo's <mesh inertia>, default legacy) */
  inertia: MeshInertiaRule;
  refpos?: Vec3;
  refquat?: Quat;
  /** a mesh written in the file: vertex x y z ..., face (from 0) */
  vertex?: number[];
  face?: number[];
  /** where it is, for messages */
  at: string;
}

const RULES: readonly MeshInertiaRule[] = ['legacy', 'exact', 'convex', 'shell'];

/** a mesh's name when it gives none: its file's name without folder and extension, as MuJoCo names it */
export const meshName = (file: string) => file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');

// (reader, <mesh>) => the asset: its file under the compiler's meshdir (an absolute file name stays), scale, inertia rule, frame
export function readMesh(r: Reader, e: XmlNode): MjcfMesh {
  const a = r.attrs(e, 'main');
  const dir = r.compiler.meshdir;
  const file = a.file === undefined ? undefined : a.file.startsWith('/') || dir === '' ? a.file : `${dir.replace(/\/+$/, '')}/${a.file}`;
  const inertia = (a.inertia ?? 'legacy') as MeshInertiaRule;
  if (!RULES.includes(inertia)) fail(e, `inertia="${inertia}" is not one of ${RULES.join(', ')}`, 'give inertia="legacy" (MuJoCo\'s default) or "exact"');
  const refquat = a.refquat === undefined ? undefined : unit(r.numbers(e, a, 'refquat', 4));
  if (a.refquat !== undefined && !refquat) fail(e, 'refquat has zero length', 'give a unit quaternion w x y z');
  const vertex = list(e, a, 'vertex');
  if (vertex && vertex.length % 3) fail(e, `vertex has ${vertex.length} numbers, not a multiple of 3`, 'give x y z for each vertex');
  const face = list(e, a, 'face');
  if (face && (face.length % 3 || !face.every((i) => Number.isInteger(i) && i >= 0 && i < (vertex?.length ?? 0) / 3))) {
    fail(e, 'face is not triples of vertex indices (from 0) into vertex', 'give three vertex numbers per triangle');
  }
  return {
    ...(file !== undefined && { file }),
    inertia,
    at: where(e),
    ...(a.scale !== undefined && { scale: r.numbers(e, a, 'scale', 3) as Vec3 }),
    ...(a.refpos !== undefined && { refpos: r.numbers(e, a, 'refpos', 3) as Vec3 }),
    ...(refquat && { refquat: refquat as Quat }),
    ...(vertex && { vertex: vertex.map(Math.fround) }),
    ...(face && { face }),
  };
}

/** a list of decimal numbers of any length (a mesh's vertex or face), undefined when not given */
function list(e: XmlNode, a: Record<string, string>, name: string): number[] | undefined {
  if (a[name] === undefined) return undefined;
  const words = a[name].trim().split(/\s+/).filter(Boolean);
  const bad = words.find((w) => !DECIMAL.test(w));
  if (bad !== undefined) fail(e, `${name} holds "${bad.slice(0, 20)}", not a decimal number`, `give ${name} as numbers separated by spaces`);
  return words.map(Number);
}

/** the mass properties of meshes by name, each computed once, when a geom needs them */
export class MeshMasses {
  private readonly done = new Map<string, MeshMass>();

  constructor(
    private readonly meshes: Record<string, MjcfMesh>,
    private readonly readFile: ReadFile | undefined,
    private readonly warnings: string[],
  ) {}

  // (mesh geom, its element) => its part of the body's mass, in the body's frame
  part(g: MjcfGeom, e: XmlNode): SolidPart | undefined {
    if (g.mass === 0 || (g.mass === undefined && g.density === 0)) return undefined;
    if (g.shell) fail(e, 'shellinertia is given on a mesh geom', 'for a mesh, put the mass on its surface with <mesh inertia="shell">, as MuJoCo requires');
    const name = g.mesh ?? fail(e, 'a mesh geom names no mesh', 'give mesh="name of a <mesh> asset"');
    const mm = this.done.get(name) ?? this.compute(name, e);
    this.done.set(name, mm);
    const mass = g.mass ?? g.density * mm.measure;
    const com = rotate(g.quat, mm.com);
    return { mass, pos: [g.pos[0] + com[0], g.pos[1] + com[1], g.pos[2] + com[2]], quat: g.quat, tensor: mm.inertia.map((x) => (x * mass) / mm.measure) };
  }

  private compute(name: string, geom: XmlNode): MeshMass {
    const mesh = this.meshes[name] ?? fail(geom, `mesh "${name}" is not defined`, `define it with <asset><mesh name="${name}" file="..."/></asset>`);
    const src: MeshSource = { mesh: name, file: mesh.file ?? mesh.at };
    const triangles = this.triangles(mesh, src, geom);
    if (triangles.ignoredObjects)
      this.warnings.push(
        `MJCF mesh "${name}" (${src.file}): ${triangles.ignoredObjects} object${triangles.ignoredObjects === 1 ? '' : 's'} after the first not counted in its mass, as MuJoCo reads only an OBJ file's first object`,
      );
    const transform = { scale: mesh.scale ?? ([1, 1, 1] as Vec3), refpos: mesh.refpos ?? ([0, 0, 0] as Vec3), refquat: mesh.refquat ?? ([1, 0, 0, 0] as Quat) };
    return meshMass(triangles, transform, mesh.inertia, src);
  }

  /** the mesh's triangles from its file or its vertex and face attributes */
  private triangles(mesh: MjcfMesh, src: MeshSource, geom: XmlNode): TriangleMesh {
    if (mesh.file === undefined) {
      if (!mesh.vertex) throw new ModelError(`${mesh.at}: has neither a file nor vertices`, { hint: 'give file="part.stl" or vertex="..." face="..."' });
      // vertices without faces: their convex hull (mesh-inertia.ts), as MuJoCo makes it
      return { vertices: mesh.vertex, faces: mesh.face ?? [], ignoredObjects: 0 };
    }
    const needed = `${where(geom)} needs its mass (its body has no <inertial>)`;
    let content: string | Uint8Array | undefined;
    try {
      content = this.readFile?.(mesh.file);
    } catch (e) {
      if (e instanceof KronError) throw e;
      throw new ModelError(
        `MJCF mesh "${src.mesh}" (${mesh.file}): the file could not be read (${(e as { code?: string }).code ?? (e as Error).message}); ${needed}`,
        { hint: "check the file's permissions, or give the body an <inertial>" },
      );
    }
    if (content === undefined) {
      throw new ModelError(`MJCF mesh "${src.mesh}" (${mesh.file}): the file is not found; ${needed}`, {
        hint: this.readFile
          ? 'mesh files are found under <compiler meshdir>, relative to the MJCF file: check the name, or give the body an <inertial>'
          : 'pass options.readFile to parseMjcf to read mesh files, or give the body an <inertial>',
      });
    }
    return readMeshFile(typeof content === 'string' ? new TextEncoder().encode(content) : content, src);
  }
}
