// (repository) => the viewer page's script and style, bundled in memory by
// esbuild from viewer/page/main.ts, with every module of mechanisms/ behind
// the virtual import 'kron:mechanisms' for live mode.
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PAGE = join(ROOT, 'viewer', 'page');

export interface ViewerBundle {
  js: string;
  css: string;
  ms: number;
}

/** `import mechanisms from 'kron:mechanisms'`: [{ name, module }] for each mechanisms/*.ts */
function mechanismsModule(): Plugin {
  return {
    name: 'kron-mechanisms',
    setup(b) {
      b.onResolve({ filter: /^kron:mechanisms$/ }, (args) => ({ path: args.path, namespace: 'kron' }));
      b.onLoad({ filter: /.*/, namespace: 'kron' }, () => {
        const files = readdirSync(join(ROOT, 'mechanisms')).filter((f) => f.endsWith('.ts')).sort();
        const imports = files.map((f, i) => `import * as m${i} from './mechanisms/${f}';`);
        const list = files.map((f, i) => `{ name: ${JSON.stringify(f.replace(/\.ts$/, ''))}, module: m${i} }`);
        return { contents: `${imports.join('\n')}\nexport default [${list.join(', ')}];\n`, resolveDir: ROOT, loader: 'js' };
      });
    },
  };
}

export async function bundleViewer(): Promise<ViewerBundle> {
  const t0 = performance.now();
  const out = await build({
    entryPoints: { app: join(PAGE, 'main.ts') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    outdir: join(ROOT, 'viewer', 'out'),
    plugins: [mechanismsModule()],
    logLevel: 'silent',
  });
  const file = (ext: string) => out.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  return { js: file('.js'), css: file('.css'), ms: Math.round(performance.now() - t0) };
}
