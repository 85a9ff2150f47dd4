// A URDF robot read from a file: the Node-only half of src/io/urdf.ts, kept
// apart so that the browser entry (src/browser.ts) never imports node:fs.
// Here too: where the meshes a URDF names are on this machine.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type UrdfModel, type UrdfOptions, parseUrdf, urdfMechanism } from '../io/urdf.ts';

/** the mesh formats the viewer loads (three.js STLLoader, ColladaLoader, OBJLoader) */
export const MESH_EXTENSIONS = ['.stl', '.dae', '.obj'];

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * (URDF file, <mesh filename>) => the mesh file's absolute path, or undefined
 * when it is not there or not a format the viewer loads. `package://pkg/rest`
 * is looked up as ROS would find it without ROS: `rest` next to the URDF or
 * one folder up (robot/urdf/x.urdf beside robot/meshes/), or under an
 * ancestor folder named `pkg`.
 */
export function findMesh(urdf: string, filename: string): string | undefined {
  if (!MESH_EXTENSIONS.includes(extname(filename).toLowerCase())) return undefined;
  const dir = dirname(resolve(urdf));
  let candidates: string[];
  if (filename.startsWith('file://')) candidates = [fileURLToPath(filename)];
  else if (filename.startsWith('package://')) {
    const [pkg, ...rest] = filename.slice('package://'.length).split('/');
    const tail = rest.join('/');
    const ancestors: string[] = [];
    for (let d = dir; dirname(d) !== d; d = dirname(d)) ancestors.push(d);
    candidates = [join(dir, tail), join(dir, '..', tail), ...ancestors.filter((a) => basename(a) === pkg).map((a) => join(a, tail))];
  } else candidates = [isAbsolute(filename) ? filename : join(dir, filename)];
  return candidates.find(isFile);
}

// (path of a .urdf file, options) => mechanism and warnings; meshes found next to the file
export function loadUrdf(file: string, options: UrdfOptions = {}): UrdfModel {
  return urdfMechanism(parseUrdf(readFileSync(file, 'utf8'), basename(file)), { meshFile: (name) => findMesh(file, name), ...options });
}
