// Loading a model module: a TypeScript file whose default export builds a
// Model from parameters, with optional `export const parameters = {...}`
// defaults. `--set` keys that the module declares reach the builder; other
// keys set model parameters by hierarchical name (e.g. s1.J=2). A .urdf file
// is read as a robot description (src/io/urdf.ts); all its --set keys are
// model parameters (e.g. link2.m=20). A .xml file is read as an MJCF robot
// (MuJoCo's format, src/io/mjcf.ts), likewise.
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { KronError, ModelError, UsageError } from '../errors.ts';
import { type Component, Model, elaborate } from '../model/index.ts';
import { importUserModule, prepareLoader } from '../node/import-module.ts';
import type { Reads } from '../node/reads.ts';
import { armWatchdog, callMeter, userCall, userCodeLimits, userFrames } from '../node/user-code.ts';
import type { Controller } from '../sim/controller.ts';
import { didYouMean } from '../suggest.ts';
import { shipped } from '../node/package.ts';

export interface LoadedModel {
  model: Model;
  /** --set values that are not builder parameters: model parameters by name */
  overrides: Record<string, number>;
  /** what the loader read but does not model (URDF), for the user to see */
  warnings: string[];
  /** opened with `record`: the files, variables and arguments the module read while imported and built (node/reads.ts) */
  reads?: Reads;
}

export interface OpenOptions {
  /** observe what the module reads while it is imported and built, for the compile cache */
  record?: boolean;
  /** a URDF robot's root link on a free joint (--floating); a model module builds its own root */
  floating?: boolean;
  /** an MJCF robot's start state from its <keyframe> key of this name (--keyframe) */
  keyframe?: string;
  /** an MJCF robot's geoms that may collide as collision geometry, its planes as grounds; a URDF robot's <collision> elements and a ground plane (--contact) */
  contact?: boolean;
  /** with contact, a URDF robot's links touch each other too, but for adjacent links (--self-contact) */
  selfContact?: boolean;
}

export async function loadModel(file: string, sets: Record<string, number>): Promise<LoadedModel> {
  return (await openModel(file, sets))();
}

/**
 * What each model module read while it was imported, the first time in this
 * process: importing it again runs none of its top-level code, so reads
 * nothing. (A module that a program imported itself before is not seen; the
 * command line imports each once.)
 */
const importReads = new Map<string, Reads>();

/**
 * The model file read (a module imported, a URDF parsed), and a function
 * that builds the model from it: a run from the compile cache builds the
 * model only when something needs it.
 */
