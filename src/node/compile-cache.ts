// The compile cache of the command line: a compiled model's data
// (codegen/compiled-data.ts) stored as JSON under a key that hashes
// everything the compile read, in two levels:
// - the model key: the model file and the files it imports (relative
//   imports, followed; packages by their package.json), the --set, --start,
//   mode and other compile options, and Kron itself (every source file of
//   the running build);
// - what the module read while it was imported and built, recorded then
//   (reads.ts): files through node:fs (by content), environment variables,
//   process.argv. `<model key>.reads.json` lists them as the last compile
//   saw them; the entry's key is the model key with what those read now.
// A module that read what no key can hold (the clock, random numbers, the
// network, a device...) gets no entry: the report says why. Otherwise any
// change of any of them is another key, so an entry is never stale; it is
// only ever unused. A second `kron simulate` of the same model runs without
// compiling (and without building the model, unless a result or an error
// needs it).
//
// Where: $KRON_CACHE_DIR; else node_modules/.cache/kron under the current
// folder when it has a node_modules (where build tools keep their caches);
// else ~/.cache/kron. `--no-cache` (or KRON_CACHE=0) leaves it alone.
import { createHash } from 'node:crypto';
import fs, { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StoredEntry, entryProblem, readsProblem } from './cache-entry.ts';
import type { Reads } from './reads.ts';

/** the version of the entries' format: entries of another are never used */
const FORMAT = 2;

/** what goes into a cached entry besides the compiled data */
export type CacheEntry = StoredEntry;

/** what the cache holds for a model key */
export interface CacheLookup {
  /** the entry's key: the model key with what the module's reads see now (the model key when nothing is listed) */
  key: string;
  entry?: CacheEntry;
  /** a file of the cache that cannot be used (cut short, wrong shape): its path and why; it is compiled again and replaced */
  broken?: { file: string; reason: string };
}

export function cacheDir(): string {
  if (process.env.KRON_CACHE_DIR) return resolve(process.env.KRON_CACHE_DIR);
  const local = resolve('node_modules');
  return existsSync(local) ? join(local, '.cache', 'kron') : join(homedir(), '.cache', 'kron');
}

// (model file, everything else the compile depends on) => the model key and the files it hashes, or undefined when a source cannot be fingerprinted
export function cacheKey(file: string, inputs: unknown): { key: string; sources: string[] } | undefined {
  const sources = moduleSources(resolve(file));
  if (!sources) return undefined;
  return { key: hash({ format: FORMAT, kron: kronFingerprint(), sources, inputs }), sources: Object.keys(sources) };
}

// (model key) => the entry for what the module's reads see now, if there is one
export function readCache(modelKey: string): CacheLookup {
  const listed = readJson(`${modelKey}.reads.json`, readsProblem);
  if (!listed.value) return { key: modelKey, broken: listed.broken };
  let now: Reads;
  try {
    now = readAgain(listed.value as Reads);
  } catch {
    return { key: modelKey }; // a path that is no regular file now (it was one when recorded): compile
  }
  const key = entryKey(modelKey, now);
  const entry = readJson(`${key}.json`, entryProblem);
  return { key, entry: entry.value as CacheEntry | undefined, broken: entry.broken };
}

/** the entry's key: the model key with what the reads saw */
export function entryKey(modelKey: string, reads: Reads): string {
  const sorted = (r: Record<string, string | null>) =>
    Object.keys(r)
      .sort()
      .map((k) => [k, r[k]]);
  return hash({ modelKey, files: sorted(reads.files), env: sorted(reads.env), argv: reads.argv ?? null });
}

/**
 * Stores the entry under the key of what its module read, and the list of
 * those reads under the model key; written to temporary files and renamed:
 * a reader sees a whole file or none. Returns the entry's key.
 */
export function writeCache(modelKey: string, entry: Omit<CacheEntry, 'format'>): string {
  const key = entryKey(modelKey, entry.reads);
  try {
    const dir = cacheDir();
    mkdirSync(dir, { recursive: true });
    // the entry before the list that leads to it: a reader never finds a list without its entry
    writeAtomically(join(dir, `${key}.json`), { format: FORMAT, ...entry });
    writeAtomically(join(dir, `${modelKey}.reads.json`), { format: FORMAT, ...entry.reads });
  } catch {
    // a cache that cannot be written (read-only folder) only costs the next compile
  }
  return key;
}

function writeAtomically(file: string, value: unknown): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(value));
  renameSync(temporary, file);
}

/** a file of the cache parsed and checked: absent is neither value nor broken */
function readJson(name: string, problem: (value: unknown, format: number) => string | undefined): { value?: unknown; broken?: CacheLookup['broken'] } {
  const file = join(cacheDir(), name);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {}; // absent, or unreadable: compile
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { broken: { file, reason: text.length ? 'it is not whole JSON (cut short?)' : 'it is empty' } };
  }
  const wrong = problem(value, FORMAT);
  return wrong
    ? { broken: { file, reason: wrong === 'format' ? 'it is of another format' : `its field ${wrong} is missing or of the wrong type` } }
    : { value };
}

/** the recorded reads read again now */
function readAgain(listed: Reads): Reads {
  const files = Object.fromEntries(Object.entries(listed.files).map(([path, value]) => [path, observedValue(path, modeOf(value))]));
  const env = Object.fromEntries(Object.keys(listed.env).map((name) => [name, process.env[name] ?? null]));
  return { files, env, ...(listed.argv && { argv: [...process.argv] }) };
}

const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

// What a read of a path sees, as the cache keys it (reads.ts records these
// while a module is imported and built; readCache reads them again before it
// uses an entry): a file by its content, a folder listed by its names, a
// folder looked at as 'dir', a missing path as null. node:fs's functions as
// they were when this module loaded: while a module is observed they are wrapped.
const fsRead = { readFileSync: fs.readFileSync, readdirSync: fs.readdirSync, statSync: fs.statSync };

/** how a path was read: its content (read, opened, streamed), its listing, or only looked at (exists, stat) */
export type ReadMode = 'content' | 'list' | 'stat';

// (path, how it was read) => 'file:<sha-256>', 'dir:<sha-256 of the names>', 'dir' or null; throws the reason a path cannot be keyed
export function observedValue(path: string, mode: ReadMode): string | null {
  const stat = fsRead.statSync(path, { throwIfNoEntry: false });
  if (!stat) return null;
  if (stat.isDirectory()) return mode === 'list' ? `dir:${sha256(fsRead.readdirSync(path).sort().join('\n'))}` : 'dir';
  if (!stat.isFile()) throw new Error(`reads ${path}, which is not a regular file`);
  return `file:${sha256(fsRead.readFileSync(path))}`;
}

/** how a recorded value is read again */
export const modeOf = (value: string | null): ReadMode => (value === null || value === 'dir' ? 'stat' : value.startsWith('dir:') ? 'list' : 'content');

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** the text of a module and of everything it imports, by path; undefined if an import cannot be followed */
export function moduleSources(entry: string): Record<string, string> | undefined {
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
