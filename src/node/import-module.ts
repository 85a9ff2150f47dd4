// Importing a model module by its path. TypeScript modules (.ts, .mts, .cts)
// need a loader: Kron run from its sources (tsx, vitest) already has one; the
// built package registers tsx, its dependency, the first time a TypeScript
// module is imported, so built-in commands and .js/.mjs modules never load it.
import { existsSync } from 'node:fs';
import { extname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from '../errors.ts';
import { type ModuleRole, userImport } from './user-code.ts';
import { shipped } from './package.ts';

const TYPESCRIPT = ['.ts', '.mts', '.cts'];

// this file is itself TypeScript when Kron runs from its sources: a loader is in place
const fromSources = import.meta.url.endsWith('.ts');
let registered = false;

/**
 * The TypeScript loader a module at `path` needs, in place. Called before
 * the compile cache starts observing the import (load.ts): tsx connects to a
 * parent's IPC socket when it is first imported (net.createConnection), and
 * observed, that read as the model module going to the network, and nothing
 * was ever cached for an installed Kron.
 */
export async function prepareLoader(path: string): Promise<void> {
  if (fromSources || registered || !TYPESCRIPT.includes(extname(path).toLowerCase())) return;
  // the package first, loaded by Node alone: a model module imports 'kron', and every module of it imported after
  // register() went through tsx's hooks, a round trip to their thread each (the PUMA's cold `kron compile`:
  // 1.35 s CPU, 0.3 s less this way; bench/compile-time.ts); imported now, the model's import finds them loaded
  await import('../index.ts');
  const { register } = await import('tsx/esm/api');
  // the repository's CLI from dist/ (bin/kron.mjs): 'kron' is the package's own dist/ (the build's tsconfig maps
  // nothing, where tsconfig.json maps it to src/), and Kron's sources imported by path are their built modules
  const repo = process.env.KRON_REPO_DIST;
  register(repo ? { tsconfig: fileURLToPath(new URL('tsconfig.build.json', repo)) } : {});
  if (repo) (await import('node:module')).register(new URL('./repo-sources.js', import.meta.url), { data: { root: repo } });
  registered = true;
}

// (absolute path) => the module's namespace
export async function importModule(path: string): Promise<unknown> {
  await prepareLoader(path);
  return import(pathToFileURL(path).href);
}

const EXAMPLES: Record<ModuleRole, string> = {
  model: 'mechanisms/drivetrain.ts',
  controller: '--controller mechanisms/controllers/puma560-pd.ts',
  metric: '--metric overshoot.ts',
};

/**
 * A model, controller or metric module imported by the path the user gave:
 * a missing file, a module loaded as CommonJS, a missing import, an
 * exception at its top level, process.exit, an import over its time limit
 * (user-code.ts) are typed errors that name it.
 */
export async function importUserModule(role: ModuleRole, file: string): Promise<unknown> {
  const path = resolve(file);
  if (!existsSync(path))
    throw new UsageError(`${role} module ${file} not found`, { hint: shipped(`give the path of a ${role} module, e.g. ${EXAMPLES[role]}`) });
  try {
    return await userImport(role, file, () => importModule(path));
  } catch (e) {
    if (e instanceof Error && 'code' in e && String(e.code).startsWith('ERR_REQUIRE')) {
      throw new UsageError(`${role} module ${file} was loaded as CommonJS`, {
        hint: `${role} modules are ES modules: name the file .mts, or keep it in a folder whose package.json says "type": "module" (like mechanisms/)`,
      });
    }
    if (e instanceof Error && 'code' in e && e.code === 'ERR_MODULE_NOT_FOUND') throw missingImport(file, path, e.message, role);
    throw e;
  }
}

/**
 * A module (or a module it imports) imports a package that is not
 * installed, or a file that does not exist. Node's ERR_MODULE_NOT_FOUND says
 * which only in its message: "Cannot find package 'x' imported from /a/b.ts".
 */
function missingImport(file: string, path: string, message: string, role: ModuleRole): UsageError {
  const found = /^Cannot find (package|module) '([^']+)' imported from (.+)$/.exec(message.split('\n')[0]);
  if (!found) return new UsageError(`${role} module ${file} cannot be loaded: ${message.split('\n')[0]}`, { hint: 'check its imports' });
  const [, kind, name, by] = found;
  const absolute = (p: string) => resolve(p.startsWith('file:') ? fileURLToPath(p) : p);
  const shown = (p: string) => {
    const near = relative(process.cwd(), absolute(p));
    return near.startsWith('..') ? absolute(p) : near;
  };
  const from = absolute(by) === path ? '' : ` (imported from ${shown(by)})`;
  return kind === 'package'
    ? new UsageError(`${role} module ${file} imports the package "${name}"${from}, which is not installed`, {
        hint: `install it (npm install ${name}) or correct the name`,
      })
    : new UsageError(`${role} module ${file} imports ${shown(name)}${from}, which does not exist`, { hint: 'correct the path of the import' });
}
