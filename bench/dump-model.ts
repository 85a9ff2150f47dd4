// bench/dump-model: the generated derivatives() of a model module or a URDF robot,
// in bench/ab.ts's dump format, so that two builds can be timed in one process:
//   npx tsx bench/dump-model.ts <model.ts|robot.urdf> <mode> <file.json> [name=value ...]   (module parameters)
//   (then npx tsx bench/ab.ts run a.json b.json)
// Also prints report.ops and report.outputOps of the compile.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compile, type Mode } from '../src/compile.ts';
import { loadUrdf } from '../src/node/urdf-file.ts';
import type { Model } from '../src/model/index.ts';

const [file, mode, out, ...sets] = process.argv.slice(2);
const parameters = Object.fromEntries(sets.map((s) => [s.slice(0, s.indexOf('=')), Number(s.slice(s.indexOf('=') + 1))]));
const model: Model = file.endsWith('.urdf')
  ? loadUrdf(file).mechanism
  : ((await import(resolve(file))) as { default: (p: object) => Model }).default(parameters);
const c = compile(model, { mode: mode as Mode });
writeFileSync(out, JSON.stringify({ body: c.generated.body, states: c.stateNames.length, workspace: c.w.length, u: [...c.u], p: [...c.p], x0: [...c.x0()] }));
console.log(JSON.stringify({ ops: c.report.ops, outputOps: c.report.outputOps }));
