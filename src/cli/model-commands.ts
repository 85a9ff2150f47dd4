// `kron compile` and `kron simulate`: load a model module or a URDF robot,
// compile it with the shared options, then print the report or simulate.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.ts';
import { checkSeconds, setUserCodeLimits } from '../node/user-code.ts';
import type { Problem } from '../compile.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import type { TearOverride } from '../structure/plan.ts';
import {
  DEFAULT_ATOL,
  DEFAULT_RTOL,
  DEFAULT_STEP,
  type Integrator,
  INTEGRATORS,
  type SimulateOptions,
  checkSimulateOptions,
  integratorOf,
} from '../sim/simulate.ts';
import { FIXED_STEP } from '../sim/steppers/index.ts';
import type { Model } from '../model/index.ts';
import { type LoadedModel, loadController, openModel } from './load.ts';
import { PlanUnavailable, cachedCompile, loadCompiler, lookUp } from './cached-compile.ts';
import { formatReport, integrationLine, iterationLines } from './format.ts';
import type { IterateOptions } from '../structure/plan-types.ts';
import { expandStarts } from './start-values.ts';
import { type Io, terminal } from './io.ts';
import { progressBar } from './progress.ts';
import { writeOutput } from '../node/output-file.ts';
import { writeCSV, writeJSON } from './simulate-output.ts';
import { shipped } from '../node/package.ts';

export const MODEL_FLAGS = `model:
  <model.ts>         a model module (export default function build(p): Model), or
  <robot.urdf>       a URDF robot (root link fixed to the world; gravity 0,0,-9.80665;
                     meshes (STL, DAE, OBJ) found next to the file are drawn by the
                     viewer, others as placeholders)
  <robot.xml>        an MJCF (MuJoCo) robot: states are MuJoCo's qpos/qvel per joint
                     (j.q, j.qd; free j.r, j.Q, j.v, j.w); gravity from <option>

compile options:
  --mode torn|relaxed|auto  torn: loops torn from the residue() hints (M(q) qdd = h);
                     relaxed: relax() marks honoured too, loops eliminated in relaxed BLT order;
                     auto (default): the one with fewer operations per evaluation kept (both
                     compiled unless the torn form's solves alone cost more than the relaxed form)
  --no-cache         compile even if the compile cache holds this model (docs/guide/command-line.md, Compile cache)
  --set name=value   a parameter the model module declares (e.g. n=16), or a model
                     parameter by hierarchical name (e.g. s1.J=2, link2.m=20); repeatable
  --start name=value the start value of a state by hierarchical name (e.g. j1.q=0.5,
                     j1.qd=-1; URDF joints too), or a first guess of an unknown; repeatable
  --gravity gx,gy,gz the world's gravity of a mechanism (default 0,-9.80665,0 for model
                     modules, 0,0,-9.80665 for URDF)
  --floating         a URDF robot's root link on a free joint <root link>_free (states
                     r, Q, v, w as MuJoCo's freejoint): the robot moves in the world
  --keyframe name    an MJCF robot starts from its <keyframe> key of that name (an
                     unnamed key by its number): qpos, qvel and the actuators' ctrl
  --keep-parameters  keep parameters symbolic in the generated code (default: folded)
  --tear v[:e]       "variable tear" (tearing paper): add tearing variable v with the
                     residue equation matched to variable e (default e = v); "v:" adds
                     the variable only, ":e" the equation only; --untear removes them
  --emit out.js      write the generated code as a readable ES module
  --target js|wasm   js (default): the generated JavaScript; wasm: its straight-line
                     functions as WebAssembly, the rest (solves, Newton) JavaScript, on one
                     memory; the same values bit for bit (checked), 0.7-0.85x the time of the
                     relaxed form, slower for the torn form (docs/performance/benchmarks.md, WebAssembly target)
  --torn-substitution  torn nonlinear loops (not kinematic closures) try successive
                     substitution before Newton (tearing paper); stderr of simulate
                     gives sweeps per evaluation and Newton's fallbacks
  --relax-iterate    the relaxing iteration (implies --mode relaxed): a relaxed loop's
                     remainder (the nodal equations of a circuit) is solved by Gauss-Seidel
                     sweeps, warm-started from the last evaluation, not eliminated
  --iterate-tol r    converged when no iteration variable moves by more than
                     r * max(nominal, |value|) in a sweep (default 1e-10; implies --relax-iterate)
  --iterate-max-sweeps k
                     sweeps before the run fails naming the slowest variables (default 500)
  --iterate-omega w  successive over-relaxation factor in (0, 2) (default 1: Gauss-Seidel)
  --import-timeout s the time a model, controller or metric module may take to import, and a
                     model to build, in seconds (default 60; also KRON_IMPORT_TIMEOUT): an
                     endless loop or a top-level await that never ends is then an error naming it`;

