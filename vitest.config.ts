import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Files that need a process of their own: they run user modules through the
 * CLI's main() in this process, and Kron patches process.exit once per
 * process (src/node/user-code.ts) where vitest puts its own back for every
 * file; after another file, a module's process.exit would reach vitest's.
 */
const OWN_PROCESS = ['test/cli/user-modules.test.ts'];

export default defineConfig({
  // tests run the TypeScript sources: 'kron' is src/, not the build in dist/ (tsconfig.json's paths say the same)
  resolve: {
    alias: [
      { find: /^kron$/, replacement: source('./src/index.ts') },
      { find: /^kron\/browser$/, replacement: source('./viewer/browser.ts') },
    ],
  },
  test: {
    // A backstop for a test that hangs, not a guess of how long one takes: under the load of
    // other jobs a test of 24 s of CPU (test/sweep/pool-close) took over 60 s on 2 cores. Tests
    // that wait for something wait from its progress (test/sweep/queue-harness.ts, until).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // two workers on these 2-core machines (vitest's default is cores - 1): the same CPU,
    // half the wall time when the machine is free
    maxWorkers: 2,
    // per-file CPU, recorded only when KRON_TEST_CPU names a file (docs/development.md)
    setupFiles: ['test/cpu/record.ts'],
    // the run's compile cache in a temporary folder, never the user's (test/cache-dir.ts)
    globalSetup: ['test/cache-dir.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: OWN_PROCESS,
          // One process per worker runs file after file, each file importing the modules the
          // earlier ones left loaded and V8 has compiled: a fresh process per file (isolate: true)
          // imported and warmed src/ ~220 times, ~0.5-3 s of CPU per file. The tests that set
          // process.env or spy on console put it back in afterAll/afterEach.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
