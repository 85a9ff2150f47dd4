// The user's code the command line runs: model modules (imported, then
// built), controller modules (imported, then called at every evaluation)
// and metric modules (imported, then called once per run). What it does
// wrong is reported as a typed error that names the module:
// - an exception of its own: their message and the top of their stack (the
//   frames in their files), not Kron's;
// - process.exit() while it runs: thrown as a ModelError instead of ending
//   the process with no output (exit 0 and no file, before);
// - an endless loop or an import that never finishes: a time limit (import
//   and build 60 s, one controller or metric call 10 s; --import-timeout and
//   --call-timeout, KRON_IMPORT_TIMEOUT and KRON_CALL_TIMEOUT, in seconds).
//   A build and a metric call run under vm's timer; an import and the
//   controller's calls under the watchdog thread (watchdog.ts), which only
//   the command line starts (guardProcess): it ends the process;
// - the process ending before the command finished (a top-level await that
//   never settles made Node exit with 13 and no message): explained.
import { readFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { KronError, ModelError, UsageError } from '../errors.ts';
import type { Watchdog } from './watchdog.ts';

/** Kron's code (src/, or dist/src/ when installed) and bin/: frames there are not the user's */
const KRON_CODE = dirname(dirname(fileURLToPath(import.meta.url)));
/** bin/kron.mjs beside src/ (or dist/) */
const KRON_BIN = `${dirname(KRON_CODE.endsWith(`${sep}dist${sep}src`) ? dirname(KRON_CODE) : KRON_CODE)}${sep}bin${sep}`;

export type ModuleRole = 'model' | 'controller' | 'metric';

export interface UserCodeLimits {
  /** a module's import and a model's build, in ms */
  readonly importMs: number;
  /** one controller or metric call, in ms */
  readonly callMs: number;
}

export const DEFAULT_LIMITS: UserCodeLimits = { importMs: 60_000, callMs: 10_000 };

let limits: UserCodeLimits | undefined;

/** the limits: set by the command line's flags, else KRON_IMPORT_TIMEOUT and KRON_CALL_TIMEOUT (seconds), else the defaults */
export function userCodeLimits(): UserCodeLimits {
  if (limits) return limits;
  const seconds = (name: string, fallback: number) => {
    const text = process.env[name];
    if (text === undefined || text === '') return fallback;
    return checkSeconds(name, text) * 1000;
  };
  return { importMs: seconds('KRON_IMPORT_TIMEOUT', DEFAULT_LIMITS.importMs), callMs: seconds('KRON_CALL_TIMEOUT', DEFAULT_LIMITS.callMs) };
}

export function setUserCodeLimits(given: Partial<UserCodeLimits>): void {
  limits = { ...userCodeLimits(), ...given };
}

/** a time limit in seconds (flag or variable): a positive number */
export function checkSeconds(name: string, text: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || v <= 0)
    throw new UsageError(`${name} expects a time in seconds > 0, got "${text}"`, { hint: `e.g. ${name.startsWith('-') ? `${name} 30` : `${name}=30`}` });
  return v;
}

/** the integers the main thread shares with the watchdog (watchdog.ts), by index */
export const SLOT = {
  /** incremented at every phase entered (an import) */
  generation: 0,
  /** 1 while a phase is watched */
  phase: 1,
  /** the phase's limit, in ms */
  phaseLimitMs: 2,
  /** calls started */
  calls: 3,
  /** 1 while a call runs */
  inCall: 4,
  /** the limit of one call, in ms */
  callLimitMs: 5,
  /** the main thread's answer to a report (1) */
  answered: 6,
  /** what the watchdog stopped with terminateExecution (1 a phase, 2 a call), said at exit if its report was lost with the task */
  stopped: 7,
  /** the generation or call count it stopped */
  stoppedId: 8,
} as const;

/** what the watchdog reports: a phase (by its generation) or a call (by the count of calls) over its limit */
export interface Overdue {
  readonly kind: 1 | 2;
  readonly id: number;
}

/** what runs now: the import or build of a module, or one of its calls */
interface Phase {
  readonly role: ModuleRole;
  readonly file: string;
  readonly doing: 'imported' | 'built' | 'called';
  /** the call's details for messages (a controller's time t) */
  readonly detail?: () => string;
  /** process.exit called in it, even if the module caught what it threw */
  exit?: ModelError;
  /** the phase it began in (a program that imports two modules at once), current again when it ends */
  outer?: Phase;
}

