// Where the meshes a URDF names are on this machine, and which of them Kron
// may read. A URDF is data that often comes from elsewhere, and `kron view`
// serves the meshes it names, so a name may only lead to a file under the
// URDF's package root (as ROS resolvers confine `package://` to the package),
// compared after symbolic links are followed (realpath): `../`, absolute
// paths, `file://`, `package://x/../..` and links next to the URDF that
// leave the root are refused, and the link is drawn without its mesh.
//
// Roots: the URDF's package root is the nearest folder at or above the URDF
// holding a package.xml (a ROS package), else the URDF's folder, or its
// parent when that folder is named `urdf` (ROS's robot/urdf/ beside
// robot/meshes/). `package://pkg/rest` is `rest` in the folder of package
// `pkg`: a folder on ROS_PACKAGE_PATH named pkg or holding pkg, or an
// ancestor of the URDF named pkg (a ROS package, or within the URDF's root),
// confined to that folder; failing that,
// `rest` beside the URDF or one folder up, confined to the URDF's root.
import { type Stats, lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MeshNotRead } from '../io/urdf.ts';

/** the mesh formats the viewer loads (three.js STLLoader, ColladaLoader, OBJLoader) */
export const MESH_EXTENSIONS = ['.stl', '.dae', '.obj'];

/** why a mesh is not read: for the warning (why), and without paths of this machine for the page (reason) */
export type MeshProblem = MeshNotRead & { reason: string };

/** a mesh found (its real path), or why not */
export type MeshLookup = { file: string } | MeshProblem;

/** a place a mesh may be, the folders it must stay in, and what they are (for the warning) */
interface Candidate {
  path: string;
  roots: string[];
  within: string;
}

/** a path's status, or undefined when there is nothing readable there */
function status(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (e) {
    if (['ENOENT', 'ENOTDIR', 'EACCES', 'ELOOP', 'ENAMETOOLONG'].includes((e as { code?: string }).code ?? '')) return undefined;
    throw e;
  }
}

/** the real path of an existing regular file; undefined when there is none (missing, a folder, unreadable) */
export const realFile = (path: string) => (status(path)?.isFile() ? realpathSync(path) : undefined);

const isFolder = (path: string) => status(path)?.isDirectory() ?? false;

/** the folder's real path when it exists (roots are compared as real paths, like the files in them) */
const realFolder = (path: string) => (isFolder(path) ? realpathSync(path) : path);

/** file lies inside folder (both real paths) */
export function inside(folder: string, file: string): boolean {
  const r = relative(folder, file);
  return r !== '' && r.split(sep)[0] !== '..' && !isAbsolute(r);
}

// (URDF file) => its package root: package.xml above it, else its folder (its parent for a folder named urdf)
export function packageRoot(urdf: string): string {
  const dir = dirname(resolve(urdf));
  // the file system's root is never a package root: it would contain everything
  for (let d = dir; dirname(d) !== d; d = dirname(d)) if (isPackage(d)) return d;
  const parent = dirname(dir);
  return basename(dir) === 'urdf' && dirname(parent) !== parent ? parent : dir;
}

const isPackage = (folder: string) => realFile(join(folder, 'package.xml')) !== undefined;

/** the folders of ROS_PACKAGE_PATH (ROS 1's list of package folders), in order */
export function rosPackagePath(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.ROS_PACKAGE_PATH ?? '')
    .split(delimiter)
    .filter((p) => p !== '')
    .map((p) => resolve(p));
}

/**
 * The folders of package pkg: on the package path (named pkg, or holding
 * pkg), then the URDF's ancestors named pkg that are a ROS package
 * (package.xml) or lie within the URDF's root: any other ancestor would let
 * `package://home/…` reach all of /home.
 */
function packageFolders(pkg: string, urdfDir: string, root: string, packagePath: readonly string[]): string[] {
  const onPath = packagePath.flatMap((p) => (basename(p) === pkg ? [p] : [join(p, pkg)])).filter(isFolder);
  const ancestors: string[] = [];
  for (let d = urdfDir; dirname(d) !== d; d = dirname(d)) if (basename(d) === pkg && (d === root || inside(root, d) || isPackage(d))) ancestors.push(d);
  return [...onPath, ...ancestors];
}

