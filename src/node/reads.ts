// What a model module reads while it is imported and built, for the compile
// cache (compile-cache.ts): the cache keys on the model file and the files it
// imports, but a module may also read a file at run time (`params.json`
// through node:fs), an environment variable (`process.env.LEN`) or the
// command line (`process.argv`). While a module is observed, node:fs's read
// functions, `process.env` and `process.argv` are wrapped, and each read is
// recorded with what it saw: a file's content hash, a folder's listing, a
// variable's value. A cached compile is valid only while all of them still
// read the same.
//
// Some sources cannot be made part of a key: the clock, random numbers, the
// network, child processes, threads, the whole environment enumerated. A
// module that used one while observed gets no cache entry (`unsafe` says
// why). Not watched (documented in the README): os.* (host name, CPUs),
// performance.now and process.hrtime, process.cwd(), native addons, and what
// runs after the module was built (timers it left behind).
//
// Paths are filtered: Kron's own code and package.json (the cache key has
// Kron's fingerprint) and anything under a node_modules folder (packages are
// keyed by their package.json) are not recorded.
import childProcess from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { dirname, join, resolve, sep } from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import workerThreads from 'node:worker_threads';
import { PACKAGE_ROOT } from './package.ts';
import { type ReadMode as Mode, modeOf, observedValue } from './compile-cache.ts';

/** what an observed module read, and what it saw */
export interface Reads {
  /**
   * absolute path => what the module saw: 'file:<sha-256>' for a file read or
   * looked at, 'dir:<sha-256 of the names>' for a folder listed, 'dir' for a
   * folder looked at, null for a path that did not exist
   */
  readonly files: Record<string, string | null>;
  /** environment variable => its value, null when unset */
  readonly env: Record<string, string | null>;
  /** the command line's arguments, when the module read process.argv */
  readonly argv?: readonly string[];
  /** why no cache entry can be kept: the module called Math.random, read a device... */
  readonly unsafe?: string;
}

/** the code of the running Kron (src/ or dist/src/): its reads are Kron's, keyed by Kron's fingerprint */
const KRON_CODE = dirname(dirname(fileURLToPath(import.meta.url)));
const KRON_MANIFEST = join(PACKAGE_ROOT, 'package.json');
const HERE_URL = import.meta.url;
const HERE = fileURLToPath(HERE_URL);
const ignored = (path: string) => path.startsWith(KRON_CODE + sep) || path === KRON_MANIFEST || path.includes(`${sep}node_modules${sep}`);

let active = false;

/**
 * Starts observing; stop() restores every function and returns the reads.
 * One observation at a time: the command line loads one model per process.
 */