let phase: Phase | undefined;
/** the generation of the phase the watchdog watches (an import) */
let generation = 0;
let watchdog: Watchdog | undefined;
let guarded = false;
/** the phase of the last meter made: a call's, reported if the watchdog stopped it (finally blocks do not run then) */
let meterPhase: Phase | undefined;
/** the last process.exit a module called outside any phase (a timer it left behind) */
let strayExit: string | undefined;
/** the process is ending with an error already said (the watchdog's) */
let explained = false;

const what = (p: Phase) => `${p.role} module ${p.file}`;
/** when in the phase something happened: "while it was imported", "in a call at time 0.25" */
const during = (p: Phase) => (p.doing === 'called' ? `in a call${p.detail ? ` ${p.detail()}` : ''}` : `while it was ${p.doing}`);

/**
 * The command line's process (bin/kron.mjs): time limits on imports and
 * controller calls are enforced by the watchdog, which ends the process.
 * Not for a library's caller: a test or program keeps its own process.
 */
export function guardProcess(): void {
  guarded = true;
  patchExit();
}

/**
 * Starts the watchdog thread in the command line's process (guardProcess),
 * before the first import or controller: its module is loaded only then, so
 * that a run from the compile cache without a controller does not load it.
 */
export async function armWatchdog(): Promise<void> {
  if (!guarded || watchdog) return;
  const { startWatchdog } = await import('./watchdog.ts');
  watchdog ??= startWatchdog(onOverdue);
}

// (role, file for messages, import) => the module's namespace; its failures typed
export async function userImport(role: ModuleRole, file: string, load: () => Promise<unknown>): Promise<unknown> {
  await armWatchdog();
  const p = enter({ role, file, doing: 'imported' }, userCodeLimits().importMs);
  try {
    const namespace = await load();
    if (p.exit) throw p.exit;
    return namespace;
  } catch (e) {
    throw p.exit ?? userError(p, e);
  } finally {
    leave(p);
  }
}

/**
 * A call of the user's code Kron makes once (a build) or once per run (a
 * metric): under vm's timer, which stops an endless loop with a catchable
 * error (~50 us per call).
 */
export function userCall<T>(role: ModuleRole, file: string, doing: 'built' | 'called', call: () => T, limitMs: number): T {
  const p = enter({ role, file, doing }, 0);
  try {
    const value = withTimer(call, limitMs);
    if (p.exit) throw p.exit;
    return value;
  } catch (e) {
    if (isTimeout(e)) throw overdue(p, limitMs);
    throw p.exit ?? userError(p, e);
  } finally {
    leave(p);
  }
}

/** a hot call's bracket (a controller's): three stores into shared memory, the watchdog times each call */
export interface CallMeter {
  enter(): void;
  leave(): void;
  /** the exit a module called during its last call, or undefined */
  exited(): ModelError | undefined;
}

// (role, file, what the call in progress is, e.g. "at time 0.25") => a meter for its calls; armWatchdog() first, for the time limit
export function callMeter(role: ModuleRole, file: string, detail: () => string): CallMeter {
  patchExit();
  const slots = watchdog?.slots ?? new Int32Array(10);
  const p: Phase = { role, file, doing: 'called', detail };
  // the call slots belong to the last meter made (one controller per run)
  meterPhase = p;
  Atomics.store(slots, SLOT.callLimitMs, userCodeLimits().callMs);
  return {
    enter() {
      slots[SLOT.calls]++;
      slots[SLOT.inCall] = 1;
      phase = p;
    },
    leave() {
      slots[SLOT.inCall] = 0;
      phase = undefined;
    },
    exited() {
      const e = p.exit;
      p.exit = undefined;
      return e;
    },
  };
}

/** a phase begins: what process.exit and the watchdog report; limitMs 0: not watched (vm times it) */
function enter(p: Phase, limitMs: number): Phase {
  patchExit();
  p.outer = phase;
  phase = p;
  if (watchdog && limitMs > 0) {
    const { slots } = watchdog;
    Atomics.store(slots, SLOT.phaseLimitMs, limitMs);
    Atomics.store(slots, SLOT.generation, ++generation);
    Atomics.store(slots, SLOT.phase, 1);
  }
  return p;
}

function leave(p: Phase): void {
  if (phase === p) phase = p.outer;
  if (watchdog && !phase) Atomics.store(watchdog.slots, SLOT.phase, 0);
}

