// Where a worker reads a sweep's metric module and writes its details: only
// in the folders its own operator gave (kron worker --metric-dir,
// --detail-dir), never at a path the sweep record names. The record carries
// the metric's file name and the SHA-256 of its content: the worker imports
// <metric-dir>/<name> only when its content is that one (an edited metric is
// another sweep, with another hash), and writes details to
// <detail-dir>/<name>/. Paths are resolved with realpath and must stay
// inside the folder (a symbolic link out of it is refused).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { RunSettings } from './run.ts';
import type { QueueSettings } from './messages.ts';

/** the folders this worker's operator allows */
export interface WorkerFolders {
  /** where --metric modules of sweeps are found, by file name */
  readonly metricDir?: string;
  /** under which sweeps' --detail folders are written */
  readonly detailDir?: string;
}

/** a sweep this worker cannot run as asked: another worker may (the job is retried), or the operator fixes the folders */
export class WorkerSetupError extends Error {
  override name = 'WorkerSetupError';
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

// (the record's settings, this worker's folders) => the run settings with this machine's paths
export function localSettings(settings: QueueSettings, folders: WorkerFolders): RunSettings {
  const { metric, detail, ...rest } = settings;
  return { ...rest, ...(metric && { metric: metricPath(metric, folders.metricDir) }), ...(detail && { detail: detailPath(detail, folders.detailDir) }) };
}

function metricPath(metric: NonNullable<QueueSettings['metric']>, dir: string | undefined): string {
  const wanted = `the sweep's metric module ${metric.name} (SHA-256 ${metric.sha256.slice(0, 12)}...)`;
  if (dir === undefined) throw new WorkerSetupError(`${wanted}: this worker has no --metric-dir; start it with --metric-dir <a folder holding ${metric.name}>`);
  const path = inside(dir, metric.name, '--metric-dir');
  if (path === undefined) throw new WorkerSetupError(`${wanted} is not in --metric-dir ${dir}: copy it there`);
  const found = sha256(readFileSync(path));
  if (found !== metric.sha256)
    throw new WorkerSetupError(`${wanted}: ${path} here has other content (SHA-256 ${found.slice(0, 12)}...): copy the producer's version`);
  return path;
}

function detailPath(name: string, dir: string | undefined): string {
  if (dir === undefined)
    throw new WorkerSetupError(`the sweep writes details (--detail .../${name}): this worker has no --detail-dir; start it with --detail-dir <folder>`);
  mkdirSync(join(dir, name), { recursive: true });
  const path = inside(dir, name, '--detail-dir');
  if (path === undefined) throw new WorkerSetupError(`--detail-dir ${dir}: ${name} cannot be made there`);
  return path;
}

/** folder/name by its real path, when it exists and stays inside the folder */
function inside(folder: string, name: string, flag: string): string | undefined {
  let root: string, path: string;
  try {
    root = realpathSync(folder);
  } catch {
    throw new WorkerSetupError(`${flag} ${folder} does not exist`);
  }
  try {
    path = realpathSync(join(root, name));
  } catch {
    return undefined;
  }
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep))
    throw new WorkerSetupError(`${flag} ${folder}: ${name} leads to ${path}, outside the folder (a symbolic link?): refused`);
  return path;
}
