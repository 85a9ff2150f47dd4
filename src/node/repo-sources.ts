// A module resolve hook for the repository's CLI run from dist/ (bin/kron.mjs
// when dist/ is fresh): a module that imports Kron's sources by path
// (../../src/model/index.ts, as the test fixtures do) gets the built module of
// the same source, so that the process holds one copy of Kron and the model
// is built from the very classes the CLI checks against. Registered after tsx
// (import-module.ts), so it runs first and maps what tsx resolved. It runs on
// Node's hooks thread, as plain JavaScript from dist/.

interface Resolved {
  url: string;
  format?: string | null;
}
type NextResolve = (specifier: string, context: unknown) => Promise<Resolved>;

let sources = '';
let built = '';

/** data.root: the repository's folder as a file URL ending in '/' */
export function initialize(data: { root: string }): void {
  sources = new URL('src/', data.root).href;
  built = new URL('dist/src/', data.root).href;
}

export async function resolve(specifier: string, context: unknown, next: NextResolve): Promise<Resolved> {
  const r = await next(specifier, context);
  if (!r.url.startsWith(sources) || !r.url.endsWith('.ts')) return r;
  return { ...r, url: `${built}${r.url.slice(sources.length, -'.ts'.length)}.js`, format: 'module' };
}