/** the watchdog's report: the phase or call it watched is over its limit (the process is ending) */
function onOverdue(late: Overdue): void {
  const error = overdueNow(late);
  if (!error) return; // a phase or call that ended meanwhile
  process.stderr.write(`${error.describe()}\n`);
  explained = true;
  realExit(1);
}

/** the phase or call reported, if it still runs, as its error */
function overdueNow(late: Overdue): ModelError | undefined {
  const slots = watchdog?.slots;
  if (!slots) return undefined;
  if (late.kind === 1)
    return phase && late.id === generation && Atomics.load(slots, SLOT.phase) === 1 ? overdue(phase, Atomics.load(slots, SLOT.phaseLimitMs)) : undefined;
  // a call stopped by the watchdog never left (finally blocks do not run): it is the meter's last
  const call = Atomics.load(slots, SLOT.inCall) === 1 && Atomics.load(slots, SLOT.calls) === late.id ? meterPhase : undefined;
  return call && overdue(call, Atomics.load(slots, SLOT.callLimitMs));
}

function overdue(p: Phase, limitMs: number): ModelError {
  const seconds = `${limitMs / 1000} s`;
  const detail = p.detail ? ` ${p.detail()}` : '';
  const [flag, variable] = p.doing === 'called' ? ['--call-timeout', 'KRON_CALL_TIMEOUT'] : ['--import-timeout', 'KRON_IMPORT_TIMEOUT'];
  const doing = p.doing === 'imported' ? 'finish importing' : p.doing === 'built' ? 'return from its build' : `return from a call${detail}`;
  return new ModelError(`${what(p)} did not ${doing} within ${seconds}`, {
    component: p.file,
    hint: `an endless loop, or a wait on something that never comes${p.doing === 'imported' ? ' (a top-level await)' : ''}; if it needs longer, raise the limit: ${flag} <seconds> or ${variable}=<seconds>`,
  });
}

// process.exit while a phase runs throws instead; outside one it is recorded if a module called it
let realExit: (code?: number) => never = (code) => process.exit(code);
let patched = false;

function patchExit(): void {
  if (patched) return;
  patched = true;
  const original = process.exit.bind(process) as (code?: number | string | null) => never;
  realExit = (code) => original(code);
  process.exit = function exit(code?: number | string | null): never {
    const frames = userFrames(new Error().stack ?? '');
    const current = phase;
    if (current) {
      const where = frames[0] ? ` at ${frames[0]}` : '';
      current.exit ??= new ModelError(`${what(current)} called process.exit(${code ?? ''})${where} ${during(current)}`, {
        component: current.file,
        hint: `${current.role} modules report failures by throwing an Error (Kron then stops with it); they never end the process`,
      });
      throw current.exit;
    }
    if (frames[0]) strayExit = `process.exit(${code ?? ''}) was called at ${frames[0]}`;
    return original(code);
  } as typeof process.exit;
}

/** the command's own end of the process before it finished (an interrupt's handler, cli/interrupt.ts): its code, nothing to explain */
let commanded = false;
export function exitAsCommanded(code: number): never {
  commanded = true;
  return realExit(code);
}

/**
 * bin/kron.mjs, when the process ends before the command finished: why
 * (a module's process.exit, an import that never settled) on stderr; the
 * exit code to end with (1).
 */
export function explainEarlyExit(code: number): number {
  if (commanded) return code;
  if (explained) return 1;
  const p = phase;
  // the watchdog stopped a busy task and its report went with it
  const kind = watchdog ? Atomics.load(watchdog.slots, SLOT.stopped) : 0;
  const stopped = kind === 1 || kind === 2 ? overdueNow({ kind, id: Atomics.load(watchdog!.slots, SLOT.stoppedId) }) : undefined;
  const error =
    stopped ??
    (strayExit
      ? new ModelError(`${strayExit} before the command finished (exit code ${code})`, {
          hint: 'model, controller and metric modules report failures by throwing an Error; they never end the process',
        })
      : p?.doing === 'imported'
        ? new ModelError(`${what(p)} did not finish importing: its top-level await never settled (nothing was left for it to wait for)`, {
            component: p.file,
            hint: 'a top-level await on a promise that is never resolved; resolve it, or build the model without awaiting it',
          })
        : new ModelError(`the command ended before it finished (exit code ${code}): a promise that never settled`, {
            component: p?.file,
            hint: p ? `while ${what(p)} was ${p.doing}` : 'please report it',
          }));
  process.stderr.write(`${error.describe()}\n`);
  return 1;
}

