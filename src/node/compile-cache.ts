// The compile cache of the command line: a compiled model's data
// (codegen/compiled-data.ts) stored as JSON under a key that hashes
// everything the compile read: the model file and the files it imports
// (relative imports, followed; packages by their package.json), the --set,
// --start, mode and other compile options, and Kron itself (every source
// file of the running build). Any change of any of them is another key, so
// an entry is never stale; it is only ever unused. A second
// `kron simulate` of the same model runs without compiling (and without
// building the model, unless a result or an error needs it).
//
// Where: $KRON_CACHE_DIR; else node_modules/.cache/kron under the current
// folder when it has a node_modules (where build tools keep their caches);
// else ~/.cache/kron. `--no-cache` (or KRON_CACHE=0) leaves it alone.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompiledData } from '../codegen/compiled-data.ts';

/** the version of the entries' format: entries of another are never read */
const FORMAT = 1;

/** what goes into a cached entry besides the compiled data */
export interface CacheEntry {
  format: number;
  data: CompiledData;
  /** the loader's warnings (a URDF's unsupported elements), shown again on a hit */
  warnings: string[];
}

export function cacheDir(): string {
  if (process.env.KRON_CACHE_DIR) return resolve(process.env.KRON_CACHE_DIR);
  const local = resolve('node_modules');
  return existsSync(local) ? join(local, '.cache', 'kron') : join(homedir(), '.cache', 'kron');
}

// (model file, everything else the compile depends on) => the key, or undefined when a source cannot be fingerprinted
export function cacheKey(file: string, inputs: unknown): string | undefined {
  const sources = modelSources(resolve(file));
  if (!sources) return undefined;
  return createHash('sha256').update(JSON.stringify({ format: FORMAT, kron: kronFingerprint(), sources, inputs })).digest('hex').slice(0, 32);
}

export function readCache(key: string): CacheEntry | undefined {
  try {
    const entry = JSON.parse(readFileSync(join(cacheDir(), `${key}.json`), 'utf8')) as CacheEntry;
    return entry.format === FORMAT ? entry : undefined;
  } catch {
    return undefined; // absent, or unreadable: compile
  }
}

/** written to a temporary file and renamed: a reader sees the whole entry or none */
export function writeCache(key: string, entry: Omit<CacheEntry, 'format'>): void {
  try {
    const dir = cacheDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${key}.json`), temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ format: FORMAT, ...entry }));
    renameSync(temporary, file);
  } catch {
    // a cache that cannot be written (read-only folder) only costs the next compile
  }
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** the text of the model file and of everything it imports, by path; undefined if an import cannot be followed */
function modelSources(entry: string): Record<string, string> | undefined {
  const texts: Record<string, string> = {};
  const pending = [entry];
  while (pending.length) {
    const path = pending.pop()!;
    if (path in texts) continue;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    texts[path] = text;
    if (extname(path) === '.urdf') continue; // meshes are drawn, not compiled
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec.startsWith('.')) {
        const target = resolveRelative(dirname(path), spec);
        if (!target) return undefined;
        pending.push(target);
      } else if (spec !== 'kron' && !spec.startsWith('kron/') && !spec.startsWith('node:')) {
        const version = packageVersion(spec, path);
        if (version === undefined) return undefined;
        texts[`package:${spec}`] = version;
      }
    }
  }
  return texts;
}

/** ./x, ./x.ts, ./x.js as TypeScript resolves them */
function resolveRelative(from: string, spec: string): string | undefined {
  const base = resolve(from, spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.js`, join(base, 'index.ts'), join(base, 'index.js')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** a package's package.json text (its version and exports): what an import of it depends on */
function packageVersion(spec: string, from: string): string | undefined {
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return readFileSync(manifest, 'utf8');
    if (dirname(dir) === dir) break;
  }
  try {
    return readFileSync(createRequire(from).resolve(`${name}/package.json`), 'utf8');
  } catch {
    return undefined;
  }
}

let fingerprint: string | undefined;

/**
 * a hash of every code file of the running Kron (src/ in the repository,
 * dist/src/ when installed): its path, size and modification time, the test of
 * make and tsc --incremental. Reading and hashing the 180 files' text took
 * 13-20 ms of every run served from the cache, a twentieth of a PUMA's run.
 */
function kronFingerprint(): string {
  if (fingerprint) return fingerprint;
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      // declarations (.d.ts) are not run: half the files of an installed build
      else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const { size, mtimeMs } = statSync(path);
        hash.update(`${path.slice(root.length)} ${size} ${mtimeMs}\n`);
      }
    }
  };
  walk(root);
  return (fingerprint = hash.digest('hex'));
}
