// The command line's compile through the compile cache (node/compile-cache.ts):
// an entry under the key of the model's files and the options is run as it
// is; otherwise the model is built and compiled, and the entry stored. A model
// run from the cache is built and compiled again only if a diagnosis needs
// its plan (a run-time error naming equations, a linearization's structure).
import type { CompileOptions, compile } from '../compile.ts';
import { CompiledModel } from '../codegen/compiled.ts';
import { relative } from 'node:path';
import { type CacheEntry, cacheKey, readCache, writeCache } from '../node/compile-cache.ts';
import type { Reads } from '../node/reads.ts';
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

/** what the cache holds for this model and these inputs */
export interface CacheState {
  /** the key of the model's files and the inputs; undefined: the cache is not used */
  modelKey?: string;
  /** the files the model key hashes: not keyed again when the module reads them */
  sources?: readonly string[];
  /** the entry's key (with what the module's reads see now) */
  key?: string;
  entry?: CacheEntry;
  /** the entry made into a model: a hit */
  compiled?: CompiledModel;
  /** the ms that took */
  loadMs?: number;
  /** a cache file that could not be used: why (it is compiled again and replaced) */
  broken?: string;
  /** the model's plan when a diagnosis asks a model run from the entry for it */
  rebuild?: () => CompiledModel;
}

/** the entry of this model file and inputs, if the cache is used and holds one that can be used */
export function lookUp(file: string, inputs: unknown, useCache: boolean): CacheState {
  const model = useCache && process.env.KRON_CACHE !== '0' ? cacheKey(file, inputs) : undefined;
  if (model === undefined) return {};
  const { key, entry, broken } = readCache(model.key);
  const state: CacheState = { modelKey: model.key, sources: model.sources, key, entry, broken: broken && `${broken.file} cannot be used: ${broken.reason}` };
  if (!entry) return state;
  const t0 = performance.now();
  try {
    state.compiled = new CompiledModel(entry.data, () => state.rebuild!());
    state.loadMs = Math.round((performance.now() - t0) * 100) / 100;
  } catch (e) {
    // the entry is data this cache wrote: one that does not make a model (its code does not parse...) is broken, whatever the error
    state.broken = `the entry ${key} does not make a model (${e instanceof Error ? e.message : String(e)})`;
    state.entry = undefined;
  }
  return state;
}

/**
 * The compiler, imported only when the model is opened: a run from the cache
 * does without it and without the multibody library (~40 ms of the ~300 a
 * cached `kron simulate` of the PUMA takes).
 */
export const loadCompiler = async (): Promise<typeof compile> => (await import('../compile.ts')).compile;

// (what the cache holds, the loaded model on demand, compile options, the compiler if loaded) => compiled model; a miss stores its entry
export function cachedCompile(cache: CacheState, load: () => LoadedModel, options: CompileOptions, compiler?: typeof compile): CachedCompile {
  const fresh = () => {
    const { model, overrides } = load(); // throws PlanUnavailable when the model was not opened
    if (!compiler) throw new PlanUnavailable('the compiler was not loaded for a run from the compile cache');
    return withPatientTiering(() => compiler(model, { ...options, parameters: overrides }));
  };
  if (cache.compiled && cache.entry && cache.key !== undefined) {
    cache.rebuild = fresh;
    const { compiled, entry } = cache;
    compiled.report.cache = { key: cache.key, hit: true, loadMs: cache.loadMs, ...readsShown(entry.reads) };
    return { compiled, warnings: entry.warnings };
  }
  const compiled = fresh();
  const { warnings, reads: all } = load();
  const reads = all && withoutSources(all, cache.sources ?? []);
  if (cache.modelKey !== undefined) {
    if (!reads || reads.unsafe) {
      compiled.report.cache = {
        key: cache.modelKey,
        hit: false,
        stored: false,
        reason: `the model module ${reads?.unsafe ?? 'was not observed while it was imported and built'}`,
      };
    } else {
      // with the solve order: errors read from the entry need no plan
      const key = writeCache(cache.modelKey, { data: compiled.portable(), warnings, reads });
      compiled.report.cache = { key, hit: false, stored: true, ...readsShown(reads) };
    }
  }
  return { compiled, warnings };
}

/** the reads without the files the model key already hashes (the model file, which the loader reads) */
function withoutSources(reads: Reads, sources: readonly string[]): Reads {
  return { ...reads, files: Object.fromEntries(Object.entries(reads.files).filter(([path]) => !sources.includes(path))) };
}

/** what the report says an entry is keyed on besides the model's files: paths as the user sees them */
function readsShown(reads: Reads): { reads?: { files: string[]; env: string[]; argv?: boolean } } {
  const files = Object.keys(reads.files).map((p) => {
    const near = relative(process.cwd(), p);
    return near.startsWith('..') ? p : near;
  });
  const env = Object.keys(reads.env);
  if (!files.length && !env.length && !reads.argv) return {};
  return { reads: { files, env, ...(reads.argv && { argv: true }) } };
}
