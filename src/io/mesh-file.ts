// Triangle meshes read from OBJ and STL files (binary and ASCII), for the
// mass of MJCF mesh geoms (mesh-inertia.ts), the way MuJoCo's decoders read
// them (plugin/obj_decoder, plugin/stl_decoder):
//   coordinates  rounded to single precision, as MuJoCo keeps mesh vertices
//                (float), so that the mass properties agree to the last bits
//   OBJ          `v x y z` and `f a b c ...` (a/b/c, a//c and negative,
//                relative indices); a quad split along its shorter diagonal
//                as tinyobjloader splits it, a larger polygon as a fan; only
//                the first object (`o`/`g` with faces) counts, as MuJoCo
//                reads only tinyobjloader's first shape
//   STL          binary (80-byte header, face count, 50 bytes a face) when
//                the size says so, else ASCII (`solid`, `vertex x y z`);
//                vertices at the same coordinates merged, as MuJoCo merges
//                them (binary only: MuJoCo does not read ASCII STL)
// A malformed line is a ModelError naming the mesh, the file and its line.
import { ModelError } from '../errors.ts';

export interface TriangleMesh {
  /** x, y, z of each vertex (single-precision values) */
  vertices: number[];
  /** three vertex indices (from 0) per triangle */
  faces: number[];
  /** OBJ objects or groups with faces after the first: not counted (MuJoCo's rule), for a warning */
  ignoredObjects: number;
}

/** what a mesh is called in messages: its <mesh> name and file */
export interface MeshSource {
  mesh: string;
  file: string;
}

export function meshFail(src: MeshSource, what: string, hint: string, line?: number): never {
  throw new ModelError(`MJCF mesh "${src.mesh}" (${src.file}${line === undefined ? '' : `:${line}`}): ${what}`, { hint });
}

