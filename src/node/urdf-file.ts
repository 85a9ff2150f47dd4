// A URDF robot read from a file: the Node-only half of src/io/urdf.ts, kept
// apart so that the browser entry (src/browser.ts) never imports node:fs.
// Where the meshes it names are, and which may be read: src/node/urdf-mesh.ts.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type UrdfModel, type UrdfOptions, parseUrdf, urdfMechanism } from '../io/urdf.ts';
import { findMesh, rosPackagePath } from './urdf-mesh.ts';
import { meshFileCollider } from '../io/mesh-collider.ts';
import { KronError } from '../errors.ts';

export interface UrdfFileOptions extends UrdfOptions {
  /** folders of ROS packages for package:// names and absolute mesh paths (default: ROS_PACKAGE_PATH) */
  packagePath?: readonly string[];
}

/** (path of a .urdf file, options) => mechanism and warnings; meshes found under the URDF's package root */
export function loadUrdf(file: string, options: UrdfFileOptions = {}): UrdfModel {
  const { packagePath = rosPackagePath(), ...rest } = options;
  const meshFile = (name: string) => {
    const found = findMesh(file, name, packagePath);
    return 'file' in found ? found.file : { why: found.why };
  };
  // a collision mesh: the hull of its vertices (OBJ, STL); one that cannot be read is the warning's reason
  const meshCollider = (name: string, scale: readonly number[] | undefined) => {
    const found = findMesh(file, name, packagePath);
    if (!('file' in found)) return { why: found.why };
    try {
      const shape = meshFileCollider(readFileSync(found.file), { mesh: name, file: found.file }, { scale });
      return typeof shape === 'string' ? { why: shape } : shape;
    } catch (e) {
      if (!(e instanceof KronError)) throw e;
      return { why: `could not be read as a collision mesh (${e.message.replace(/^MJCF mesh "[^"]*" \([^)]*\): /, '')})` };
    }
  };
  return urdfMechanism(parseUrdf(readFileSync(file, 'utf8'), basename(file)), { meshFile, meshCollider, ...rest });
}
