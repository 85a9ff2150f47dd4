// The command line's compile through the compile cache (node/compile-cache.ts):
// an entry under the key of the model's files and the options is run as it
// is; otherwise the model is built and compiled, and the entry stored. A model
// run from the cache is built and compiled again only if a diagnosis needs
// its plan (a run-time error naming equations, a linearization's structure).
import type { CompileOptions, compile } from '../compile.ts';
import { CompiledModel } from '../codegen/compiled.ts';
import { type CacheEntry, cacheKey, readCache, writeCache } from '../node/compile-cache.ts';
import type { LoadedModel } from './load.ts';
import { withPatientTiering } from '../node/tiering.ts';

/**
 * A model run from the compile cache without its module imported was asked
 * for its plan (a diagnosis): the command runs again with the model loaded.
 */
export class PlanUnavailable extends Error {
  override name = 'PlanUnavailable';
}

export interface CachedCompile {
  compiled: CompiledModel;
  /** the loader's warnings: from the entry on a hit */
  warnings: string[];
}

/** the entry of this model file and inputs, if the cache is used and holds it */
export function lookUp(file: string, inputs: unknown, useCache: boolean): { key?: string; entry?: CacheEntry } {
  const key = useCache && process.env.KRON_CACHE !== '0' ? cacheKey(file, inputs) : undefined;
  return { key, entry: key === undefined ? undefined : readCache(key) };
}

/**
 * The compiler, imported only when the model is opened: a run from the cache
 * does without it and without the multibody library (~40 ms of the ~300 a
 * cached `kron simulate` of the PUMA takes).
 */
export const loadCompiler = async (): Promise<typeof compile> => (await import('../compile.ts')).compile;

// (cache key and entry, the loaded model on demand, compile options, the compiler if loaded) => compiled model; a miss stores its entry
export function cachedCompile(key: string | undefined, entry: CacheEntry | undefined, load: () => LoadedModel, options: CompileOptions, compiler?: typeof compile): CachedCompile {
  const fresh = () => {
    const { model, overrides } = load(); // throws PlanUnavailable when the model was not opened
    if (!compiler) throw new PlanUnavailable('the compiler was not loaded for a run from the compile cache');
    return withPatientTiering(() => compiler(model, { ...options, parameters: overrides }));
  };
  if (key !== undefined && entry) {
    const t0 = performance.now();
    const compiled = new CompiledModel(entry.data, () => fresh());
    compiled.report.cache = { key, hit: true, loadMs: Math.round((performance.now() - t0) * 100) / 100 };
    return { compiled, warnings: entry.warnings };
  }
  const compiled = fresh();
  const { warnings } = load();
  if (key !== undefined) {
    writeCache(key, { data: compiled.portable(), warnings }); // with the solve order: errors read from the entry need no plan
    compiled.report.cache = { key, hit: false };
  }
  return { compiled, warnings };
}
