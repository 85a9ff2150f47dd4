// bench/analysis-profile: where one analytical forwardDerivatives call of a
// tree goes (issue 33, step 1), part by part, in CPU time: the model's own
// inverse call that checks the forces outside the tree, the generated
// functions (tree-generated.ts: point = kinematics, composites, M and the
// velocity terms; the L^T D L factor; the qdd solve; pairs = the forces at
// qdd and dtau/d(q, qd); the 3n solved columns), and the hand-written
// recursions with the dense L^T L they replaced (tree-derivatives.ts,
// dense-cholesky.ts: what the first profile measured); beside the whole
// call and the forward call. The parts are timed alone on the same point,
// so their sum is close to, not equal to, the whole.
//
//   npx tsx bench/analysis-profile.ts [--rows iiwa,humanoid] [--rounds 9]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile } from '../src/compile.ts';
import { mjcfMechanism, parseMjcf } from '../src/io/mjcf.ts';
import { type Subject, evalSubject, rng, timeRounds, warm } from '../src/bench/timing.ts';
import { ltlFactor, ltlSolveColumns } from '../src/codegen/dense-cholesky.ts';
import { TreeDerivatives } from '../src/codegen/tree-derivatives.ts';
import { inverseTangents } from '../src/codegen/inverse-tangents.ts';
import { treeFunctions } from '../src/codegen/tree-generated.ts';
import type { Mechanism } from '../src/library/multibody/index.ts';
import puma560 from '../mechanisms/puma560.ts';
import humanoid from '../mechanisms/humanoid.ts';

const root = new URL('../', import.meta.url).pathname;
const { values } = parseArgs({ options: { rows: { type: 'string', default: 'iiwa,humanoid' }, rounds: { type: 'string', default: '9' } } });
const iiwa = () =>
  mjcfMechanism(parseMjcf(readFileSync(join(root, 'test/io/fixtures/mjcf/iiwa14.xml'), 'utf8'), 'iiwa14.xml'), { limitsAndFriction: false }).mechanism;
const ROWS: Record<string, () => Mechanism> = { iiwa, puma: () => puma560(), humanoid: () => humanoid() };

for (const key of values.rows!.split(',')) {
  const fwd = compile(ROWS[key]());
  const inv = compile(ROWS[key](), { problem: 'inverse' });
  const run = inv.inverseDynamics();
  const d = run.derivatives();
  if (typeof d === 'string') throw new Error(d);
  const code = inverseTangents(inv);
  if (typeof code === 'string') throw new Error(code);
  const tree = code.rigidTree();
  if (typeof tree === 'string') throw new Error(tree);
  const n = d.n,
    rand = rng(1);
  const q = Float64Array.from({ length: n }, () => 2 * rand() - 1),
    qd = Float64Array.from({ length: n }, () => 2 * rand() - 1),
    tau = Float64Array.from({ length: n }, () => 2 * rand() - 1);
  const nn = () => new Float64Array(n * n);
  const out = { qdd: new Float64Array(n), dqdd_dq: nn(), dqdd_dqd: nn(), dqdd_dtau: nn() };
  d.forward(q, qd, tau, 0, out); // made here, outside the timings
  const td = new TreeDerivatives(tree);
  const M = nn(),
    L = nn(),
    T = new Float64Array(n),
    own = new Float64Array(n),
    zeros = new Float64Array(n),
    W = new Float64Array(3 * n * n),
    dq = nn(),
    dqd = nn();
  td.kinematics(q, qd, M);
  td.dynamics(q, qd, out.qdd, T);
  ltlFactor(n, M, L);
  const part = (f: () => void): Subject => ({ call: f, fresh: () => 0 });
  const m = 3 * n;
  const g = treeFunctions(tree),
    w = new Float64Array(g.slots),
    kb = new Float64Array(2 * n),
    r = new Float64Array(n);
  g.point(q, qd, w);
  g.factor(w);
  const subjects: [string, Subject][] = [
    ['forward call', evalSubject(fwd, 1)],
    [`forwardDerivatives, ${d.method}, whole`, part(() => d.forward(q, qd, tau, 0, out))],
    ["  the model's inverse call (the check, h)", part(() => void run.evaluate(0, q, qd, zeros, own))],
    ['  generated point: kinematics, composites, M, velocity terms', part(() => g.point(q, qd, w))],
    ['  generated L^T D L factor', part(() => g.factor(w))],
    ['  generated qdd solve', part(() => (r.set(tau), g.solve(w, r)))],
    ['  generated pairs: forces at qdd, dtau/dq, dtau/dqd', part(() => g.pairs(q, qd, out.qdd, kb, w, T))],
    ['  generated 3n solves into the outputs', part(() => g.forwardOut(w, out.dqdd_dq, out.dqdd_dqd, out.dqdd_dtau))],
    ['hand-written (before): kinematics, inertias, composites, M', part(() => td.kinematics(q, qd, M))],
    ['  accelerations and forces (once at 0, once at qdd)', part(() => (td.dynamics(q, qd, zeros, T), td.dynamics(q, qd, out.qdd, T)))],
    ['  derivative pairs dtau/dq, dtau/dqd', part(() => (dq.fill(0), dqd.fill(0), td.derivatives(dq, dqd)))],
    ['  L^T L factor of M', part(() => void ltlFactor(n, M, L))],
    ['  solve of qdd (1 column)', part(() => void ltlSolveColumns(n, L, T, 1))],
    ['  solve of 3n columns', part(() => void ltlSolveColumns(n, L, W, m))],
    [
      '  copies: W built, read out',
      part(() => {
        W.fill(0);
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) ((W[i * m + j] = -dq[i * n + j]), (W[i * m + n + j] = -dqd[i * n + j]));
          W[i * m + 2 * n + i] = 1;
        }
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++)
            ((out.dqdd_dq[i * n + j] = W[i * m + j]), (out.dqdd_dqd[i * n + j] = W[i * m + n + j]), (out.dqdd_dtau[i * n + j] = W[i * m + 2 * n + j]));
      }),
    ],
  ];
  const t = timeRounds(
    subjects.map(([, s]) => warm(s, { minCalls: 2000, maxMs: 4000 })),
    Number(values.rounds),
  );
  const f = t[0].us;
  const o = g.report.ops;
  console.log(`\n${key}: n = ${n}, forward compiled ${fwd.report.mode}; tangent-space mapping: none (no free or ball joint)`);
  console.log(
    `generated: ${o.mul} mul, ${o.add} add, ${o.div} div, ${o.fn} fn, ${(g.report.chars / 1000).toFixed(0)} kB, made in ${g.report.ms.toFixed(0)} ms; forward code ${fwd.report.ops.mul + fwd.report.ops.add} ops, ${(fwd.generated.body.length / 1000).toFixed(0)} kB`,
  );
  for (let i = 0; i < subjects.length; i++) console.log(`| ${subjects[i][0]} | ${t[i].us.toFixed(2)} µs | ${(t[i].us / f).toFixed(1)} × forward |`);
}
