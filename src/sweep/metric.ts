// A user metric: a module (--metric file.ts) whose default export takes a
// run's SimulationResult and returns a number (the column "metric") or an
// object of named numbers (one column each), e.g.
//   export default (r) => ({ overshoot: Math.max(...r.get('j2.q')) - r.final('j2.q') });
// Imported in every thread that runs the sweep, by path; the sweep carries
// the hash of its content and of the files it imports (metricHash), so that
// a thread (or a `kron worker` on another machine) that finds another file
// under that path says so instead of computing other numbers, and a queued
// sweep with an edited metric is another sweep (a worker keys its thread
// pools on the sweep's hash). Each call is timed (user-code.ts: 10 s unless
// --call-timeout or KRON_CALL_TIMEOUT say otherwise); an exception, a time
// out or process.exit in it is that run's error.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { ModelError, UsageError } from '../errors.ts';
import { moduleSources } from '../node/compile-cache.ts';
import { importUserModule } from '../node/import-module.ts';
import { userCall, userCodeLimits } from '../node/user-code.ts';
import type { SimulationResult } from '../sim/result.ts';

/** a user metric: one number, or named numbers, from a run's result */
export type MetricFunction = (result: SimulationResult) => number | Record<string, number>;

const USAGE = { hint: 'give the path of a module whose default export is (result) => number | { name: number }' };

/**
 * The metric module's function, each call timed and its failures typed.
 * `expectedHash`: the sweep's metricHash, which this file must still have.
 */
export async function loadMetric(file: string, expectedHash?: string): Promise<MetricFunction> {
  const path = resolve(file);
  if (!existsSync(path)) throw new UsageError(`--metric ${file} not found`, USAGE);
  if (expectedHash !== undefined && metricHash(file) !== expectedHash) {
    throw new ModelError(`metric module ${file} is not the one the sweep was started with: its text or a file it imports differs here`, {
      component: file,
      hint: 'give every worker the same metric module (and what it imports) as the machine that started the sweep, or start the sweep again',
    });
  }
  const mod = (await importUserModule('metric', file)) as { default?: unknown };
  if (typeof mod.default !== 'function') {
    throw new ModelError(`metric module ${file} has no default export that is a function`, {
      component: file,
      hint: "export default (result) => result.final('j1.q')",
    });
  }
  const metric = mod.default as MetricFunction;
  const { callMs } = userCodeLimits();
  return (result) => userCall('metric', file, 'called', () => metric(result), callMs);
}

// (metric module) => 16 hex digits of its text and of the files it imports (packages by their package.json)
export function metricHash(file: string): string {
  const sources = moduleSources(resolve(file));
  if (!sources) throw new UsageError(`--metric ${file}: a module it imports cannot be found`, USAGE);
  // by path relative to the module: the same files in another folder (another machine) hash the same
  const folder = dirname(resolve(file));
  const texts = Object.entries(sources).map(([path, text]) => [path.startsWith('package:') ? path : relative(folder, path), text]);
  return createHash('sha256').update(JSON.stringify(texts)).digest('hex').slice(0, 16);
}