export const COMPILE_HELP = `usage: kron compile <model.ts|robot.urdf> [options]

Compiles the model and prints the compile report: equations, states, algebraic
loops and how they were torn or relaxed, operations per evaluation.

${MODEL_FLAGS}
  --json             print the report as JSON (fields are only ever added)
  --inverse          compile inverse dynamics: the state joints' q, qd, qdd are inputs
                     and their forces tau (j1.tau, ...) the outputs; the report's ops
                     are those of one inverse-dynamics evaluation

examples:
  kron compile mechanisms/drivetrain.ts --json
  kron compile mechanisms/drivetrain.ts --mode relaxed --keep-parameters
  kron compile mechanisms/drivetrain.ts --set i=5 --emit /tmp/drivetrain.js
  kron compile mechanisms/chain.ts --set n=8 --mode relaxed
  kron compile mechanisms/puma560.urdf
  kron compile mechanisms/puma560.ts --inverse --json
`;

export const SIMULATE_HELP = `usage: kron simulate <model.ts|robot.urdf> [options]

Compiles the model and integrates it from t = 0 to --stop, sampling every
--interval; writes time and the chosen signals as CSV to stdout or --out.

${MODEL_FLAGS}

simulation options:
  --stop T           end time in s, >= 0 (default 1)
  --step h           auto, rk4: the step in s, > 0 (default 1e-3); adaptive, radau: the first step tried
  --interval dt      sampling interval in s, a multiple of --step (default: every step)
  --integrator auto|rk4|adaptive|radau
                     auto (default): rk4 at --step while that step is stable for the model,
                     radau from the first point where it is not (said on stderr); rk4:
                     fixed-step classical Runge-Kutta, an unstable step stops the run;
                     adaptive: Cash-Karp RK45 with error control, steps chosen between
                     samples; radau: implicit Radau IIA of order 5 with error control
                     (Hairer & Wanner's RADAU5), for stiff models (stiff springs, high gains)
  --rtol r, --atol a adaptive, radau (and auto once it uses radau): per-state error within
                     a + r |x| (default 1e-6, 1e-9)
  --unsafe-step      rk4: run even where the step is beyond RK4's stability region for a
                     mode of the model (checked at the start and every 1000 steps; without
                     it such a run stops with an error naming the mode and a step that works)
  --min-event-interval s, --zeno-count n
                     models with events (when(), hard joint limits): events of one indicator
                     closer than s seconds n times in a row stop the run with an error, a
                     Zeno point (default 1e-6, 10); the run prints how often each event happened
  --stats            print what the integration cost on stderr: the integrator, its accepted and
                     rejected steps, evaluations of the derivatives, Jacobians and LUs
  --signals a,b,...  columns to record (default: the states), e.g. 'j1.q,der(j1.qd)'
  --out file         write to file: JSON ({ model, time, signals }) if it ends in .json,
                     CSV otherwise (default: CSV on stdout); written to a temporary file
                     renamed when complete: a failed or interrupted run, or a full disk,
                     leaves the previous file. CSV streams in constant memory
  --controller c.ts  a controller module: its default export (t, state, inputs) => void is
                     called at every evaluation of the derivatives (each RK4 stage) with the
                     time and the states by name, and sets inputs by name
  --call-timeout s   the time one call of the controller may take, in seconds (default 10;
                     also KRON_CALL_TIMEOUT)
  --contact          contact between the mechanism's collision geometry (bodies' collision,
                     Mechanism.ground): compliant normal force and regularised friction,
                     written into each body's contact_f[1..3], contact_t[1..3] inputs at every
                     evaluation (off by default: without it those inputs stay 0); per-pair
                     signals by --signals: contact.<geomA>__<geomB>.fn, .ft[1..2], .p[1..3],
                     .f[1..3] (0 while apart), contact.<pair>.* or contact.* for all pairs;
                     a JSON --out records contact.* (the viewer's force arrows) with the
                     states unless --signals is given (then only the signals it names)
  --self-contact     with --contact: a URDF robot's links touch each other, but adjacent ones
A simulation that runs longer than a second shows a progress bar on a terminal.

examples:
  kron simulate mechanisms/drivetrain.ts --stop 1 --out /tmp/d.csv
  kron simulate mechanisms/drivetrain.ts --set i=5 --signals 's2.w,der(s2.w)' --stop 0.01
  kron simulate mechanisms/puma560.ts --stop 2 --interval 0.01 --out /tmp/p.json
  kron simulate mechanisms/puma560.urdf --stop 2 --integrator adaptive --rtol 1e-8 --out /tmp/u.csv
  kron simulate test/sim/fixtures/arm3.ts --stop 3 --integrator radau --signals j1.q,pd1.tau
  kron simulate mechanisms/pendulum.ts --gravity 0,0,-9.80665 --signals 'j1.q,j1.qd'
  kron simulate mechanisms/puma560.urdf --start j2.q=0.5 --stop 1 --interval 0.01
  kron simulate mechanisms/puma560-pd.ts --stop 5 --signals 'pd2.e,j2.tau'
  kron simulate mechanisms/puma560.ts --controller mechanisms/controllers/puma560-pd.ts --stop 5
  kron simulate mechanisms/sphere-on-plane.ts --contact --stop 0.5 --step 1e-5 --integrator rk4 --interval 0.1 --signals 'j.v[1],j.w[3]'
`;

