// A user metric: a module (--metric file.ts) whose default export takes a
// run's SimulationResult and returns a number (the column "metric") or an
// object of named numbers (one column each), e.g.
//   export default (r) => ({ overshoot: Math.max(...r.get('j2.q')) - r.final('j2.q') });
// Imported in every worker that runs the sweep, by path.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ModelError, UsageError } from '../errors.ts';
import { importModule } from '../node/import-module.ts';
import type { SimulationResult } from '../sim/result.ts';

export type MetricFunction = (result: SimulationResult) => number | Record<string, number>;

export async function loadMetric(file: string): Promise<MetricFunction> {
  const path = resolve(file);
  if (!existsSync(path)) throw new UsageError(`--metric ${file} not found`, { hint: 'give the path of a module whose default export is (result) => number | { name: number }' });
  const mod = (await importModule(path)) as { default?: unknown };
  if (typeof mod.default !== 'function') {
    throw new ModelError(`metric module ${file} has no default export that is a function`, { component: file, hint: "export default (result) => result.final('j1.q')" });
  }
  return mod.default as MetricFunction;
}
