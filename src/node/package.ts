// Kron's own files at run time (package.json, mechanisms/, the viewer page),
// found the same way from the sources (src/) and from the build (dist/src/):
// a package can import itself by name through its "exports", so resolving
// 'kron/package.json' from here gives the package root in the repository,
// in node_modules and in vitest alike.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';

/** the folder that holds Kron's package.json */
export const PACKAGE_ROOT = dirname(createRequire(import.meta.url).resolve('kron/package.json'));

/** package.json's version, what `kron --version` prints */
export const VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Help and hints name the example models as `mechanisms/...`, which is where
 * they are in the repository; an installed Kron ships them in its package
 * folder, so there the text names them as the user's shell reaches them from
 * the current folder (node_modules/kron/mechanisms/drivetrain.ts).
 */
export function shipped(text: string): string {
  const rel = relative(process.cwd(), PACKAGE_ROOT);
  if (rel === '') return text;
  const prefix = isAbsolute(rel) || rel.split(/[\\/]/).filter((p) => p === '..').length > 2 ? PACKAGE_ROOT : rel;
  return text.replace(/(^|[\s='"(])mechanisms\//g, `$1${prefix.replaceAll('\\', '/')}/mechanisms/`);
}
