// The files of a run that `kron view` serves beside it: a URDF robot's file
// (the page poses the robot from it) and the meshes its scene names, each
// found again from the URDF under the URDF's package root
// (src/node/urdf-mesh.ts), or from an MJCF file inside its folder
// (src/node/mjcf-file.ts), never taken from the run's recorded paths: a run
// file may come from elsewhere too. The result is an allow-list fixed at
// start (route -> real path); the page learns the routes by mesh name, and
// nothing it is told carries a path of this machine.
import { constants, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { PlaybackRun } from '../io/types.ts';
import { findMjcfMesh } from '../node/mjcf-file.ts';
import { findMesh, realFile } from '../node/urdf-mesh.ts';

export const MESH_TYPES: Record<string, string> = { '.stl': 'model/stl', '.dae': 'model/vnd.collada+xml', '.obj': 'model/obj' };

export interface RunFiles {
  /** route (/mesh/0.stl) -> the mesh's real path */
  meshes: Map<string, string>;
  /** the URDF's real path, served as /model.urdf */
  urdf?: string;
  /** for the page: mesh name (as the URDF writes it) -> its route; a mesh not served -> why, without paths */
  config: { meshes?: Record<string, string>; unserved?: Record<string, string>; urdf?: string };
  /** what kron view prints: meshes not served and why, a URDF that is gone */
  warnings: string[];
}

// (the run as read, folders of ROS packages) => what may be served beside it
export function runFiles(run: PlaybackRun, packagePath: readonly string[]): RunFiles {
  // mesh name -> the links (components) that show it
  const links = new Map<string, string[]>();
  for (const s of run.scene?.shapes ?? [])
    if (s.geometry.shape.type === 'mesh') links.set(s.geometry.shape.filename, [...(links.get(s.geometry.shape.filename) ?? []), s.name]);
  const recorded = run.source?.urdf;
  const real = recorded === undefined ? undefined : realFile(recorded);
  const urdf = real && extname(real).toLowerCase() === '.urdf' ? real : undefined;
  const warnings: string[] = [];
  if (recorded !== undefined && !urdf) warnings.push(`the run's URDF ${recorded} is not here: the robot is drawn without its meshes and cannot be posed`);
  const mjcf = run.source?.mjcf === undefined ? undefined : realFile(run.source.mjcf);
  if (run.source?.mjcf !== undefined && !mjcf) warnings.push(`the run's MJCF file ${run.source.mjcf} is not here: the robot is drawn without its meshes`);
  const meshes = new Map<string, string>();
  const routeOf = new Map<string, string>();
  const served: Record<string, string> = {},
    unserved: Record<string, string> = {};
  for (const [name, by] of links) {
    // without the URDF there is no root to confine a mesh to: the run's recorded paths are not followed
    const found = urdf
      ? findMesh(urdf, name, packagePath)
      : mjcf
        ? findMjcfMesh(mjcf, name)
        : run.source?.mjcf !== undefined
          ? { why: 'has no MJCF file to be found from', reason: "the run's MJCF file is not here" }
          : { why: 'has no URDF to be found from', reason: "the run's URDF is not here" };
    if (!('file' in found)) {
      unserved[name] = found.reason;
      if (urdf || mjcf) warnings.push(`link${by.length > 1 ? 's' : ''} ${by.join(', ')}: mesh "${name}" ${found.why}, drawn as a placeholder sphere`);
      continue;
    }
    let route = routeOf.get(found.file);
    if (!route) {
      route = `/mesh/${routeOf.size}${extname(name).toLowerCase()}`; // the name's format: a link inside the root may end otherwise
      routeOf.set(found.file, route);
      meshes.set(route, found.file);
    }
    served[name] = route.slice(1);
  }
  const config = {
    ...(Object.keys(served).length && { meshes: served }),
    ...(Object.keys(unserved).length && { unserved }),
    ...(urdf && { urdf: 'model.urdf' }),
  };
  return { meshes, urdf, config, warnings };
}

/**
 * A file of the allow-list, read now: it was resolved to its real path at
 * start, so a symbolic link put in its place since (or in a folder above it)
 * is refused rather than followed.
 */
export async function readServed(file: string): Promise<Buffer> {
  if (realpathSync(file) !== file) throw Object.assign(new Error('the file was replaced by a link'), { code: 'ELOOP' });
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
