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
import { PLASTIC_START } from '../sim/steppers/auto.ts';
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
import { FRICTION_LAWS, type FrictionLaw } from '../contact/law.ts';
import { didYouMean } from '../suggest.ts';

export { COMPILE_HELP, MODEL_FLAGS, SIMULATE_HELP } from './model-help.ts';

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
  friction: { type: 'string' },
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
  if (switched.reason === PLASTIC_START)
    return `note: ${switched.reason}; the run used radau, the stiff solver (rtol ${rtol}, atol ${atol}), throughout; --integrator rk4 runs RK4 at --step instead`;
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

/** --friction: the contact's friction law (undefined: the default); a UsageError without --contact or for a law not known */
export function frictionLaw(values: Partial<Pick<Values, 'friction' | 'contact'>>): FrictionLaw | undefined {
  const law = values.friction;
  if (law === undefined) return undefined;
  if (!values.contact) throw new UsageError('--friction needs --contact', { hint: `give --contact --friction ${law} (the friction law of the contacts)` });
  if (!(FRICTION_LAWS as readonly string[]).includes(law))
    throw new UsageError(`--friction must be ${FRICTION_LAWS.join(' or ')}, got "${law}"`, {
      hint: `${didYouMean(law, FRICTION_LAWS)}regularised (the default): Coulomb with creep below 1e-4 m/s; elasto-plastic: sticks without creep (with --integrator radau)`,
    });
  return law as FrictionLaw;
}

/** --contact: the scene of a mechanism's collision geometry (src/contact) with the friction law asked for; a model that is no mechanism is a usage error */
async function contactScene(model: Model, file: string, io: Io, friction: FrictionLaw | undefined): Promise<SimulateOptions['contact']> {
  const [{ Mechanism }, { ContactScene }] = await Promise.all([import('../library/multibody/mechanism.ts'), import('../contact/scene.ts')]);
  if (!(model instanceof Mechanism))
    throw new UsageError(`--contact applies to mechanisms (models built with Mechanism); ${file} is not one`, {
      hint: 'give bodies collision geometry (BodyOptions.collision) and a ground (Mechanism.ground) in a mechanism',
    });
  const scene = ContactScene.of(model, { friction });
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
  const friction = frictionLaw(values);
  warnUnsafeStep(options, io);
  applyTimeouts(values);
  if (values.controller !== undefined) {
    options.controller = await loadController(values.controller);
    options.controllerName = values.controller;
  }
  const json = values.out?.endsWith('.json');
  const loaded = await compileFrom(file, values, io, 'forward', { eager: eager || json === true || values.contact, warn: !eager });
  const { compiled } = loaded;
  if (values.contact) options.contact = await contactScene(loaded.model, file, io, friction);
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
