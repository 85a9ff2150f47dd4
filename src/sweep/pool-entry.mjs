// A pool thread's entry when Kron runs from its TypeScript sources (tsx,
// vitest): worker threads start without the loader of the thread that made
// them, so register tsx (with the repository's tsconfig, as bin/kron.mjs
// does) before loading the task. The built package loads pool-task.js directly.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
const task = await import('./pool-task.ts');
export default task.default;
