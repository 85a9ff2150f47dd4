// A pool thread's entry when Kron runs from its TypeScript sources (tsx,
// vitest): worker threads start without the loader of the thread that made
// them. When dist/ was built from the sources as they are (the check
// bin/kron.mjs makes: scripts/build-inputs.mjs, distIsFresh, file times,
// ~3-10 ms), the thread loads the built pool-task.js, as the repository's
// `kron` runs dist/: a thread through tsx took ~1.3 s of CPU to start, one
// from dist/ ~0.3 s (issue 34; test/sweep/pool-close starts 60 threads).
// Otherwise, or with KRON_FROM_SOURCES=1, it registers tsx (with the
// repository's tsconfig, as bin/kron.mjs does) and loads the task from the
// sources. The built package loads pool-task.js directly (pool.ts).
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../../scripts/build-inputs.mjs';

/** what this thread runs: 'dist' (the build) or 'sources' (test/sweep/pool-entry.test.ts) */
export const loaded = process.env.KRON_FROM_SOURCES !== '1' && distIsFresh() ? 'dist' : 'sources';

let task;
if (loaded === 'dist') {
  // a metric module imported in this thread resolves 'kron' and Kron's sources to dist/, as under bin/kron.mjs
  // (src/node/import-module.ts, prepareLoader); a thread's process.env is its own copy
  process.env.KRON_REPO_DIST = new URL('../../', import.meta.url).href;
  task = await import('../../dist/src/sweep/pool-task.js');
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
  task = await import('./pool-task.ts');
}
export default task.default;
