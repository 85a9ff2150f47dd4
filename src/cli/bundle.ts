// The viewer page's script and style, bundled in memory by esbuild from
// viewer/page/main (its .ts sources in the repository, the .js of
// dist/viewer/page in the built package), and live mode's model modules (those
// of mechanisms/ and the user's own) in a bundle of their own, models.js,
// built on every request: a new file under mechanisms/ shows up without
// restarting `kron view`.
// Model modules import the package by name. In models.js, 'kron' and
// 'kron/browser' are the page's own engine (globalThis.__kron, set by
// viewer/page/live.ts from src/api.ts): the page and the models then share one
// engine (instanceof Model holds across them) and Node-only code (node:fs,
// the CLI, reading URDF files) stays out of the page.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildFailure, type Plugin, build } from 'esbuild';
import { ModelError } from '../errors.ts';
import { PACKAGE_ROOT } from '../node/package.ts';

const here = fileURLToPath(import.meta.url);
// .ts from the sources, .js from dist/: the page and the entries are taken from the same tree as this file
const ext = extname(here);
export const PAGE = resolve(dirname(here), '../../viewer/page');
const ENTRIES: Record<string, string> = {
  kron: resolve(dirname(here), `../api${ext}`),
  'kron/browser': resolve(dirname(here), `../../viewer/browser${ext}`),
};

export interface ViewerBundle {
  js: string;
  css: string;
  /** live mode's compile worker (viewer/page/compile-worker) */
  worker: string;
  ms: number;
  /** the live mode's model names, in the page's order */
  models: string[];
}

/** live mode's models: the user's first, then those of `dir` (mechanisms/) whose names they do not take */
function modelList(extra: readonly string[], dir = join(PACKAGE_ROOT, 'mechanisms')): { name: string; path: string }[] {
  const own = extra.map((path) => ({ name: basename(path, extname(path)), path: resolve(path) }));
  const shipped = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => ({ name: f.replace(/\.ts$/, ''), path: join(dir, f) }))
    .filter((m) => !own.some((o) => o.name === m.name));
  return [...own, ...shipped];
}

/** `import mechanisms from 'kron:mechanisms'`: [{ name, module }] for each model module */
function mechanismsModule(models: readonly { name: string; path: string }[]): Plugin {
  return {
    name: 'kron-mechanisms',
    setup(b) {
      b.onResolve({ filter: /^kron:mechanisms$/ }, (args) => ({ path: args.path, namespace: 'kron' }));
      b.onLoad({ filter: /.*/, namespace: 'kron' }, () => {
        const imports = models.map((m, i) => `import * as m${i} from ${JSON.stringify(m.path)};`);
        const list = models.map((m, i) => `{ name: ${JSON.stringify(m.name)}, module: m${i} }`);
        return { contents: `${imports.join('\n')}\nexport default [${list.join(', ')}];\n`, resolveDir: PACKAGE_ROOT, loader: 'js' };
      });
    },
  };
}

/** 'kron' and 'kron/browser' from any module: this copy's browser entries */
function packageEntries(): Plugin {
  return {
    name: 'kron-entries',
    setup(b) {
      b.onResolve({ filter: /^kron(\/browser)?$/ }, (args) => ({ path: ENTRIES[args.path] }));
    },
  };
}

/**
 * 'kron' and 'kron/browser' in models.js: the engine the page already runs
 * (a CommonJS module, so esbuild turns the models' named imports into reads of
 * it). A second copy of the engine in models.js would break instanceof Model.
 */
function pageEngine(): Plugin {
  return {
    name: 'kron-page-engine',
    setup(b) {
      b.onResolve({ filter: /^kron(\/browser)?$/ }, (args) => ({ path: args.path, namespace: 'kron-engine' }));
      b.onLoad({ filter: /.*/, namespace: 'kron-engine' }, () => ({ contents: 'module.exports = globalThis.__kron;', loader: 'js' }));
    },
  };
}

