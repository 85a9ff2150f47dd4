// bench/analysis: CPU time per call of the analysis functions against Kron's
// own forward and inverse calls, and beside MuJoCo C on the same model.
// Kron's subjects of a model are warmed up (V8 tiers generated code up over
// thousands of calls) and then timed in interleaved rounds
// (src/bench/timing.ts: process.cpuUsage, the median batch); then MuJoCo C's
// bench_mujoco_xml times mj_forward, mj_fullM (with mj_crb), mj_jacBody and
// mjd_transitionFD on an MJCF of the same model (the Menagerie file for the
// iiwa; src/bench/mjcf.ts writes the PUMA's and the humanoid's). What the
// generated analysis code costs to make, and its size, beside the forward
// code's, close the table. A table on stdout, JSON in bench/results/analysis/
// (one file per run, kept out of git: the checked-in results are the ones
// docs/performance shows, test/docs/bench-pages.test.ts). The
// loop rows (four-bar, six-bar: derivatives through the loop's blocks,
// plan-tangents.ts) have no MJCF for MuJoCo; their frame Jacobian solves
// the loop at q first (frame-jacobian.ts); their points stay near the
// assembled start so that each loop's Newton keeps its branch.
//
//   npm run bench:analysis
//   npm run bench:analysis -- --rows iiwa,puma --rounds 9 --mujoco /path/to/bench_mujoco_xml
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile } from '../src/compile.ts';
import type { CompiledModel } from '../src/codegen/compiled.ts';
import type { Mechanism } from '../src/library/multibody/index.ts';
import { frameJacobianFunction, linearize } from '../src/analysis/index.ts';
import { mjcfMechanism, parseMjcf } from '../src/io/mjcf.ts';
import { mjcf, referenceValues } from '../src/bench/mjcf.ts';
import { mujocoReadable } from '../src/bench/mujoco.ts';
import { type Subject, type Timing, evalSubject, rng, timeRounds, warm } from '../src/bench/timing.ts';
import puma560 from '../mechanisms/puma560.ts';
import humanoid from '../mechanisms/humanoid.ts';
import fourbar from '../mechanisms/fourbar.ts';
import sixbar from '../mechanisms/sixbar.ts';

const root = new URL('../', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: 'iiwa,puma,humanoid' },
    rounds: { type: 'string', default: '15' },
    mujoco: { type: 'string', default: join(root, '../shared/peers/native/bench_mujoco_xml') },
  },
});

interface Row {
  name: string;
  build: () => Mechanism;
  /** the MJCF MuJoCo C reads: the model's own file, or written from the mechanism; none for a loop */
  xml?: (forward: CompiledModel) => string;
  /** a kinematic loop: points within this of the start values (else q in [-1, 1)) */
  near?: number;
}

const iiwaText = () => readFileSync(join(root, 'test/io/fixtures/mjcf/iiwa14.xml'), 'utf8');
const written = (build: () => Mechanism) => (c: CompiledModel) => mjcf(build(), referenceValues(c)).xml;
const ROWS: Record<string, Row> = {
  // Debian's MuJoCo C (2.2) predates the implicitfast integrator: Euler, which no timing here uses
  iiwa: {
    name: 'KUKA iiwa 14 (7 dof, MJCF)',
    build: () => mjcfMechanism(parseMjcf(iiwaText(), 'iiwa14.xml'), { limitsAndFriction: false }).mechanism,
    xml: () => mujocoReadable(iiwaText()).replace('implicitfast', 'Euler'),
  },
  puma: { name: 'PUMA 560 (6 dof)', build: () => puma560(), xml: written(() => puma560()) },
  humanoid: { name: 'humanoid (32 dof tree)', build: () => humanoid(), xml: written(() => humanoid()) },
  fourbar: { name: 'four-bar (a spatial loop, 1 dof)', build: () => fourbar(), near: 0.1 },
  sixbar: { name: 'six-bar (two loops, 1 dof)', build: () => sixbar(), near: 0.1 },
};

/** a subject calling f at a fresh pseudo-random point (q in [-1, 1), or within `near` of q0; qd, tau, qdd in [-1, 1)) */
function subject(n: number, seed: number, f: (q: Float64Array, qd: Float64Array, r: Float64Array) => unknown, q0?: Float64Array, near = 1): Subject {
  const rand = rng(seed);
  const q = new Float64Array(n),
    qd = new Float64Array(n),
    r = new Float64Array(n);
  return {
    call: () => void f(q, qd, r),
    fresh: () => {
      for (const a of [q, qd, r]) for (let i = 0; i < n; i++) a[i] = 2 * rand() - 1;
      if (q0) for (let i = 0; i < n; i++) q[i] = q0[i] + near * q[i];
      return q[0];
    },
  };
}

