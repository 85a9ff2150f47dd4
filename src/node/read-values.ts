// What a read of a path sees, as the compile cache keys it (reads.ts records
// these while a module is imported and built; compile-cache.ts reads them
// again before it uses an entry): a file by its content, a folder listed by
// its names, a folder looked at as 'dir', a missing path as null.
import { createHash } from 'node:crypto';
import fs from 'node:fs';

// node:fs's functions as they are now: while a module is observed (reads.ts) they are wrapped
const { readFileSync, readdirSync, statSync } = fs;

/** how a path was read: its content (read, opened, streamed), its listing, or only looked at (exists, stat) */
export type ReadMode = 'content' | 'list' | 'stat';

// (path, how it was read) => 'file:<sha-256>', 'dir:<sha-256 of the names>', 'dir' or null; throws the reason a path cannot be keyed
export function observedValue(path: string, mode: ReadMode): string | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return null;
  if (stat.isDirectory()) return mode === 'list' ? `dir:${sha256(readdirSync(path).sort().join('\n'))}` : 'dir';
  if (!stat.isFile()) throw new Error(`reads ${path}, which is not a regular file`);
  return `file:${sha256(readFileSync(path))}`;
}

/** how a recorded value is read again */
export const modeOf = (value: string | null): ReadMode => (value === null || value === 'dir' ? 'stat' : value.startsWith('dir:') ? 'list' : 'content');

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
