// bench/analysis-ops: the operation counts of one analytical
// forwardDerivatives call of a tree, part by part (tree-generated.ts'
// report.parts), against the forward call's generated code: what issue 33's
// "dqdd within 3x of the forward call" is counted with, before any timing.
//
//   npx tsx bench/analysis-ops.ts [--rows iiwa,puma,humanoid]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile } from '../src/compile.ts';
import { mjcfMechanism, parseMjcf } from '../src/io/mjcf.ts';
import { inverseTangents } from '../src/codegen/inverse-tangents.ts';
import { treeFunctions } from '../src/codegen/tree-generated.ts';
import type { OpCount } from '../src/codegen/tree-emit.ts';
import type { Mechanism } from '../src/library/multibody/index.ts';
import puma560 from '../mechanisms/puma560.ts';
import humanoid from '../mechanisms/humanoid.ts';

const root = new URL('../', import.meta.url).pathname;
const { values } = parseArgs({ options: { rows: { type: 'string', default: 'iiwa,puma,humanoid' } } });
const iiwa = () =>
  mjcfMechanism(parseMjcf(readFileSync(join(root, 'test/io/fixtures/mjcf/iiwa14.xml'), 'utf8'), 'iiwa14.xml'), { limitsAndFriction: false }).mechanism;
const ROWS: Record<string, () => Mechanism> = { iiwa, puma: () => puma560(), humanoid: () => humanoid() };
const ops = (o: OpCount) => o.mul + o.add + o.div + o.fn;

// the parts one forward-derivatives call runs (massOut and inverseOut are the inverse call's)
const CALL = ['point', 'bias', 'factor', 'solve', 'pairs', 'forwardOut'];

for (const key of values.rows!.split(',')) {
  const fwd = compile(ROWS[key]());
  const inv = compile(ROWS[key](), { problem: 'inverse' });
  const code = inverseTangents(inv);
  if (typeof code === 'string') throw new Error(code);
  const tree = code.rigidTree();
  if (typeof tree === 'string') throw new Error(tree);
  const g = treeFunctions(tree),
    parts = g.report.parts!,
    f = ops(fwd.report.ops);
  const total = CALL.reduce((s, p) => s + ops(parts[p]), 0);
  console.log(`\n${key}: n = ${tree.N}, forward call ${f} operations (${fwd.report.mode}); 3x allows ${3 * f}`);
  for (const p of CALL) console.log(`| ${p} | ${ops(parts[p])} |`);
  console.log(`| **dqdd call** | **${total}** (${(total / f).toFixed(2)} x forward) |`);
}