/** the forward call at states within `near` of x0 (a loop's Newton keeps its branch) */
function evalNear(c: CompiledModel, seed: number, x0: Float64Array, near: number): Subject {
  const rand = rng(seed),
    state = c.createState(),
    x = Float64Array.from(x0),
    dx = new Float64Array(x.length);
  return {
    call: () => state.derivatives(0, x, dx),
    fresh: () => {
      for (let i = 0; i < x.length; i++) x[i] = x0[i] + near * (rand() * 2 - 1);
      return dx[0];
    },
  };
}

function kron(row: Row, rounds: number) {
  const fwd = compile(row.build());
  const inv = compile(row.build(), { problem: 'inverse' });
  const n = inv.coordinates.length;
  const run = inv.inverseDynamics();
  const x0 = fwd.x0(),
    near = row.near;
  const at: Record<string, number> = Object.fromEntries(fwd.stateNames.map((s, i) => [s, near ? x0[i] + near * Math.sin(i + 1) : 0.3 * Math.sin(i + 1)]));
  // a loop's points near its start; a tree's anywhere
  const q0 = near ? Float64Array.from(inv.coordinates, (k) => x0[fwd.stateNames.indexOf(k.q)]) : undefined;
  const point = (seed: number, f: (q: Float64Array, qd: Float64Array, r: Float64Array) => unknown) => subject(n, seed, f, q0, near);
  const M = new Float64Array(n * n),
    tau = new Float64Array(n);
  // the last frame of the model: the end effector of an arm
  const frame = fwd
    .signalNames()
    .filter((s) => s.endsWith('.R[1][1]'))
    .at(-1)!
    .slice(0, -'.R[1][1]'.length);
  let jacobian: ReturnType<typeof frameJacobianFunction> | undefined;
  // the generated code is made here, outside the timings (its cost is reported below)
  const made = (f: () => unknown) => {
    const t0 = performance.now();
    f();
    return Math.round(performance.now() - t0);
  };
  const q1 = q0 ?? new Float64Array(n),
    zero = new Float64Array(n);
  const firstCall = {
    massMatrix: made(() => run.massMatrix(q1, M)),
    derivatives: made(() => run.forwardDerivatives(q1, zero, zero)),
    tangent: made(() => run.inverseTangent(q1, zero, zero, zero, zero, zero)),
    linearize: made(() => linearize(fwd, { at, method: 'generated' })),
    frameJacobian: made(() => (jacobian = frameJacobianFunction(fwd, frame))),
    jdotqd: made(() => jacobian!.jdotqd(q1, zero)),
  };
  // the derivatives written into arrays of the caller's, as MuJoCo's mjd_transitionFD writes A and B
  const nn = () => new Float64Array(n * n);
  const fOut = { qdd: new Float64Array(n), dqdd_dq: nn(), dqdd_dqd: nn(), dqdd_dtau: nn() },
    iOut = { tau: new Float64Array(n), dtau_dq: nn(), dtau_dqd: nn(), dtau_dqdd: nn() };
  const methods = run.derivatives(),
    how = typeof methods === 'string' ? 'none' : methods.method.startsWith('analytical') ? 'analytical' : 'generated';
  const subjects: [string, Subject][] = [
    [`forward call (${fwd.report.mode})`, near ? evalNear(fwd, 1, x0, near) : evalSubject(fwd, 1)],
    ['inverse call', point(2, (q, qd, r) => run.evaluate(0, q, qd, r, tau))],
    ['mass matrix, generated', point(3, (q) => run.massMatrix(q, M))],
    ['mass matrix, n + 1 inverse calls', point(4, (q) => run.massMatrixByColumns(q, M))],
    [`dqdd/d(q, qd, tau), ${how}`, point(5, (q, qd, r) => run.forwardDerivatives(q, qd, r, 0, { out: fOut }))],
    [`dtau/d(q, qd, qdd), ${how}`, point(6, (q, qd, r) => run.inverseDerivatives(q, qd, r, 0, { out: iOut }))],
    ['ID tangent along one direction', point(7, (q, qd, r) => run.inverseTangent(q, qd, r, qd, r, q))],
    [`linearize (A, B), ${linearize(fwd, { at }).method}`, point(8, () => linearize(fwd, { at }))],
    [`frame Jacobian of ${frame}, generated function of q`, point(9, (q) => jacobian!.jacobian(q))],
    [`J' qd of ${frame}, generated function of (q, qd)`, point(10, (q, qd) => jacobian!.jdotqd(q, qd))],
  ];
  const warmed = subjects.map(([, s]) => warm(s, { minCalls: 2000, maxMs: 8000 }));
  const timings = timeRounds(warmed, rounds);
  const inverseCode = run.derivatives();
  const code = typeof inverseCode === 'string' ? undefined : inverseCode.code;
  return {
    n,
    mode: fwd.report.mode,
    method: typeof methods === 'string' ? methods : methods.method,
    timings: subjects.map(([label], i) => ({ label, ...timings[i] })),
    compile: {
      forwardMs: fwd.report.compileMs,
      forwardChars: fwd.generated.body.length,
      forwardOps: fwd.report.ops,
      inverseMs: inv.report.compileMs,
      inverseChars: inv.generated.body.length,
      firstCallMs: firstCall,
      // the analytical path's generated code (a tree), else the tangents'
      analytical: typeof inverseCode === 'string' ? undefined : inverseCode.analyticalCode,
      mass: how === 'analytical' ? undefined : code?.mass.report,
      jacobian: how === 'analytical' ? undefined : code?.jacobian.report,
      tangent: code?.jvp.report,
    },
    fwd,
  };
}

