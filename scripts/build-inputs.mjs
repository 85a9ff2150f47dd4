// What dist/ is built from (scripts/build.mjs), as one hash: the paths and
// contents of src/, viewer/ and the build's configuration and lockfile. The
// build records it in node_modules/.cache/kron-build/inputs; a test that
// packs the package (test/package/pack.test.ts) builds again only when the
// recorded hash is not today's, so `npm ci && npm test` builds once, and an
// edit to a source since the last build is never packed stale.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const STAMP = join(root, 'node_modules/.cache/kron-build/inputs');
const INPUTS = ['src', 'viewer', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'package.json', 'package-lock.json'];

// (a path) => every file under it, sorted
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** the hash of the build's inputs, as they are now */
export function buildInputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((p) => files(join(root, p))))
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('hex');
}

/** whether dist/ was built from the inputs as they are now */
export function distIsCurrent() {
  return existsSync(STAMP) && existsSync(join(root, 'dist/src/index.js')) && readFileSync(STAMP, 'utf8') === buildInputsHash();
}
