// The models the snapshot benches (emit-snapshot.ts, trajectory-snapshot.ts)
// go through: those named, else every model of mechanisms/ and the URDF
// robots of bench/robots/.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** (models named on the command line) => the files to snapshot */
export function snapshotModels(only: readonly string[]): string[] {
  if (only.length) return [...only];
  const files = (dir: string, ends: readonly string[]) =>
    readdirSync(dir)
      .filter((f) => ends.some((e) => f.endsWith(e)))
      .map((f) => join(dir, f));
  return [...files('mechanisms', ['.ts', '.urdf']), ...files('bench/robots', ['.urdf'])];
}