/** MuJoCo C's µs per call of each timing, by name, and its version; or why there are none */
function mujocoC(xml: string, rounds: number): { version: string; us: Record<string, number> } | string {
  if (!existsSync(values.mujoco!)) return `no ${values.mujoco} (build it: ../shared/peers/native/build.sh)`;
  const file = join(mkdtempSync(join(tmpdir(), 'kron-analysis-')), 'model.xml');
  writeFileSync(file, xml);
  const r = spawnSync(values.mujoco!, [file, '--what', 'forward,fullM,jac,fd', '-t', '0.3', '-r', String(Math.min(rounds, 7))], { encoding: 'utf8' });
  if (r.status !== 0) return `bench_mujoco_xml failed: ${(r.stderr || r.stdout).trim().split('\n')[0]}`;
  const us: Record<string, number> = {};
  for (const m of r.stdout.matchAll(/^(\w+) ([\d.]+) nq=/gm)) us[m[1]] = Number(m[2]) / 1000;
  return { version: /^mujoco (\S+)/m.exec(r.stdout)?.[1] ?? '?', us };
}

const rounds = Number(values.rounds);
const results: unknown[] = [];
const us = (t: number) => (t < 10 ? t.toFixed(2) : t < 1000 ? t.toFixed(1) : t.toFixed(0));
for (const key of values.rows!.split(',')) {
  const row = ROWS[key];
  if (!row) throw new Error(`--rows: ${Object.keys(ROWS).join(', ')}; got ${key}`);
  const k = kron(row, rounds);
  const native = row.xml ? mujocoC(row.xml(k.fwd), rounds) : 'no MJCF (a kinematic loop)';
  const forward = k.timings[0].us;
  console.log(`\n${row.name}: n = ${k.n}, forward compiled ${k.mode}; derivatives: ${k.method}`);
  console.log('| call | Kron µs (median) | × Kron forward | MuJoCo C µs |');
  console.log('|---|---:|---:|---:|');
  const peer: Record<string, string> = {
    forward: 'forward',
    'mass matrix, generated': 'fullM',
    'dqdd/d(q, qd, tau)': 'fd',
    'frame Jacobian': 'jac',
  };
  for (const t of k.timings as (Timing & { label: string })[]) {
    const p = Object.entries(peer).find(([l]) => t.label.startsWith(l))?.[1];
    const mj =
      typeof native === 'string' || !p ? '' : `${us(native.us[p])}${p === 'fd' ? ' (mjd_transitionFD)' : p === 'jac' ? ' (mj_jacBody of the last body)' : ''}`;
    console.log(`| ${t.label} | ${us(t.us)} | ${(t.us / forward).toFixed(1)} | ${mj} |`);
  }
  if (typeof native === 'string') console.log(`MuJoCo C: ${native}`);
  else console.log(`MuJoCo C ${native.version}`);
  const c = k.compile;
  const size = (r?: { ms: number; chars: number; ops: { mul: number; add: number } }) =>
    r ? `${r.ms} ms, ${(r.chars / 1000).toFixed(0)} kB, ${r.ops.mul + r.ops.add} ops` : 'none';
  const tree = c.analytical;
  const made = tree
    ? `analytical: derivatives ${size({ ...tree.derivatives, ms: Math.round(tree.derivatives.ms) })}; mass ${size(tree.mass && { ...tree.mass, ms: Math.round(tree.mass.ms) })}`
    : `mass ${size(c.mass)}; jacobian ${size(c.jacobian)}`;
  console.log(
    `code: forward ${c.forwardMs} ms, ${(c.forwardChars / 1000).toFixed(0)} kB, ${c.forwardOps.mul + c.forwardOps.add} ops; ${made}; tangent ${size(c.tangent)}; first calls (ms) ${JSON.stringify(c.firstCallMs)}`,
  );
  results.push({ row: key, name: row.name, n: k.n, mode: k.mode, timings: k.timings, compile: c, mujocoC: native });
}
mkdirSync(join(root, 'bench/results/analysis'), { recursive: true });
const file = join(root, 'bench/results/analysis', `analysis-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`\n${file}`);
