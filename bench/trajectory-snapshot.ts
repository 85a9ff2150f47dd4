// bench/trajectory-snapshot: every model of mechanisms/ and the URDF robots
// compiled torn, relaxed and (torn) as WebAssembly, simulated with fixed-step
// RK4, each run's samples written to a directory as raw doubles (a file of
// the run's error instead when it fails), so that two trees — before and
// after a change that must not change the numbers, such as the runtime's
// move to TypeScript modules — can be compared bit for bit with `diff -r`.
// Run: npx tsx bench/trajectory-snapshot.ts <out-dir> [--stop s] [model ...]
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadModel } from '../src/cli/load.ts';
import { compile, type CompileOptions } from '../src/compile.ts';
import { snapshotModels } from './snapshot-models.ts';
import { simulate } from '../src/sim/simulate.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--stop');
const stop = at >= 0 ? Number(args.splice(at, 2)[1]) : 0.3;
const [out, ...only] = args;
if (!out) throw new Error('usage: npx tsx bench/trajectory-snapshot.ts <out-dir> [--stop s] [model ...]');
mkdirSync(out, { recursive: true });
const models = snapshotModels(only);
const variants: [string, CompileOptions][] = [
  ['torn', { mode: 'torn' }],
  ['relaxed', { mode: 'relaxed' }],
  ['wasm', { mode: 'torn', target: 'wasm' }],
];
for (const file of models) {
  for (const [name, options] of variants) {
    const stem = join(out, `${basename(file)}.${name}`);
    try {
      const { model } = await loadModel(file, {});
      const run = simulate(compile(model, options), { stop, step: 1e-3 });
      const names = Object.keys(run.toJSON().signals).sort();
      const data = new Float64Array(names.length * run.length);
      names.forEach((n, i) => data.set(run.get(n), i * run.length));
      writeFileSync(`${stem}.bin`, new Uint8Array(data.buffer));
    } catch (e) {
      writeFileSync(`${stem}.error`, `${e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)}\n`);
    }
  }
  process.stderr.write(`${file}\n`);
}
