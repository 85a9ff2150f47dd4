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
  },
});
