// `import { ... } from 'kron/browser'`: the package for web apps. Everything
// of src/api.ts (build a model, compile, simulate, record a run with its
// scene and poses) and the viewer component that plays such a run on the
// app's own page. The engine never imports the viewer; this entry joins them.
export * from '../src/api.ts';
export { mountViewer, type ViewerHandle, type ViewerOptions } from './page/mount.ts';
