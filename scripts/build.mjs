// npm run build (and prepare, so npm pack and git installs build too):
// src/ and the viewer to dist/ as ES modules with declarations (tsc,
// tsconfig.build.json), then what tsc does not carry: the viewer page's
// HTML and CSS, which `kron view` bundles from dist/viewer/page; and the page
// bundled once (dist/viewer/bundle), which an installed `kron view` serves as
// it is, so that three.js and uPlot are not needed at run time.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STAMP, buildInputsHash } from './build-inputs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

// a clean tree: files of deleted sources must not linger in the package
rmSync(dist, { recursive: true, force: true });
rmSync(STAMP, { force: true });
// a margin before the read: file times come from a clock coarser than Date.now() (distIsFresh)
const readAt = (Date.now() - 100) / 1000;
const inputs = buildInputsHash(); // before building: an edit during the build makes the stamp stale, not wrong
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

for (const file of ['index.html', 'style.css']) copyFileSync(join(root, 'viewer/page', file), join(dist, 'viewer/page', file));

// tsc rewrites './x.ts' to './x.js' in JavaScript but leaves declarations as written;
// .js is what every TypeScript version and resolution mode reads, so declarations say it too
const RELATIVE_TS = /((?:from|import\()\s*['"]\.{1,2}\/[^'"]*?)\.ts(['"])/g;
function rewriteDeclarations(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) rewriteDeclarations(path);
    else if (name.endsWith('.d.ts')) writeFileSync(path, readFileSync(path, 'utf8').replace(RELATIVE_TS, '$1.js$2'));
  }
}
rewriteDeclarations(dist);

// the page as `kron view` would bundle it from dist/viewer/page, bundled now by that same code
const { PAGE_FILES, PREBUILT, bundlePage } = await import(pathToFileURL(join(dist, 'src/cli/bundle.js')).href);
const page = await bundlePage();
mkdirSync(PREBUILT, { recursive: true });
for (const [key, file] of Object.entries(PAGE_FILES)) writeFileSync(join(PREBUILT, file), page[key]);
// what this dist/ was built from (scripts/build-inputs.mjs)
mkdirSync(dirname(STAMP), { recursive: true });
writeFileSync(STAMP, inputs);
// dated when the inputs were read: an input written since is newer (distIsFresh, bin/kron.mjs)
utimesSync(STAMP, readAt, readAt);
