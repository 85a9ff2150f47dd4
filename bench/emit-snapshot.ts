// bench/emit-snapshot: every model of mechanisms/ and the URDF robots compiled
// in each mode, the generated module (`kron compile --emit`) and the compile
// report (its timing field blanked) written to a directory, so that two
// trees — before and after a change to the compiler's speed — can be compared
// byte for byte with `diff -r`: a speed-up must not change what is generated.
// Run: npx tsx bench/emit-snapshot.ts <out-dir> [model ...]
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadModel } from '../src/cli/load.ts';
import { compile, type CompileOptions } from '../src/compile.ts';
import { snapshotModels } from './snapshot-models.ts';

const [out, ...only] = process.argv.slice(2);
if (!out) throw new Error('usage: npx tsx bench/emit-snapshot.ts <out-dir> [model ...]');
mkdirSync(out, { recursive: true });
const models = snapshotModels(only);
const variants: [string, CompileOptions][] = [
  ['auto', {}],
  ['torn', { mode: 'torn' }],
  ['relaxed', { mode: 'relaxed' }],
  ['iterate', { relaxIterate: true }],
  ['inverse', { problem: 'inverse' }],
  ['wasm', { target: 'wasm' }],
];
for (const file of models) {
  for (const [name, options] of variants) {
    const stem = join(out, `${basename(file)}.${name}`);
    let text: string;
    try {
      const { model } = await loadModel(file, {});
      const compiled = compile(model, options);
      writeFileSync(`${stem}.js`, compiled.source());
      text = JSON.stringify({ ...compiled.report, compileMs: 0 }, null, 1);
    } catch (e) {
      text = `error: ${e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)}`;
    }
    writeFileSync(`${stem}.report.json`, text + '\n');
  }
  process.stderr.write(`${file}\n`);
}