/** options of both commands: compile + simulate share the model and compile options */
export const COMPILE_OPTIONS = {
  mode: { type: 'string', default: 'auto' },
  set: { type: 'string', multiple: true },
  start: { type: 'string', multiple: true },
  tear: { type: 'string', multiple: true },
  untear: { type: 'string', multiple: true },
  'keep-parameters': { type: 'boolean', default: false },
  'no-cache': { type: 'boolean', default: false },
  gravity: { type: 'string' },
  floating: { type: 'boolean', default: false },
  keyframe: { type: 'string' },
  emit: { type: 'string' },
  'relax-iterate': { type: 'boolean', default: false },
  'torn-substitution': { type: 'boolean', default: false },
  target: { type: 'string', default: 'js' },
  'iterate-tol': { type: 'string' },
  'iterate-max-sweeps': { type: 'string' },
  'iterate-omega': { type: 'string' },
  'import-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

const REPORT_OPTIONS = {
  json: { type: 'boolean', default: false },
  inverse: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

export const SIMULATE_OPTIONS = {
  stop: { type: 'string', default: '1' },
  step: { type: 'string', default: String(DEFAULT_STEP) },
  interval: { type: 'string' },
  integrator: { type: 'string' },
  rtol: { type: 'string' },
  atol: { type: 'string' },
  signals: { type: 'string' },
  out: { type: 'string' },
  controller: { type: 'string' },
  'call-timeout': { type: 'string' },
  contact: { type: 'boolean', default: false },
  'self-contact': { type: 'boolean', default: false },
  'unsafe-step': { type: 'boolean', default: false },
  'min-event-interval': { type: 'string' },
  'zeno-count': { type: 'string' },
  stats: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

const OPTIONS = { ...COMPILE_OPTIONS, ...REPORT_OPTIONS, ...SIMULATE_OPTIONS } satisfies ParseArgsConfig['options'];

/**
 * Both commands accept all options, as they always have; an option of the
 * other command has no effect and gets a warning.
 */
function parse(args: string[], command: 'compile' | 'simulate', io: Io) {
  const { values, positionals, tokens } = parseArgs({ args: negativeValues(args), options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  const own = new Set(Object.keys(command === 'compile' ? { ...COMPILE_OPTIONS, ...REPORT_OPTIONS } : { ...COMPILE_OPTIONS, ...SIMULATE_OPTIONS }));
  const ignored = [...new Set(tokens.filter((t) => t.kind === 'option' && !own.has(t.name)).map((t) => `--${(t as { name: string }).name}`))];
  for (const flag of ignored) io.stderr.write(`warning: ${flag} has no effect on kron ${command}\n`);
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError(`kron ${command} needs a model file`, { hint: shipped(`kron ${command} mechanisms/drivetrain.ts; kron ${command} --help`) });
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`, { hint: `kron ${command} takes one model file; kron ${command} --help` });
  checkMode(values.mode);
  return { values, file };
}

type Values = ReturnType<typeof parse>['values'];

/** --mode of compile, simulate and linearize */
export function checkMode(mode: string): void {
  if (mode !== 'torn' && mode !== 'relaxed' && mode !== 'auto')
    throw new UsageError(`--mode must be torn, relaxed or auto, got "${mode}"`, { hint: 'auto compiles both forms and keeps the one with fewer operations' });
}

/** `--stop -1` as `--stop=-1`: parseArgs would take a value starting with a dash for an option */
export function negativeValues(args: string[], options: ParseArgsConfig['options'] = OPTIONS): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i].startsWith('--') ? args[i].slice(2) : undefined;
    const option = flag && options && Object.hasOwn(options, flag) ? options[flag] : undefined;
    if (option?.type === 'string' && /^-[\d.]/.test(args[i + 1] ?? '')) out.push(`${args[i]}=${args[++i]}`);
    else out.push(args[i]);
  }
  return out;
}

export function number(flag: string, text: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new UsageError(`${flag} expects a number, got "${text}"`);
  return v;
}

/** --set and --start: name=value, repeatable */
export function parseSets(sets: string[], flag = '--set', example = 'n=16'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of sets) {
    const i = s.indexOf('=');
    if (i <= 0) throw new UsageError(`${flag} expects name=value, got "${s}"`, { hint: `e.g. ${flag} ${example}` });
    out[s.slice(0, i)] = number(`${flag} ${s.slice(0, i)}`, s.slice(i + 1));
  }
  return out;
}

/** --gravity gx,gy,gz: the world's gravity parameters world.g[1..3] */
function parseGravity(text: string, model: Model, Mechanism: typeof import('../library/multibody/mechanism.ts').Mechanism): Record<string, number> {
  const g = text.split(',').map((x) => number('--gravity', x));
  if (g.length !== 3) throw new UsageError(`--gravity expects gx,gy,gz, got "${text}"`, { hint: 'e.g. --gravity 0,0,-9.80665' });
  if (!(model instanceof Mechanism)) throw new UsageError('--gravity applies to mechanisms (models built with Mechanism, which have a world)');
  return { 'world.g[1]': g[0], 'world.g[2]': g[1], 'world.g[3]': g[2] };
}

function parseTear(spec: string, remove: boolean): TearOverride {
  const [variable, equation] = spec.includes(':') ? spec.split(':') : [spec, undefined];
  if (!variable && !equation) throw new UsageError(`--tear expects var[:eqvar], got "${spec}"`);
  return { variable: variable || undefined, equation: equation ?? undefined, remove };
}

/** the default integrator went on with radau: said aloud, with where, why and the tolerances */
function switchNote(switched: { time: number; reason: string }, options: SimulateOptions): string {
  const [rtol, atol] = [options.rtol ?? DEFAULT_RTOL, options.atol ?? DEFAULT_ATOL].map((v) => v.toExponential());
  return `note: ${switched.reason}; from time ${switched.time} the run went on with radau, the stiff solver (rtol ${rtol}, atol ${atol}); --integrator radau uses it throughout, --integrator rk4 stops there instead`;
}

/** --unsafe-step is said aloud: the answer it lets through may be wrong */
export function warnUnsafeStep(options: SimulateOptions, io: Io): void {
  if (options.unsafeStep)
    io.stderr.write('warning: --unsafe-step: RK4 runs even where its step is unstable for a mode of the model; the answer may be wrong without another word\n');
}

/** simulate's options from the flags, checked before anything is compiled */
export function simulateOptions(
  values: Pick<Values, 'stop' | 'step' | 'interval' | 'integrator' | 'rtol' | 'atol' | 'signals' | 'unsafe-step'> &
    Partial<Pick<Values, 'min-event-interval' | 'zeno-count'>>,
): SimulateOptions {
  const named = values.integrator as Integrator | undefined;
  // no --integrator: auto (rk4 with --unsafe-step)
  const integrator = integratorOf({ integrator: named, unsafeStep: values['unsafe-step'] });
  if (!INTEGRATORS.includes(integrator))
    throw new UsageError(`--integrator must be ${INTEGRATORS.slice(0, -1).join(', ')} or ${INTEGRATORS.at(-1)}, got "${values.integrator}"`, {
      hint: 'e.g. --integrator adaptive --rtol 1e-8',
    });
  const tolerance = (flag: 'rtol' | 'atol') => {
    const text = values[flag];
    if (text === undefined) return undefined;
    if (FIXED_STEP.includes(integrator))
      throw new UsageError(`--${flag} applies to the error-controlled integrators (adaptive, radau; auto where it goes on with radau)`, {
        hint: `add --integrator adaptive, or --integrator radau for a stiff model`,
      });
    return number(`--${flag}`, text);
  };
  const options: SimulateOptions = {
    stop: number('--stop', values.stop),
    step: number('--step', values.step),
    interval: values.interval === undefined ? undefined : number('--interval', values.interval),
    ...(named && { integrator }),
    rtol: tolerance('rtol'),
    atol: tolerance('atol'),
    signals: values.signals ? values.signals.split(',').map((s) => s.trim()) : undefined,
    ...(values['unsafe-step'] && { unsafeStep: true }),
    ...(values['min-event-interval'] !== undefined && { minEventInterval: number('--min-event-interval', values['min-event-interval']) }),
    ...(values['zeno-count'] !== undefined && { zenoCount: number('--zeno-count', values['zeno-count']) }),
  };
  if (values['unsafe-step'] && integrator !== 'rk4')
    throw new UsageError('--unsafe-step applies to the rk4 integrator', {
      hint: `the ${integrator} integrator ${integrator === 'auto' ? "goes on with radau where RK4's step is unstable" : 'controls its own steps'}: drop --unsafe-step`,
    });
  checkSimulateOptions(options);
  return options;
}

/**
 * --import-timeout and --call-timeout (node/user-code.ts), before any module
 * is imported; the call limit also reaches the sweep's threads, which read
 * KRON_CALL_TIMEOUT (a thread starts with a copy of the environment).
 */
export function applyTimeouts(values: { 'import-timeout'?: string; 'call-timeout'?: string }): void {
  const importS = values['import-timeout'],
    callS = values['call-timeout'];
  if (importS !== undefined) setUserCodeLimits({ importMs: checkSeconds('--import-timeout', importS) * 1000 });
  if (callS !== undefined) {
    setUserCodeLimits({ callMs: checkSeconds('--call-timeout', callS) * 1000 });
    process.env.KRON_CALL_TIMEOUT = callS;
  }
}

/** the compile flags' values, as parseArgs gives them (kron compile, simulate and linearize share them) */
export type CompileValues = Pick<
  Values,
  'mode' | 'set' | 'start' | 'tear' | 'untear' | 'keep-parameters' | 'no-cache' | 'torn-substitution' | 'target' | 'gravity' | 'emit'
> &
  Partial<Pick<Values, 'relax-iterate' | 'iterate-tol' | 'iterate-max-sweeps' | 'iterate-omega' | 'import-timeout' | 'floating' | 'keyframe'>> &
  Partial<Pick<Values, 'contact' | 'self-contact'>>;

/** --relax-iterate and its settings (each of which implies it); undefined without any */
function relaxIterate(values: CompileValues): Partial<IterateOptions> | undefined {
  const tol = values['iterate-tol'],
    sweeps = values['iterate-max-sweeps'],
    omega = values['iterate-omega'];
  if (!values['relax-iterate'] && tol === undefined && sweeps === undefined && omega === undefined) return undefined;
  return {
    ...(tol !== undefined && { tol: number('--iterate-tol', tol) }),
    ...(sweeps !== undefined && { maxSweeps: number('--iterate-max-sweeps', sweeps) }),
    ...(omega !== undefined && { omega: number('--iterate-omega', omega) }),
  };
}

/** how compileFrom loads and compiles */
export interface CompileFromOptions {
  /** import the model module even on a cache hit (the caller needs the model, or the plan for more than a diagnosis); default true */
  eager?: boolean;
  /** print the loader's and the compile's warnings (default true) */
  warn?: boolean;
  /** symbolic parameters wanted, decided on the built model (kron sweep): the compile cache is not used then */
  keepParameters?: (model: Model) => boolean;
  /** warn when the compile cache could store nothing (default true; kron compile's report says it) */
  cacheNotes?: boolean;
}

/**
 * load, override, compile (through the compile cache unless --no-cache);
 * warnings to stderr. A cache hit imports the model module only when eager;
 * otherwise a diagnosis that needs the plan throws PlanUnavailable.
 */
export async function compileFrom(
  file: string,
  values: CompileValues,
  io: Io,
  problem: Problem = 'forward',
  how: CompileFromOptions = {},
): Promise<{ model: Model; compiled: CompiledModel }> {
  const { eager = true, warn = true, keepParameters } = how;
  applyTimeouts(values);
  const sets = parseSets(values.set ?? []);
  const tear = [...(values.tear ?? []).map((s) => parseTear(s, false)), ...(values.untear ?? []).map((s) => parseTear(s, true))];
  const start = parseSets(expandStarts(values.start ?? []), '--start', 'j1.q=0.5');
  const iterate = relaxIterate(values);
  // --relax-iterate implies --mode relaxed, whatever --mode says (as when torn was the default: torn ignores the relax() marks it iterates on)
  const mode = iterate && values.mode === 'torn' ? undefined : (values.mode as 'torn' | 'relaxed' | 'auto');
  const options = {
    mode,
    problem,
    start,
    tear,
    foldParameters: !values['keep-parameters'],
    relaxIterate: iterate,
    tornSubstitution: values['torn-substitution'],
    target: values.target as 'js' | 'wasm',
  };
  const floating = values.floating ?? false,
    keyframe = values.keyframe,
    contact = values.contact ?? false,
    selfContact = values['self-contact'] ?? false;
  if (selfContact && !contact)
    throw new UsageError('--self-contact needs --contact', { hint: 'give --contact --self-contact (a URDF robot whose links touch each other)' });
  // the key's fields as before when not floating and without a keyframe: entries stored before those flags existed stay found
  const cache = lookUp(
    file,
    { sets, gravity: values.gravity ?? null, ...(floating && { floating }), ...(keyframe !== undefined && { keyframe }), ...(contact && { contact }), options },
    !values['no-cache'] && !keepParameters,
  );
  // said once: the entry compiled now replaces it
  if (cache.broken) io.stderr.write(`warning: compile cache: ${cache.broken}; compiled again, and the entry replaced\n`);
  const open =
    !cache.compiled || eager
      ? await openModel(file, sets, { record: cache.modelKey !== undefined && !cache.compiled, floating, keyframe, contact, selfContact })
      : undefined;
  // the compiler and the multibody library with the model only (a model module imports them anyway)
  const compiler = open ? await loadCompiler() : undefined;
  const library = open ? await import('../library/multibody/mechanism.ts') : undefined;
  let loaded: LoadedModel | undefined;
  const load = () => {
    if (loaded) return loaded;
    if (!open || !library) throw new PlanUnavailable(`${file} was run from the compile cache without its module`);
    const l = open();
    if (values.gravity !== undefined) Object.assign(l.overrides, parseGravity(values.gravity, l.model, library.Mechanism));
    return (loaded = l);
  };
  if (keepParameters?.(load().model)) options.foldParameters = false;
  const { compiled, warnings } = cachedCompile(cache, load, options, compiler);
  const notStored =
    compiled.report.cache?.stored === false && how.cacheNotes !== false ? [`compile cache: nothing stored, because ${compiled.report.cache.reason}`] : [];
  for (const w of warn ? [...warnings, ...notStored, ...compiled.report.diagnostics] : []) io.stderr.write(`warning: ${w}\n`);
  if (values.emit) writeOutput(values.emit, compiled.source());
  return {
    get model() {
      return load().model;
    },
    compiled,
  };
}

export async function runCompile(args: string[], io: Io): Promise<void> {
  const { values, file } = parse(args, 'compile', io);
  const { compiled } = await compileFrom(file, values, io, values.inverse ? 'inverse' : 'forward', { eager: false, cacheNotes: false });
  io.stdout.write(values.json ? JSON.stringify(compiled.report, null, 2) + '\n' : formatReport(compiled.report) + '\n');
}

/** --contact: the scene of a mechanism's collision geometry (src/contact); a model that is no mechanism is a usage error */
async function contactScene(model: Model, file: string, io: Io): Promise<SimulateOptions['contact']> {
  const [{ Mechanism }, { ContactScene }] = await Promise.all([import('../library/multibody/mechanism.ts'), import('../contact/scene.ts')]);
  if (!(model instanceof Mechanism))
    throw new UsageError(`--contact applies to mechanisms (models built with Mechanism); ${file} is not one`, {
      hint: 'give bodies collision geometry (BodyOptions.collision) and a ground (Mechanism.ground) in a mechanism',
    });
  const scene = ContactScene.of(model);
  if (scene.geometries.length === 0)
    io.stderr.write(`warning: --contact: ${file} has no collision geometry (BodyOptions.collision, Mechanism.ground), so no contact acts\n`);
  return scene;
}

export async function runSimulate(args: string[], io: Io): Promise<void> {
  try {
    await simulateCommand(args, io, false);
  } catch (e) {
    // a diagnosis of a model run from the compile cache: the same run again, with the model loaded (its warnings said)
    if (!(e instanceof PlanUnavailable)) throw e;
    await simulateCommand(args, io, true);
  }
}

/** eager: the retry after a PlanUnavailable, the model module imported and the warnings already said */
async function simulateCommand(args: string[], io: Io, eager: boolean): Promise<void> {
  const { values, file } = parse(args, 'simulate', io);
  const options = simulateOptions(values);
  warnUnsafeStep(options, io);
  applyTimeouts(values);
  if (values.controller !== undefined) {
    options.controller = await loadController(values.controller);
    options.controllerName = values.controller;
  }
  const json = values.out?.endsWith('.json');
  const loaded = await compileFrom(file, values, io, 'forward', { eager: eager || json === true || values.contact, warn: !eager });
  const { compiled } = loaded;
  if (values.contact) options.contact = await contactScene(loaded.model, file, io);
  const bar = progressBar(terminal(io));
  let written;
  try {
    const run = { ...options, onProgress: (f: number) => bar.update(f) };
    // JSON results of mechanisms also carry the scene and poses for `kron view`
    written = json ? await writeJSON(loaded.model, compiled, run, values.out!, file, io) : await writeCSV(compiled, run, values.out, io);
  } finally {
    bar.stop();
  }
  if (values.out) io.stderr.write(`wrote ${written.samples} samples of ${written.signals} signals to ${values.out}\n`);
  for (const line of iterationLines(written.stats.iterations, written.stats.substitutions)) io.stderr.write(`${line}\n`);
  const integration = written.stats.integration;
  if (integration?.switched) io.stderr.write(`${switchNote(integration.switched, options)}\n`);
  if (values.stats && integration) io.stderr.write(`${integrationLine(integration)}\n`);
  if (written.stats.events) io.stderr.write(`events: ${written.stats.events.map((e) => `${e.name} ${e.count}`).join(', ')}\n`);
}
