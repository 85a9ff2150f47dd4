import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // tests run the TypeScript sources: 'kron' is src/, not the build in dist/ (tsconfig.json's paths say the same)
  resolve: {
    alias: [
      { find: /^kron$/, replacement: source('./src/index.ts') },
      { find: /^kron\/browser$/, replacement: source('./viewer/browser.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // One process per worker runs file after file, each file importing the modules the
    // earlier ones left loaded and V8 has compiled: a fresh process per file (isolate: true)
    // imported and warmed src/ ~220 times, ~0.5-3 s of CPU per file. The tests that set
    // process.env or spy on console put it back in afterAll/afterEach.
    isolate: false,
    // two workers on these 2-core machines (vitest's default is cores - 1): the same CPU,
    // half the wall time when the machine is free
    maxWorkers: 2,
  },
});
