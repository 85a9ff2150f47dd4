// Kron's own files at run time (package.json, mechanisms/, the viewer page),
// found the same way from the sources (src/) and from the build (dist/src/):
// a package can import itself by name through its "exports", so resolving
// 'kron/package.json' from here gives the package root in the repository,
// in node_modules and in vitest alike.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** the folder that holds Kron's package.json */
export const PACKAGE_ROOT = dirname(createRequire(import.meta.url).resolve('kron/package.json'));

/** package.json's version, what `kron --version` prints */
export const VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
