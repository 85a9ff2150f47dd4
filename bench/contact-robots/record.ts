// The two scenes as runs for the viewer: Go2 standing (2 s) and the
// humanoid falling (3 s), each written as `kron simulate --out run.json`
// writes a run (the scene, the poses, the contact pairs' forces), with the
// contact laws and controller of go2.ts and humanoid.ts that the CLI's
// flags cannot give. Then `kron view <dir>/go2-standing.json`.
//
//   npx tsx bench/contact-robots/record.ts [dir]      (default: the current directory)
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { simulatePlayback } from '../../src/io/playback.ts';
import { jsonChunks } from '../../src/cli/json-chunks.ts';
import { go2Kron } from './go2.ts';
import { humanoidKron } from './humanoid.ts';

const dir = resolve(process.argv[2] ?? '.');
const go2 = go2Kron(),
  humanoid = humanoidKron();
const runs = [
  { name: 'go2-standing.json', scene: go2, options: { stop: 2, controller: go2.controller, start: go2.start } },
  { name: 'humanoid-falling.json', scene: humanoid, options: { stop: 3 } },
];
for (const { name, scene, options } of runs) {
  const { result, playback } = simulatePlayback(scene.mechanism, scene.compiled, { ...options, interval: 0.01, contact: scene.contact });
  const signals = Object.fromEntries(result.names.map((n, i) => [n, result.columns[i]]));
  const data = { model: scene.compiled.report.model, time: result.time, signals, ...playback };
  writeFileSync(join(dir, name), [...jsonChunks(data), '\n'].join(''));
  console.log(`written: ${join(dir, name)} (${result.length} samples; npx kron view ${join(dir, name)})`);
}