export async function openModel(file: string, sets: Record<string, number>, options: OpenOptions = {}): Promise<() => LoadedModel> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new UsageError(`model file ${file} not found`, {
      hint: shipped('give the path of a model module or a URDF robot, e.g. mechanisms/drivetrain.ts or mechanisms/puma560.urdf'),
    });
  }
  const urdf = extname(path).toLowerCase() === '.urdf';
  const mjcf = extname(path).toLowerCase() === '.xml';
  if (options.floating && !urdf) {
    throw new UsageError(`--floating is for URDF robots, and ${file} is ${mjcf ? 'an MJCF robot' : 'a model module'}`, {
      hint: mjcf
        ? 'an MJCF robot floats when its root body has a <freejoint/>'
        : "a model module gives its root a free joint itself: m.free('base') between m.world.frame_b and the root body",
    });
  }
  if (options.selfContact && !(urdf && options.contact)) {
    throw new UsageError(
      `--self-contact is for URDF robots with --contact, and ${file} is ${urdf ? 'run without --contact' : mjcf ? 'an MJCF robot' : 'a model module'}`,
      {
        hint: urdf
          ? 'give --contact --self-contact'
          : mjcf
            ? 'an MJCF robot touches itself as its file says (contype, conaffinity, <contact><exclude>, <pair>)'
            : 'a model module sets contype/conaffinity on its colliders',
      },
    );
  }
  if (options.keyframe !== undefined && !mjcf) {
    throw new UsageError(`--keyframe is for MJCF robots, and ${file} is ${urdf ? 'a URDF robot' : 'a model module'}`, {
      hint: 'give start values with --start name=value (e.g. --start j1.q=0.5)',
    });
  }
  if (mjcf) {
    const { loadMjcf } = await import('../node/mjcf-file.ts');
    return () => {
      const { mechanism, warnings, included } = loadMjcf(path, { keyframe: options.keyframe, contact: options.contact });
      checkOverrides(mechanism, sets, {});
      // the MJCF's own text is in the cache key, its included files are reads
      return { model: mechanism, overrides: { ...sets }, warnings, reads: { files: included, env: {} } };
    };
  }
  if (urdf) {
    // the XML parser only for a URDF: a model module's run should not pay for loading it
    const { loadUrdf } = await import('../node/urdf-file.ts');
    return () => {
      const { mechanism, warnings } = loadUrdf(path, { floating: options.floating, contact: options.contact, selfContact: options.selfContact });
      checkOverrides(mechanism, sets, {});
      // the URDF's own text is in the cache key; its meshes are drawn, not compiled
      return { model: mechanism, overrides: { ...sets }, warnings, reads: { files: {}, env: {} } };
    };
  }
  // the first import of a module is always observed: a later one with `record` runs none of its top-level code
  const first = !importReads.has(path);
  await prepareLoader(path); // Kron's loader is not the module's doing: in place before the reads are observed
  const { observeReads } = first || options.record ? await import('../node/reads.ts') : { observeReads: undefined };
  const watching = first ? observeReads?.() : undefined;
  let mod: { default?: unknown; parameters?: Record<string, number> };
  try {
    mod = (await importUserModule('model', file)) as typeof mod;
  } finally {
    if (watching) importReads.set(path, watching.stop());
  }
  if (typeof mod.default !== 'function') {
    throw new ModelError(`model module ${file} has no default export that builds a model`, {
      hint: 'export default function build(p) { const m = new Model("name"); ...; return m; }',
    });
  }
  const build = mod.default as (p: Record<string, number>) => unknown;
  const declared = mod.parameters ?? {};
  const imported = importReads.get(path)!;
  const observe = options.record ? observeReads : undefined;
  return () => {
    const builderParams: Record<string, number> = {};
    const overrides: Record<string, number> = {};
    for (const [k, v] of Object.entries(sets)) (k in declared ? builderParams : overrides)[k] = v;
    const watchingBuild = observe?.();
    let model: unknown, built: Reads | undefined;
    try {
      model = userCall('model', file, 'built', () => build({ ...declared, ...builderParams }), userCodeLimits().importMs);
    } finally {
      built = watchingBuild?.stop();
    }
    if (!(model instanceof Model)) {
      throw new ModelError(`the default export of ${file} did not return a Model`, { hint: 'return the Model you built' });
    }
    checkOverrides(model, overrides, declared);
    return { model, overrides, warnings: [], ...(built && { reads: mergeReads(imported, built) }) };
  };
}

/** the reads of the import and of the build together; a path or variable that read differently in the two is a change while observed */
function mergeReads(a: Reads, b: Reads): Reads {
  const clash = [
    ...Object.keys(b.files).filter((k) => k in a.files && a.files[k] !== b.files[k]),
    ...Object.keys(b.env).filter((k) => k in a.env && a.env[k] !== b.env[k]),
  ];
  const unsafe = a.unsafe ?? b.unsafe ?? (clash.length ? `${clash[0]} read differently when the module was imported and when it was built` : undefined);
  const argv = a.argv ?? b.argv;
  return { files: { ...a.files, ...b.files }, env: { ...a.env, ...b.env }, ...(argv && { argv }), ...(unsafe && { unsafe }) };
}