/** a file:// URL's path, or why it names no file of this machine */
function fileUrlPath(filename: string): string | MeshProblem {
  let url: URL;
  try {
    url = new URL(filename);
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_INVALID_URL') throw e;
    return { why: 'is not a valid file:// URL', reason: 'not a valid file:// URL' };
  }
  if (url.host !== '' && url.host !== 'localhost') {
    return { why: `is a file:// URL on another machine (host "${url.host}"), not a file here`, reason: 'a file:// URL on another machine' };
  }
  try {
    return fileURLToPath(url);
  } catch (e) {
    if (!String((e as { code?: string }).code).startsWith('ERR_INVALID_FILE_URL')) throw e;
    return { why: `is not a file path of this machine (${(e as Error).message})`, reason: 'not a file path of this machine' };
  }
}

/** where a <mesh filename> may be, each with the folders it must stay in; or why it names no file */
function candidates(urdf: string, filename: string, packagePath: readonly string[]): Candidate[] | MeshProblem {
  const dir = dirname(resolve(urdf));
  const root = packageRoot(urdf);
  if (filename.startsWith('package://')) {
    const [pkg, ...rest] = filename.slice('package://'.length).split('/');
    const tail = rest.join('/');
    if (pkg === '' || tail === '') return { why: 'names no package and file (package://pkg/path)', reason: 'not a package://pkg/path name' };
    const inPackage = packageFolders(pkg, dir, root, packagePath).map((p) => ({ path: join(p, tail), roots: [p], within: `package ${pkg}'s folder ${p}` }));
    const within = `the URDF's package root ${root}`;
    return [...inPackage, { path: join(dir, tail), roots: [root], within }, { path: join(dir, '..', tail), roots: [root], within }];
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(filename) && !filename.startsWith('file://')) {
    return {
      why: `is a ${filename.split(':')[0]}: URL; Kron reads meshes from files only (a relative name, package:// or file://)`,
      reason: 'a URL Kron does not fetch',
    };
  }
  const path = filename.startsWith('file://') ? fileUrlPath(filename) : isAbsolute(filename) ? filename : join(dir, filename);
  if (typeof path !== 'string') return path;
  if (path.includes('\0')) return { why: 'contains a NUL character', reason: 'not a file name' };
  // an absolute name may lie under the URDF's root or in a folder of the package path
  const anywhere = isAbsolute(filename) || filename.startsWith('file://');
  const within = `the URDF's package root ${root}${anywhere && packagePath.length ? ' and the folders of ROS_PACKAGE_PATH' : ''}`;
  return [{ path, roots: anywhere ? [root, ...packagePath] : [root], within }];
}

/**
 * (URDF file, <mesh filename>, package path) => the mesh's real path when it
 * is there, a format the viewer loads and under its root; else why not.
 */
export function findMesh(urdf: string, filename: string, packagePath: readonly string[] = rosPackagePath()): MeshLookup {
  if (filename.includes('\0')) return { why: 'contains a NUL character', reason: 'not a file name' };
  if (!MESH_EXTENSIONS.includes(extname(filename).toLowerCase())) {
    return { why: 'is not an STL, DAE or OBJ file (the formats the viewer draws)', reason: 'not an STL, DAE or OBJ file' };
  }
  const found = candidates(urdf, filename, packagePath);
  if (!Array.isArray(found)) return found;
  let outside: { real: string; path: string; within: string } | undefined;
  for (const { path, roots, within } of found) {
    const real = realFile(path);
    if (real === undefined) continue;
    if (roots.some((r) => inside(realFolder(r), real))) return { file: real };
    outside ??= { real, path: resolve(path), within };
  }
  if (!outside) return { why: 'is not found next to the URDF', reason: 'not found next to the URDF' };
  const through = lstatSync(outside.path).isSymbolicLink() ? ` (${outside.path} is a symbolic link)` : '';
  return {
    why: `resolves to ${outside.real}${through}, outside ${outside.within} where meshes must lie (ROS_PACKAGE_PATH adds package folders)`,
    reason: "outside the URDF's package root, not served",
  };
}