// (file bytes, mesh and file for messages) => triangles; the format from the file's extension
export function readMeshFile(bytes: Uint8Array, src: MeshSource): TriangleMesh {
  const ext = /\.([^./\\]*)$/.exec(src.file)?.[1].toLowerCase();
  if (ext === 'obj') return readObj(new TextDecoder().decode(bytes), src);
  if (ext === 'stl') return readStl(bytes, src);
  return meshFail(src, `the file is not an OBJ or STL file (.${ext ?? ''})`, 'Kron computes the mass of OBJ and STL meshes; give the body an <inertial>');
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** three single-precision coordinates from words, or the failure naming the line */
function coordinates(words: readonly string[], src: MeshSource, line: number): [number, number, number] {
  if (words.length < 3 || !words.slice(0, 3).every((w) => NUMBER.test(w))) {
    meshFail(src, `"${words.join(' ').slice(0, 60)}" is not three decimal coordinates`, 'a vertex is x y z: three decimal numbers', line);
  }
  const v: [number, number, number] = [Math.fround(Number(words[0])), Math.fround(Number(words[1])), Math.fround(Number(words[2]))];
  if (!v.every(Number.isFinite))
    meshFail(
      src,
      `"${words.slice(0, 3).join(' ')}" is beyond single precision (3.4e38)`,
      'mesh coordinates are single-precision numbers: check the units',
      line,
    );
  return v;
}

function readObj(text: string, src: MeshSource): TriangleMesh {
  const vertices: number[] = [],
    faces: number[] = [];
  // the shape (tinyobjloader's: a new one at o or g once the current has faces) and its face count
  let shape = 0,
    shapeFaces = 0,
    ignored = 0;
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const [kind, ...rest] = lines[n].replace(/#.*/, '').trim().split(/\s+/);
    if (kind === 'v') {
      vertices.push(...coordinates(rest, src, n + 1));
    } else if ((kind === 'o' || kind === 'g') && shapeFaces > 0) {
      [shape, shapeFaces] = [shape + 1, 0];
    } else if (kind === 'f') {
      const triangles = polygon(rest, vertices.length / 3, vertices, src, n + 1);
      if (shapeFaces++ === 0 && shape > 0) ignored++;
      if (shape === 0) faces.push(...triangles);
    }
  }
  return { vertices, faces, ignoredObjects: ignored };
}

/** a face's vertex indices (from 0) split into triangles */
function polygon(words: readonly string[], count: number, v: readonly number[], src: MeshSource, line: number): number[] {
  const at = words.map((w) => {
    const i = /^-?\d+/.test(w) ? parseInt(w, 10) : NaN;
    const k = i < 0 ? count + i : i - 1;
    if (!Number.isInteger(i) || i === 0 || k < 0 || k >= count) {
      meshFail(
        src,
        `face vertex "${w}" is not one of the ${count} vertices before it`,
        'face indices count from 1 (negative: back from the last vertex)',
        line,
      );
    }
    return k;
  });
  if (at.length < 3) meshFail(src, `a face has ${at.length} vertices`, 'a face has at least three vertices', line);
  if (at.length === 4) {
    // tinyobjloader's split: along the shorter diagonal, 0-2 when shorter, else 1-3
    const d2 = (a: number, b: number) => (v[3 * b] - v[3 * a]) ** 2 + (v[3 * b + 1] - v[3 * a + 1]) ** 2 + (v[3 * b + 2] - v[3 * a + 2]) ** 2;
    const [a, b, c, d] = at;
    return d2(a, c) < d2(b, d) ? [a, b, c, a, c, d] : [a, b, d, b, c, d];
  }
  const fan: number[] = [];
  for (let k = 1; k + 1 < at.length; k++) fan.push(at[0], at[k], at[k + 1]);
  return fan;
}

function readStl(bytes: Uint8Array, src: MeshSource): TriangleMesh {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.length >= 84 ? view.getUint32(80, true) : -1;
  const merged = new Merger();
  if (count >= 1 && 84 + 50 * count === bytes.length) {
    for (let f = 0; f < count; f++) {
      for (let j = 0; j < 3; j++) {
        const at = 84 + 50 * f + 12 * (j + 1);
        merged.add([view.getFloat32(at, true), view.getFloat32(at + 4, true), view.getFloat32(at + 8, true)], src);
      }
    }
    return merged.mesh();
  }
  const text = new TextDecoder().decode(bytes);
  if (!/^\s*solid\b/.test(text)) {
    meshFail(
      src,
      `the file is neither a binary STL (${bytes.length} bytes, not 84 + 50 per face${count >= 0 ? ` for the ${count} faces its header gives` : ''}) nor an ASCII STL (starting "solid")`,
      'the file may be cut short: export it again',
    );
  }
  const lines = text.split(/\r?\n/);
  let inFacet = 0,
    facetLine = 0;
  for (let n = 0; n < lines.length; n++) {
    const [kind, ...rest] = lines[n].trim().split(/\s+/);
    if (kind === 'facet') [inFacet, facetLine] = [1, n + 1];
    else if (kind === 'vertex') {
      if (!inFacet) meshFail(src, 'a vertex outside a facet', 'vertices are written in facet ... endfacet', n + 1);
      merged.add(coordinates(rest, src, n + 1), src, n + 1);
      inFacet++;
    } else if (kind === 'endfacet') {
      if (inFacet !== 4) meshFail(src, `the facet has ${inFacet - 1} vertices`, 'an STL facet is a triangle: three vertex lines', facetLine);
      inFacet = 0;
    }
  }
  if (inFacet) meshFail(src, 'the last facet has no endfacet', 'the file may be cut short: export it again', facetLine);
  return merged.mesh();
}

/** STL vertices merged by their exact coordinates (MuJoCo's decoder merges by the floats' bits) */
class Merger {
  private readonly index = new Map<string, number>();
  private readonly vertices: number[] = [];
  private readonly faces: number[] = [];

  add(v: readonly number[], src: MeshSource, line?: number): void {
    if (!v.every((x) => Math.abs(x) <= 2 ** 30))
      meshFail(src, `vertex ${v.join(' ')} is not finite or beyond 2^30`, 'MuJoCo reads STL coordinates up to 2^30 in size', line);
    const key = `${Object.is(v[0], -0) ? '-0' : v[0]} ${Object.is(v[1], -0) ? '-0' : v[1]} ${Object.is(v[2], -0) ? '-0' : v[2]}`;
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.vertices.length / 3;
      this.index.set(key, i);
      this.vertices.push(v[0], v[1], v[2]);
    }
    this.faces.push(i);
  }

  mesh(): TriangleMesh {
    return { vertices: this.vertices, faces: this.faces, ignoredObjects: 0 };
  }
}