/**
 * A controller module: its default export is a controller for simulate()
 * (`(t, state, inputs) => void`, src/sim/controller.ts), e.g.
 * mechanisms/controllers/puma560-pd.ts.
 */
export async function loadController(file: string): Promise<Controller> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new UsageError(`controller file ${file} not found`, {
      hint: shipped('give the path of a controller module, e.g. --controller mechanisms/controllers/puma560-pd.ts'),
    });
  }
  const mod = (await importUserModule('controller', file)) as { default?: unknown };
  if (typeof mod.default !== 'function') {
    throw new ModelError(`controller module ${file} has no default export that is a controller function`, {
      component: file,
      hint: 'export default function controller(t, state, inputs) { inputs["j1.tau"] = -100 * state["j1.q"] - 20 * state["j1.qd"]; }',
    });
  }
  await armWatchdog();
  return meteredController(mod.default as Controller, file);
}

/**
 * The controller as simulate() calls it, each call bracketed for the
 * watchdog (a time limit per call) and process.exit (user-code.ts); an
 * exception of its own says where in its file it was thrown.
 */
function meteredController(user: Controller, file: string): Controller {
  let at = 0;
  const meter = callMeter('controller', file, () => `at time ${at}`);
  const controller: Controller = (t, state, inputs) => {
    at = t;
    meter.enter();
    try {
      user(t, state, inputs);
    } catch (e) {
      throw meter.exited() ?? (e instanceof Error && !(e instanceof KronError) ? thrownAt(e) : e);
    } finally {
      meter.leave();
    }
    const exited = meter.exited(); // process.exit in a try of the controller's own
    if (exited) throw exited;
  };
  return controller;
}

/** the controller's exception with the first frame in the user's files, for the message simulate() shows (sim/controller.ts) */
function thrownAt(e: Error): Error {
  const [frame] = userFrames(e.stack ?? '');
  return frame ? new Error(`${e.name === 'Error' ? '' : `${e.name}: `}${e.message} (thrown at ${frame})`, { cause: e }) : e;
}

/** every --set key is a declared builder parameter or a parameter of the model, or a ModelError that says which ones there are */
function checkOverrides(model: Model, overrides: Record<string, number>, declared: Record<string, number>): void {
  let known = parameterNames(model);
  // parameters a component declares when elaborated (joint limits and friction, a spherical joint's axes): elaborate, as compile() does
  if (Object.keys(overrides).some((name) => !known.includes(name))) {
    elaborate(model);
    known = parameterNames(model);
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (known.includes(name)) continue;
    if (isVariable(model, name)) {
      throw new ModelError(`${name} is a variable, not a parameter: --set cannot change it`, {
        variables: [name],
        hint: `give a state its start value with --start ${name}=${value}`,
      });
    }
    const all = [...Object.keys(declared), ...known];
    const component = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : '';
    const siblings = known.filter((k) => component && k.startsWith(`${component}.`));
    const listed = siblings.length
      ? `${component} has ${siblings.map((k) => k.slice(component.length + 1)).join(', ')}`
      : `${Object.keys(declared).length ? `the module declares ${Object.keys(declared).join(', ')}; ` : ''}the model has ${known.slice(0, 12).join(', ')}${known.length > 12 ? `, ... (${known.length} in all)` : ''}`;
    throw new ModelError(`no parameter named ${name}`, {
      variables: [name],
      hint: `${didYouMean(name, all)}${listed}`,
    });
  }
}

/** a variable of the model other than a parameter (a joint's q, qd...) */
function isVariable(root: Component, name: string): boolean {
  const visit = (c: Component): boolean => c.variables.some((v) => v.kind !== 'parameter' && v.name === name) || c.children.some(visit);
  return visit(root);
}

function parameterNames(root: Component): string[] {
  const out: string[] = [];
  const visit = (c: Component) => {
    for (const v of c.variables) if (v.kind === 'parameter') out.push(v.name);
    c.children.forEach(visit);
  };
  visit(root);
  return out;
}