export function observeReads(): { stop(): Reads } {
  if (active) throw new Error('observeReads: already observing');
  active = true;
  const files: Record<string, string | null> = {};
  const env: Record<string, string | null> = {};
  let argv: readonly string[] | undefined;
  let unsafe: string | undefined;
  /** how to put back each property replaced, in reverse order */
  const restore: (() => void)[] = [];
  const patch = (target: object, key: PropertyKey, value: unknown) => {
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor && !descriptor.configurable) {
      if (!descriptor.writable) return; // frozen: not watched
      (target as Record<PropertyKey, unknown>)[key] = value;
      restore.push(() => ((target as Record<PropertyKey, unknown>)[key] = descriptor.value));
      return;
    }
    Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: true });
    restore.push(() => (descriptor ? Object.defineProperty(target, key, descriptor) : delete (target as Record<PropertyKey, unknown>)[key]));
  };
  const refuse = (why: string) => (unsafe ??= why);

  const file = (p: unknown, mode: Mode) => {
    const path = toPath(p);
    if (path === undefined || ignored(path)) return;
    const before = files[path];
    // a folder listed after it was looked at: keep the listing
    if (path in files && !(mode === 'list' && before === 'dir')) return;
    try {
      files[path] = observedValue(path, mode);
    } catch (e) {
      refuse(e instanceof Error ? e.message : String(e));
    }
  };
  const reading = (flags: unknown) =>
    flags === undefined ||
    flags === null ||
    (typeof flags === 'string' ? flags.startsWith('r') : typeof flags === 'number' && (flags & 3) !== fs.constants.O_WRONLY);
  // a wrapper's own work (hashing a file, a stack trace that reads a source map) is not the module's
  let inside = false;
  const note = (record: () => unknown) => {
    if (inside) return;
    inside = true;
    try {
      record();
    } finally {
      inside = false;
    }
  };
  const wrap = (target: object, name: string, before: (args: unknown[]) => void) => {
    const original = (target as Record<string, unknown>)[name];
    if (typeof original !== 'function') return;
    patch(target, name, function (this: unknown, ...args: unknown[]) {
      note(() => before(args));
      return original.apply(this, args);
    });
  };

  // node:fs, its callbacks and its promises: a read is recorded when it is asked for
  for (const target of [fs, fs.promises] as object[]) {
    for (const name of ['readFile', 'readFileSync']) wrap(target, name, (a) => file(a[0], 'content'));
    for (const name of ['open', 'openSync']) wrap(target, name, (a) => reading(a[1]) && file(a[0], 'content'));
    for (const name of ['readdir', 'readdirSync', 'opendir', 'opendirSync']) wrap(target, name, (a) => file(a[0], 'list'));
    for (const name of ['stat', 'statSync', 'lstat', 'lstatSync', 'access', 'accessSync', 'exists', 'existsSync'])
      wrap(target, name, (a) => file(a[0], 'stat'));
  }
  wrap(fs, 'createReadStream', (a) => file(a[0], 'content'));

  // the environment: each variable read; enumerating all of it cannot be keyed
  const realEnv = process.env;
  const variable = (key: string | symbol) => typeof key === 'string' && !(key in env) && note(() => !callerIsNotUser() && (env[key] = realEnv[key] ?? null));
  patch(
    process,
    'env',
    new Proxy(realEnv, {
      get(target, key) {
        variable(key);
        return Reflect.get(target, key);
      },
      has(target, key) {
        variable(key);
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        note(() => !callerIsNotUser() && refuse('enumerated the environment (process.env)'));
        return Reflect.ownKeys(target);
      },
    }),
  );
  const realArgv = process.argv;
  const argvDescriptor = Object.getOwnPropertyDescriptor(process, 'argv')!;
  restore.push(() => Object.defineProperty(process, 'argv', argvDescriptor));
  Object.defineProperty(process, 'argv', {
    get: () => (note(() => !callerIsNotUser() && (argv ??= [...realArgv])), realArgv),
    set: (v) => Object.defineProperty(process, 'argv', { value: v, writable: true, configurable: true, enumerable: true }),
    configurable: true,
    enumerable: true,
  });

  // what no key can capture: a call of any of these while observed means no entry
  const never = (target: object, names: string[], what: (name: string) => string) => {
    for (const name of names) wrap(target, name, () => !callerIsNotUser() && refuse(`called ${what(name)}`));
  };
  never(Math, ['random'], () => 'Math.random()');
  never(Date, ['now'], () => 'Date.now()');
  never(crypto, ['randomBytes', 'randomUUID', 'randomInt', 'randomFillSync', 'randomFill', 'getRandomValues'], (n) => `crypto.${n}()`);
  if (globalThis.crypto) never(globalThis.crypto, ['randomUUID', 'getRandomValues'], (n) => `crypto.${n}()`);
  never(globalThis, ['fetch'], () => 'fetch() (the network)');
  never(net, ['connect', 'createConnection'], (n) => `net.${n}() (the network)`);
  never(tls, ['connect'], () => 'tls.connect() (the network)');
  never(dgram, ['createSocket'], () => 'dgram.createSocket() (the network)');
  never(childProcess, ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'], (n) => `child_process.${n}()`);
  const RealDate = Date;
  patch(
    globalThis,
    'Date',
    new Proxy(RealDate, {
      construct(target, args, newTarget) {
        if (args.length === 0) note(() => !callerIsNotUser() && refuse('called new Date() (the clock)'));
        return Reflect.construct(target, args, newTarget);
      },
      apply(target, self, args) {
        note(() => !callerIsNotUser() && refuse('called Date() (the clock)'));
        return Reflect.apply(target, self, args);
      },
    }),
  );
  const RealWorker = workerThreads.Worker;
  patch(
    workerThreads,
    'Worker',
    new Proxy(RealWorker, {
      construct(target, args, newTarget) {
        note(() => !callerIsNotUser() && refuse('started a worker thread (its reads are not observed)'));
        return Reflect.construct(target, args, newTarget);
      },
    }),
  );
  syncBuiltinESMExports(); // `import { readFileSync } from 'node:fs'` sees the wrapped functions

  return {
    stop() {
      for (const undo of restore.reverse()) undo();
      syncBuiltinESMExports();
      active = false;
      // a file the module read and then changed (or that changed meanwhile) gives no entry
      for (const [path, value] of Object.entries(files)) {
        if (unsafe) break;
        try {
          if (observedValue(path, modeOf(value)) !== value) refuse(`${path} changed while the module was imported and built`);
        } catch (e) {
          refuse(e instanceof Error ? e.message : String(e));
        }
      }
      return { files, env, ...(argv && { argv }), ...(unsafe && { unsafe }) };
    },
  };
}

/** a path argument as node:fs takes it: string, Buffer or file: URL; a file descriptor is not a path */
function toPath(p: unknown): string | undefined {
  if (typeof p === 'string') return resolve(p);
  if (p instanceof URL) return p.protocol === 'file:' ? fileURLToPath(p) : undefined;
  if (Buffer.isBuffer(p)) return resolve(p.toString());
  return undefined;
}

/**
 * Node's own code reads the environment and the clock too (its module
 * loader reads WATCH_REPORT_DEPENDENCIES for every module), and so does
 * Kron (the time limits of user-code.ts): only what the frame calling the
 * wrapper does counts. The frames are V8's call sites, not a formatted
 * stack: formatting maps every frame through the source maps (160 ms for
 * the 270 reads of a cold compile, against a few here). The first frame
 * with a file outside this one is the caller (a getter Reflect calls has
 * none).
 */
function callerIsNotUser(): boolean {
  const { stackTraceLimit, prepareStackTrace } = Error;
  Error.stackTraceLimit = 16;
  Error.prepareStackTrace = (_, sites) => sites;
  let caller: string | undefined;
  try {
    const sites = new Error().stack as unknown as NodeJS.CallSite[];
    caller = sites.map((site) => site.getFileName() ?? undefined).find((f) => f && f !== HERE && f !== HERE_URL);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
    Error.prepareStackTrace = prepareStackTrace;
  }
  if (caller === undefined) return false;
  return caller.startsWith('node:') || (caller.startsWith('file:') ? fileURLToPath(caller) : caller).startsWith(KRON_CODE + sep);
}
