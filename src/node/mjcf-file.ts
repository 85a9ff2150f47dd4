// An MJCF robot read from a file: the Node-only half of src/io/mjcf.ts, kept
// apart so that the browser entry never imports node:fs. <include file>
// names are read relative to the main file's folder, as MuJoCo reads them;
// what each read saw is returned for the compile cache's key (reads.ts).
// Mesh files (<compiler meshdir>/<mesh file>) are read the same way for the
// mass of a body without <inertial> (mjcf-mesh.ts), and looked for the same
// way for the viewer: an STL or OBJ file inside the main file's folder.
import { resolve, basename, dirname, extname } from 'node:path';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { type MjcfModel, type MjcfOptions, mjcfMechanism, parseMjcf } from '../io/mjcf.ts';
import { observedValue } from './compile-cache.ts';
// values only: the declarations of urdf-mesh.ts name NodeJS types, which a package consumer need not have
import { inside, realFile } from './urdf-mesh.ts';

/** a mesh found (its real path), or why not: for the warning (why) and, without paths of this machine, for the page (reason) */
export type MjcfMeshLookup = { file: string } | { why: string; reason: string };

/** the mesh formats the viewer draws for an MJCF robot (MuJoCo reads these two, and .msh) */
const MJCF_MESHES = ['.stl', '.obj'];

// (MJCF file, mesh file as the MJCF names it) => its real path when it is an STL or OBJ file inside the MJCF's folder; else why not
export function findMjcfMesh(mjcf: string, filename: string): MjcfMeshLookup {
  if (filename.includes('\0')) return { why: 'contains a NUL character', reason: 'not a file name' };
  if (!MJCF_MESHES.includes(extname(filename).toLowerCase()))
    return { why: 'is not an STL or OBJ file (the formats the viewer draws)', reason: 'not an STL or OBJ file' };
  const folder = realpathSync(dirname(resolve(mjcf)));
  const real = realFile(resolve(folder, filename));
  if (real === undefined) return { why: 'is not found next to the MJCF file', reason: 'not found next to the MJCF file' };
  if (!inside(folder, real))
    return { why: `resolves to ${real}, outside ${folder} where meshes must lie`, reason: "outside the MJCF file's folder, not served" };
  return { file: real };
}

/** (path of an MJCF .xml file, options) => mechanism, warnings, and the included files with what was read of them */
export function loadMjcf(
  file: string,
  options: MjcfOptions = {},
): MjcfModel & {
  /** every file it read (includes, meshes) by absolute path: a hash of its content (the compile cache checks it), null when it was missing */
  included: Record<string, string | null>;
} {
  const folder = dirname(resolve(file));
  const included: Record<string, string | null> = {};
  const readFile = (name: string) => {
    const path = resolve(folder, name);
    // a folder or a device is no file to include: "not found", as a missing one
    const seen = statSync(path, { throwIfNoEntry: false })?.isFile() ? observedValue(path, 'content') : null;
    included[path] = seen;
    // bytes: a binary STL must not pass through UTF-8; includes are decoded where they are read
    return seen === null ? undefined : readFileSync(path);
  };
  const meshFile = (name: string) => {
    const found = findMjcfMesh(file, name);
    return 'file' in found ? found.file : undefined;
  };
  return { ...mjcfMechanism(parseMjcf(readFileSync(file, 'utf8'), basename(file), { readFile }), { meshFile, readFile, ...options }), included };
}
