// Importing a model module by its path. TypeScript modules (.ts, .mts, .cts)
// need a loader: Kron run from its sources (tsx, vitest) already has one; the
// built package registers tsx, its dependency, the first time a TypeScript
// module is imported, so built-in commands and .js/.mjs modules never load it.
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPESCRIPT = ['.ts', '.mts', '.cts'];

// this file is itself TypeScript when Kron runs from its sources: a loader is in place
const fromSources = import.meta.url.endsWith('.ts');
let registered = false;

// (absolute path) => the module's namespace
export async function importModule(path: string): Promise<unknown> {
  if (!fromSources && !registered && TYPESCRIPT.includes(extname(path).toLowerCase())) {
    const { register } = await import('tsx/esm/api');
    register();
    registered = true;
  }
  return import(pathToFileURL(path).href);
}
