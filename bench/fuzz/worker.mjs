// Worker threads do not inherit tsx's loader: register it, then run the
// TypeScript worker (as bin/kron.mjs does for the CLI).
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
