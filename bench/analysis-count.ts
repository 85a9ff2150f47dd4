// bench/analysis-count: where the cost of dqdd/d(q, qd, tau) goes, counted
// and timed part by part, beside the forward call (issue 33's first step).
// Per model: the operations of the generated forward and inverse code and of
// the derivative codes (derived.ts reports them), the multiply-adds of the
// M^-1 part counted from L's non-zeros (dense-cholesky.ts: L^T L keeps a
// tree's zeros), and CPU µs of each part of one forwardDerivatives call: the
// massBias run (M, h), the jacobian run (tau, dID/dq, dID/dqd: 2n tangent
// directions), the factorisation and the 3n solved columns; and the whole
// call by the tangents beside the analytical recursions (tree-dynamics.ts).
//
//   npx tsx bench/analysis-count.ts [--rows iiwa,puma,humanoid] [--rounds 9]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile } from '../src/compile.ts';
import { mjcfMechanism, parseMjcf } from '../src/io/mjcf.ts';
import { type Subject, evalSubject, rng, timeRounds, warm } from '../src/bench/timing.ts';
import { ltlFactor, ltlSolveColumns } from '../src/codegen/dense-cholesky.ts';
import { DynamicsDerivatives } from '../src/codegen/dynamics-derivatives.ts';
import type { Mechanism } from '../src/library/multibody/index.ts';
import type { OpCounts } from '../src/codegen/ops.ts';
import puma560 from '../mechanisms/puma560.ts';
import humanoid from '../mechanisms/humanoid.ts';

const root = new URL('../', import.meta.url).pathname;
const { values } = parseArgs({ options: { rows: { type: 'string', default: 'iiwa,puma,humanoid' }, rounds: { type: 'string', default: '9' } } });
const iiwa = () =>
  mjcfMechanism(parseMjcf(readFileSync(join(root, 'test/io/fixtures/mjcf/iiwa14.xml'), 'utf8'), 'iiwa14.xml'), { limitsAndFriction: false }).mechanism;
const ROWS: Record<string, () => Mechanism> = { iiwa, puma: () => puma560(), humanoid: () => humanoid() };

const ops = (o: OpCounts) => o.mul + o.add + o.div + o.fn;

for (const key of values.rows!.split(',')) {
  const fwd = compile(ROWS[key]());
  const inv = compile(ROWS[key](), { problem: 'inverse' });
  const run = inv.inverseDynamics();
  const d = run.derivatives();
  if (typeof d === 'string') throw new Error(d);
  const n = d.n,
    rand = rng(1);
  const q = Float64Array.from({ length: n }, () => 2 * rand() - 1),
    qd = Float64Array.from({ length: n }, () => 2 * rand() - 1),
    tau = Float64Array.from({ length: n }, () => 2 * rand() - 1);
  const tangents = new DynamicsDerivatives(run, d.code, false);
  tangents.forward(q, qd, tau); // made here, outside the timings
  d.forward(q, qd, tau);
  const M = run.massMatrix(q),
    L = new Float64Array(n * n);
  ltlFactor(n, M, L);
  let nnz = 0;
  for (let k = 0; k < n * n; k++) if (L[k] !== 0) nnz++;
  const code = d.code,
    x = inv.x0(),
    u = new Float64Array(run.state.u.length),
    p = run.state.p;
  const B = new Float64Array(n * n);
  const part = (f: () => void): Subject => ({ call: f, fresh: () => 0 });
  const subjects: [string, Subject][] = [
    ['forward call', evalSubject(fwd, 1)],
    ['forwardDerivatives by the tangents, whole', part(() => tangents.forward(q, qd, tau))],
    [`forwardDerivatives, ${d.method}`, part(() => d.forward(q, qd, tau))],
    ['  massBias run (M, h)', part(() => code.massBias.code.run(0, x, u, p))],
    ['  jacobian run (tau, dID/dq, dID/dqd)', part(() => code.jacobian.run(0, x, u, p))],
    ['  L^T L factor', part(() => ltlFactor(n, M, L))],
    ['  3 solves of n columns', part(() => [0, 1, 2].forEach(() => ltlSolveColumns(n, L, B.fill(1), n)))],
  ];
  const t = timeRounds(
    subjects.map(([, s]) => warm(s, { minCalls: 2000, maxMs: 4000 })),
    Number(values.rounds),
  );
  const f = t[0].us;
  console.log(`\n${key}: n = ${n}, forward compiled ${fwd.report.mode}`);
  console.log(
    `ops: forward ${ops(fwd.report.ops)}, inverse ${ops(inv.report.ops)}, mass ${ops(code.mass.report.ops)}, massBias ${ops(code.massBias.code.report.ops)}, jacobian ${ops(code.jacobian.report.ops)} (${(ops(code.jacobian.report.ops) / (2 * n)).toFixed(0)} per direction, ${(ops(code.jacobian.report.ops) / (2 * n) / ops(inv.report.ops)).toFixed(2)} inverse calls)`,
  );
  console.log(`M^-1 part: L has ${nnz} non-zeros of ${(n * (n + 1)) / 2}; 3n columns x 2 nnz = ${3 * n * 2 * nnz} multiply-adds`);
  for (let i = 0; i < subjects.length; i++) console.log(`| ${subjects[i][0]} | ${t[i].us.toFixed(2)} µs | ${(t[i].us / f).toFixed(1)} × forward |`);
}
