// What dist/ is built from (scripts/build.mjs), as one hash: the paths and
// contents of src/, viewer/ and the build's configuration and lockfile. The
// build records it in dist/.build-inputs, beside what it describes (in
// node_modules/.cache it was shared by every git worktree that links one
// node_modules: one checkout's build made another's dist/ look fresh); a test that
// packs the package (test/package/pack.test.ts) builds again only when the
// recorded hash is not today's, so `npm ci && npm test` builds once, and an
// edit to a source since the last build is never packed stale. The build
// dates the stamp to the moment it read its inputs, and bin/kron.mjs runs
// dist/ when no input was written since (distIsFresh).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
/** where the stamp lives, relative to a checkout */
export const STAMP_PATH = 'dist/.build-inputs';
export const STAMP = join(root, STAMP_PATH);
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

/**
 * Whether dist/ was built from the inputs as they are now, by modification
 * times alone: bin/kron.mjs asks at every start, and stat()ing ~400 paths
 * costs ~3 ms where hashing their 3 MB costs ~25. The build dates its stamp
 * to just before it read its inputs (scripts/build.mjs); an input written
 * since is newer than the stamp, and so is a directory a file was added to,
 * removed from or renamed in. (A file put back with an old time, `cp -p`,
 * is the one edit this misses: distIsCurrent() reads the contents.)
 */
export function distIsFresh(at = root) {
  const stamp = statSync(join(at, STAMP_PATH), { throwIfNoEntry: false });
  if (!stamp || !existsSync(join(at, 'dist/src/cli/main.js'))) return false;
  const written = (path) => {
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s) return false;
    if (s.mtimeMs >= stamp.mtimeMs) return true;
    return s.isDirectory() && readdirSync(path).some((name) => written(join(path, name)));
  };
  return !INPUTS.some((p) => written(join(at, p)));
}