/** an esbuild failure as the ModelError the user sees (a model module that cannot run in a browser) */
function bundleError(e: unknown): unknown {
  const failure = (e as Partial<BuildFailure>).errors?.[0];
  if (!failure) return e;
  const at = failure.location ? `${failure.location.file}:${failure.location.line}` : 'the viewer page';
  return new ModelError(`the viewer page cannot be bundled: ${failure.text} (${at})`, {
    hint:
      "model modules run in the browser in live mode: import from 'kron', not from Node modules; " +
      'to play a run instead, kron simulate <model> --out run.json && kron view run.json',
  });
}

export interface ModelsBundle {
  /** an ES module: `export default [{ name, module }]` */
  js: string;
  ms: number;
  /** the live mode's model names, in the page's order */
  models: string[];
}

// (the user's model modules, the mechanisms folder) => live mode's models.js, read from disk now
export async function bundleModels(models: readonly string[] = [], dir?: string): Promise<ModelsBundle> {
  const t0 = performance.now();
  const list = modelList(models, dir);
  try {
    const out = await build({
      entryPoints: ['kron:mechanisms'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      outdir: join(PAGE, 'out'),
      plugins: [mechanismsModule(list), pageEngine()],
      logLevel: 'silent',
    });
    return { js: out.outputFiles[0]?.text ?? '', ms: Math.round(performance.now() - t0), models: list.map((m) => m.name) };
  } catch (e) {
    throw bundleError(e);
  }
}

// (paths of the user's model modules) => the bundled page (its models are checked here: one that cannot
// run in a browser is a ModelError at start; the page loads them from bundleModels)
export async function bundleViewer(models: readonly string[] = [], dir?: string): Promise<ViewerBundle> {
  const t0 = performance.now();
  const list = modelList(models, dir);
  await bundleModels(models, dir);
  const page = readPrebuilt() ?? (await bundlePage());
  return { ...page, ms: Math.round(performance.now() - t0), models: list.map((m) => m.name) };
}

/**
 * Where `npm run build` leaves the page bundled (dist/viewer/bundle): an
 * installed Kron serves it as it is, so three.js and uPlot, which only the
 * page uses, are not needed at run time (they are devDependencies, and
 * optional peers for web apps of 'kron/browser'). From the sources (.ts, the
 * repository) the page is bundled at every start, as it is edited.
 */
export const PREBUILT = resolve(dirname(here), '../../viewer/bundle');
export const PAGE_FILES = { js: 'app.js', css: 'app.css', worker: 'worker.js' } as const;

function readPrebuilt(): PageBundle | undefined {
  if (ext !== '.js' || !existsSync(join(PREBUILT, PAGE_FILES.js))) return undefined;
  const read = (f: string) => readFileSync(join(PREBUILT, f), 'utf8');
  return { js: read(PAGE_FILES.js), css: read(PAGE_FILES.css), worker: read(PAGE_FILES.worker) };
}

export interface PageBundle {
  js: string;
  css: string;
  worker: string;
}

// () => the viewer page's script, style and compile worker, bundled now from viewer/page
export async function bundlePage(): Promise<PageBundle> {
  try {
    const out = await build({
      entryPoints: { app: join(PAGE, `main${ext}`), worker: join(PAGE, `compile-worker${ext}`) },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      // class names stay: the scene names a joint type by its class (src/io/scene.ts, a free joint's
      // 'freejoint' that posing and the pedestal look for), and errors name components' classes
      keepNames: true,
      write: false,
      outdir: join(PAGE, 'out'),
      plugins: [packageEntries()],
      logLevel: 'silent',
    });
    const file = (suffix: string) => out.outputFiles.find((f) => f.path.endsWith(suffix))?.text ?? '';
    return { js: file('/app.js'), css: file('.css'), worker: file('/worker.js') };
  } catch (e) {
    throw bundleError(e);
  }
}
