// The package in Node, `import { ... } from 'kron'`: everything of
// src/api.ts (builder, libraries, compile, simulate, results, errors) and
// the Node-only pieces: loadUrdf reads a .urdf file. Browsers (bundlers that
// honour the "browser" export condition, kron view) get src/api.ts alone;
// `kron/browser` adds the viewer component (viewer/browser.ts).
export * from './api.ts';
export { loadUrdf } from './node/urdf-file.ts';
