// The package in Node, `import { ... } from 'kron'`: everything of
// src/api.ts (builder, libraries, compile, simulate, results, errors) and
// the Node-only pieces: loadUrdf reads a .urdf file, loadMjcf an MJCF .xml file; sweeps run on worker threads or a Redis queue. Browsers (bundlers that
// honour the "browser" export condition, kron view) get src/api.ts alone;
// `kron/browser` adds the viewer component (viewer/browser.ts).
export * from './api.ts';
export { loadUrdf } from './node/urdf-file.ts';
export { loadMjcf } from './node/mjcf-file.ts';

// sweeps: one model compiled once, run over grids or Monte Carlo samples on worker threads or through a Redis queue (worker_threads, BullMQ)
export { sweep, sweepCompiled, sweepPoints, type SweepSpec, type SweepResult } from './sweep/sweep.ts';
export { sweepCSV } from './sweep/csv.ts';
export { parseGrid, parseDist, type GridAxis, type Distribution } from './sweep/spec.ts';
export { expandRuns, MAX_RUNS, SweepPoints } from './sweep/runs.ts';
export { Random } from './sweep/random.ts';
export type { RunSettings, RunOutcome } from './sweep/run.ts';
export type { MetricFunction } from './sweep/metric.ts';
export type { QueueConfig, QueueTarget, TlsFiles } from './sweep/queue-config.ts';
