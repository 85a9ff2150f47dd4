// Loading a model module: a TypeScript file whose default export builds a
// Model from parameters, with optional `export const parameters = {...}`
// defaults. `--set` keys that the module declares reach the builder; other
// keys set model parameters by hierarchical name (e.g. s1.J=2). A .urdf file
// is read as a robot description (src/io/urdf.ts); all its --set keys are
// model parameters (e.g. link2.m=20).
import { existsSync } from 'node:fs';
import { extname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelError, UsageError } from '../errors.ts';
import { type Component, Model, elaborate } from '../model/index.ts';
import { importModule } from '../node/import-module.ts';
import type { Controller } from '../sim/controller.ts';

export interface LoadedModel {
  model: Model;
  /** --set values that are not builder parameters: model parameters by name */
  overrides: Record<string, number>;
  /** what the loader read but does not model (URDF), for the user to see */
  warnings: string[];
}

export async function loadModel(file: string, sets: Record<string, number>): Promise<LoadedModel> {
  return (await openModel(file, sets))();
}

/**
 * The model file read (a module imported, a URDF parsed), and a function
 * that builds the model from it: a run from the compile cache builds the
 * model only when something needs it.
 */
export async function openModel(file: string, sets: Record<string, number>): Promise<() => LoadedModel> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new UsageError(`model file ${file} not found`, { hint: 'give the path of a model module or a URDF robot, e.g. mechanisms/drivetrain.ts or mechanisms/puma560.urdf' });
  }
  if (extname(path).toLowerCase() === '.urdf') {
    // the XML parser only for a URDF: a model module's run should not pay for loading it
    const { loadUrdf } = await import('../node/urdf-file.ts');
    return () => {
      const { mechanism, warnings } = loadUrdf(path);
      checkOverrides(mechanism, sets, {});
      return { model: mechanism, overrides: { ...sets }, warnings };
    };
  }
  const mod = (await importEsModule(file, path, 'model')) as { default?: unknown; parameters?: Record<string, number> };
  if (typeof mod.default !== 'function') {
    throw new ModelError(`model module ${file} has no default export that builds a model`, {
      hint: 'export default function build(p) { const m = new Model("name"); ...; return m; }',
    });
  }
  const build = mod.default as (p: Record<string, number>) => unknown;
  const declared = mod.parameters ?? {};
  return () => {
    const builderParams: Record<string, number> = {};
    const overrides: Record<string, number> = {};
    for (const [k, v] of Object.entries(sets)) (k in declared ? builderParams : overrides)[k] = v;
    const model = build({ ...declared, ...builderParams });
    if (!(model instanceof Model)) {
      throw new ModelError(`the default export of ${file} did not return a Model`, { hint: 'return the Model you built' });
    }
    checkOverrides(model, overrides, declared);
    return { model, overrides, warnings: [] };
  };
}

/**
 * A controller module: its default export is a controller for simulate()
 * (`(t, state, inputs) => void`, src/sim/controller.ts), e.g.
 * mechanisms/controllers/puma560-pd.ts.
 */
export async function loadController(file: string): Promise<Controller> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new UsageError(`controller file ${file} not found`, { hint: 'give the path of a controller module, e.g. --controller mechanisms/controllers/puma560-pd.ts' });
  }
  const mod = (await importEsModule(file, path, 'controller')) as { default?: unknown };
  if (typeof mod.default !== 'function') {
    throw new ModelError(`controller module ${file} has no default export that is a controller function`, {
      component: file,
      hint: 'export default function controller(t, state, inputs) { inputs["j1.tau"] = -100 * state["j1.q"] - 20 * state["j1.qd"]; }',
    });
  }
  return mod.default as Controller;
}

/** a model or controller module imported, its import failures as usage errors that name it */
async function importEsModule(file: string, path: string, what: 'model' | 'controller'): Promise<unknown> {
  return importModule(path).catch((e: unknown) => {
    if (e instanceof Error && 'code' in e && String(e.code).startsWith('ERR_REQUIRE')) {
      throw new UsageError(`${what} module ${file} was loaded as CommonJS`, {
        hint: `${what} modules are ES modules: name the file .mts, or keep it in a folder whose package.json says "type": "module" (like mechanisms/)`,
      });
    }
    if (e instanceof Error && 'code' in e && e.code === 'ERR_MODULE_NOT_FOUND') throw missingImport(file, path, e.message, what);
    throw e;
  });
}

/**
 * A model module (or a module it imports) imports a package that is not
 * installed, or a file that does not exist. Node's ERR_MODULE_NOT_FOUND says
 * which only in its message: "Cannot find package 'x' imported from /a/b.ts".
 */
function missingImport(file: string, path: string, message: string, what: 'model' | 'controller'): UsageError {
  const found = /^Cannot find (package|module) '([^']+)' imported from (.+)$/.exec(message.split('\n')[0]);
  if (!found) return new UsageError(`${what} module ${file} cannot be loaded: ${message.split('\n')[0]}`, { hint: 'check its imports' });
  const [, kind, name, by] = found;
  const absolute = (p: string) => resolve(p.startsWith('file:') ? fileURLToPath(p) : p);
  const shown = (p: string) => {
    const near = relative(process.cwd(), absolute(p));
    return near.startsWith('..') ? absolute(p) : near;
  };
  const from = absolute(by) === path ? '' : ` (imported from ${shown(by)})`;
  return kind === 'package'
    ? new UsageError(`${what} module ${file} imports the package "${name}"${from}, which is not installed`, { hint: `install it (npm install ${name}) or correct the name` })
    : new UsageError(`${what} module ${file} imports ${shown(name)}${from}, which does not exist`, { hint: 'correct the path of the import' });
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
    const near = closest(name, all);
    const component = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : '';
    const siblings = known.filter((k) => component && k.startsWith(`${component}.`));
    const listed = siblings.length
      ? `${component} has ${siblings.map((k) => k.slice(component.length + 1)).join(', ')}`
      : `${Object.keys(declared).length ? `the module declares ${Object.keys(declared).join(', ')}; ` : ''}the model has ${known.slice(0, 12).join(', ')}${known.length > 12 ? `, ... (${known.length} in all)` : ''}`;
    throw new ModelError(`no parameter named ${name}`, {
      variables: [name],
      hint: `${near ? `did you mean ${near}? ` : ''}${listed}`,
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

/** the name within edit distance 2 (ignoring case), if there is one */
function closest(name: string, names: string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length];
  };
  let best: string | undefined, bestDistance = 3;
  for (const n of names) {
    const d = distance(name.toLowerCase(), n.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  return best;
}