/** an exception of the user's code as a typed error naming the module; Kron's own errors (thrown by the builder) pass */
function userError(p: Phase, e: unknown): unknown {
  if (e instanceof KronError) return e;
  if (e instanceof Error && 'code' in e && typeof e.code === 'string' && /^ERR_(REQUIRE|MODULE_NOT_FOUND|UNKNOWN_FILE_EXTENSION)/.test(e.code)) return e; // the loader's: import-module.ts says them
  const syntax = syntaxError(p, e);
  if (syntax) return syntax;
  const thrown = e instanceof Error ? `${e.name}: ${e.message}` : `${typeof e === 'string' ? JSON.stringify(e) : String(e)} (not an Error)`;
  const frames = e instanceof Error ? userFrames(e.stack ?? '') : [];
  // an import or build: the top of their stack, as Node prints it; a call (a row of a sweep): one line
  const stack =
    p.doing === 'called'
      ? frames[0]
        ? ` (thrown at ${frames[0]})`
        : ''
      : frames
          .slice(0, 6)
          .map((f) => `\n    at ${f}`)
          .join('');
  return new ModelError(`${what(p)} threw an error ${during(p)}: ${thrown}${stack}`, {
    component: p.file,
    hint: `the error is the module's own${frames[0] ? `, thrown at ${frames[0]}` : ''}`,
  });
}

/**
 * A module TypeScript cannot read (tsx's esbuild refused it): the file,
 * line and column with the line and a caret, as a compiler prints them,
 * instead of esbuild's TransformError. The error reaches here from tsx's
 * loader thread as a message only ("Transform failed with 1 error:\n
 * /a/b.ts:3:29: ERROR: Expected ")" but found ";""), so that is read.
 */
function syntaxError(p: Phase, e: unknown): ModelError | undefined {
  if (!(e instanceof Error) || e.name !== 'TransformError') return undefined;
  const m = /^Transform failed with (\d+) errors?:\n(.+?):(\d+):(\d+): ERROR: (.*)$/m.exec(e.message);
  if (!m) return undefined;
  const [, count, file, line, column, text] = m;
  const near = relative(process.cwd(), file);
  const source = readLine(file, Number(line));
  const more = Number(count) > 1 ? ` (and ${Number(count) - 1} more)` : '';
  const shown = source === undefined ? '' : `\n    ${source}\n    ${' '.repeat(Number(column))}^`;
  return new ModelError(`${what(p)} has a syntax error at ${near.startsWith('..') ? file : near}:${line}:${Number(column) + 1}: ${text}${more}${shown}`, {
    component: p.file,
    hint: 'correct the code there (npx tsc --noEmit checks the whole module and its types)',
  });
}

/** line n (from 1) of a file, or undefined */
function readLine(file: string, n: number): string | undefined {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/)[n - 1];
  } catch {
    return undefined;
  }
}

const CALL = Symbol.for('kron.userCall');
let script: vm.Script | undefined;

/** runs call() under vm's timer; an endless loop throws ERR_SCRIPT_EXECUTION_TIMEOUT */
function withTimer<T>(call: () => T, limitMs: number): T {
  const g = globalThis as Record<symbol, unknown>;
  const previous = g[CALL];
  g[CALL] = call;
  try {
    script ??= new vm.Script('globalThis[Symbol.for("kron.userCall")]()', { filename: 'kron:user-call' });
    return script.runInThisContext({ timeout: limitMs }) as T;
  } finally {
    g[CALL] = previous;
  }
}

const isTimeout = (e: unknown) => e instanceof Error && 'code' in e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

// (error.stack) => "fn (file:line:col)" of each frame in the user's files, innermost first: not Node's (node:...),
// not Kron's, not a package's (node_modules), not the vm script that times a call; paths inside the current folder
// relative to it, as the user typed them
export function userFrames(stack: string): string[] {
  const out: string[] = [];
  for (const line of stack.split('\n')) {
    const m = /^\s+at (?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
    if (!m) continue;
    const [, fn, location, row, column] = m;
    const path = location.startsWith('file://') ? fileURLToPath(location) : location;
    if (!path.startsWith(sep) || path.startsWith(KRON_CODE + sep) || path.startsWith(KRON_BIN) || path.includes(`${sep}node_modules${sep}`)) continue;
    const near = relative(process.cwd(), path);
    const shown = `${near.startsWith('..') ? path : near}:${row}:${column}`;
    out.push(fn ? `${fn} (${shown})` : shown);
  }
  return out;
}
