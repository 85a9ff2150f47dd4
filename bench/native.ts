// Kron beside the native peers of ../shared/peers/native (Bullet's
// btMultiBody ABA, MuJoCo C's mj_forward, Simbody), on the models their
// common.h builds: the chain of n uniform boxes (m = 1, L = 0.5, W = 0.05,
// axes z, y, z, ..., gravity -9.81 along z) and the PUMA 560 of its DH
// table, at its state q_i = 0.3 sin(1.3 i + 0.7), qd_i = 0.5 cos(0.9 i + 0.2).
// The accelerations are checked against each peer's --dump first; then
// rounds alternate the three native programs (thread CPU time, min of their
// trials) with Kron's relaxed and torn forms (process CPU time, timing.ts:
// warmed, then interleaved batches), before and after an ArrayBuffer detach.
//
//   npx tsx bench/native.ts [--peers /path/to/built/peers] [--n 8,16,64,128,256] [--rounds 3] [--target js|wasm]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile, Mechanism, type CompiledModel, type Mode } from '../src/index.ts';
import { type Subject, type Warmed, timeRounds, warm } from '../src/bench/timing.ts';

const { values } = parseArgs({
  options: {
    peers: { type: 'string', default: '../shared/peers/native' },
    n: { type: 'string', default: '8,16,64,128,256' },
    rounds: { type: 'string', default: '3' },
    check: { type: 'boolean', default: false },
    target: { type: 'string', default: 'js' },
  },
});
const target = values.target as 'js' | 'wasm';
const sizes = values.n.split(',').map(Number);
const rounds = Number(values.rounds);
const ENGINES = ['bullet', 'mujoco', 'simbody'] as const;
type Engine = (typeof ENGINES)[number];

const L = 0.5,
  W = 0.05,
  G = 9.81;
const q0 = (i: number) => 0.3 * Math.sin(1.3 * i + 0.7),
  qd0 = (i: number) => 0.5 * Math.cos(0.9 * i + 0.2);
const gravity = { 'world.g[1]': 0, 'world.g[2]': 0, 'world.g[3]': -G };

/** common.h's chain: joint i on body i - 1's far end, axis z for even i, y for odd */
function chain(n: number): Mechanism {
  const mech = new Mechanism(`chain${n}`);
  let parent = mech.world.frame_b;
  for (let i = 0; i < n; i++) {
    const j = mech.revolute(`j${i}`, { axis: i % 2 ? [0, 1, 0] : [0, 0, 1], q: q0(i), qd: qd0(i) });
    const body = mech.body(`b${i}`, { m: 1, rcm: [L / 2, 0, 0], I: [(W * W + W * W) / 12, (L * L + W * W) / 12, (L * L + W * W) / 12] });
    const bar = mech.bar(`bar${i}`, { r: [L, 0, 0] });
    mech.connect(parent, j.frame_a);
    mech.connect(j.frame_b, body.frame_a);
    mech.connect(j.frame_b, bar.frame_a);
    parent = bar.frame_b;
  }
  return mech;
}

/** common.h's PUMA 560: T_{i-1,i} = Rz(q) Tz(d) Tx(a) Rx(alpha), the body in DH frame i */
const DH: [number, number, number, number, [number, number, number], [number, number, number]][] = [
  [0, 0, Math.PI / 2, 1, [0, 0, 0], [0.18, 0.35, 0.18]],
  [0.4318, 0, 0, 17.4, [-0.3638, 0.006, 0.2275], [0.13, 0.524, 0.539]],
  [0.0203, 0.15005, -Math.PI / 2, 4.8, [-0.0203, -0.0141, 0.07], [0.066, 0.086, 0.025]],
  [0, 0.4318, Math.PI / 2, 0.82, [0, 0.019, 0], [1.8e-3, 1.3e-3, 1.8e-3]],
  [0, 0, -Math.PI / 2, 0.34, [0, 0, 0], [0.3e-3, 0.4e-3, 0.3e-3]],
  [0, 0, 0, 0.09, [0, 0, 0.032], [0.15e-3, 0.15e-3, 0.04e-3]],
];
function puma(): Mechanism {
  const mech = new Mechanism('puma560');
  let parent = mech.world.frame_b;
  DH.forEach(([a, d, alpha, m, r, I], i) => {
    const j = mech.revolute(`j${i}`, { axis: [0, 0, 1], q: q0(i), qd: qd0(i) });
    const offset = mech.bar(`dh${i}`, { r: [a, 0, d] });
    const twist = mech.rotation(`twist${i}`, { axis: [1, 0, 0], angle: alpha });
    const body = mech.body(`link${i}`, { m, rcm: r, I });
    mech.connect(parent, j.frame_a);
    mech.connect(j.frame_b, offset.frame_a);
    mech.connect(offset.frame_b, twist.frame_a);
    mech.connect(twist.frame_b, body.frame_a);
    parent = twist.frame_b;
  });
  return mech;
}

const models = [
  ...sizes.map((n) => ({ name: `n=${n}`, dump: `chain${n}`, build: () => chain(n), dof: n })),
  { name: 'puma560', dump: 'puma560', build: puma, dof: 6 },
];

// (engine, extra arguments) => the program's stdout
const peer = (engine: Engine, ...args: string[]) =>
  execFileSync(join(values.peers, `bench_${engine}`), ['-n', sizes.join(','), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });

/** Kron's qdd at the state the model starts in */
function accelerations(c: CompiledModel, dof: number): number[] {
  const x = c.x0(),
    dx = new Float64Array(x.length);
  c.derivatives(0, x, dx);
  return Array.from({ length: dof }, (_, i) => dx[c.stateNames.indexOf(`j${i}.qd`)]);
}

if (!ENGINES.every((e) => existsSync(join(values.peers, `bench_${e}`)))) {
  console.error(
    `the native peers are not built in ${values.peers}: see its README (apt-get install libsimbody-dev libmujoco-dev libbullet-dev; ./build.sh), or give --peers`,
  );
  process.exit(2);
}
const compiled = models.map((m) => ({
  ...m,
  forms: Object.fromEntries((['relaxed', 'torn'] as Mode[]).map((mode) => [mode, compile(m.build(), { mode, parameters: gravity, target })])) as Record<
    Mode,
    CompiledModel
  >,
}));

// agreement with every peer's accelerations
for (const e of ENGINES) {
  const dumps = new Map(
    peer(e, '--dump')
      .split('\n')
      .filter((l) => l.startsWith('ACC '))
      .map((l) => l.split(' ').slice(1))
      .map(([name, ...v]) => [name, v.map(Number)]),
  );
  const worst = compiled.map((m) => {
    const theirs = dumps.get(m.dump)!;
    let w = 0;
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      accelerations(m.forms[mode], m.dof).forEach((v, i) => (w = Math.max(w, Math.abs(v - theirs[i]) / Math.max(1, Math.abs(theirs[i])))));
    }
    return `${m.name} ${w.toExponential(1)}`;
  });
  console.log(`# ${e}: Kron's accelerations (both forms) against its --dump, largest relative difference: ${worst.join(', ')}`);
}
if (values.check) process.exit(0);

/** the peers' µs per call by model: the first column of each program's table */
const parse = (text: string) =>
  new Map(
    text
      .split('\n')
      .filter((l) => !l.startsWith('#') && /^\S+\s+\d/.test(l))
      .map((l) => l.trim().split(/\s+/))
      .map(([name, us]) => [name.replace(/u$/, ''), Number(us)]),
  );

function kronSubjects(minCalls?: number): Warmed[] {
  return compiled.flatMap((m) =>
    (['relaxed', 'torn'] as Mode[]).map((mode) => {
      const state = m.forms[mode].createState();
      const x = m.forms[mode].x0(),
        dx = new Float64Array(x.length);
      let k = 0;
      // common.h's nudge: one coordinate moved by +-1e-7 each call, the state never drifting
      const subject: Subject = { call: () => state.derivatives(0, x, dx), fresh: () => ((x[k++ % x.length] += k & 1 ? 1e-7 : -1e-7), dx[0]) };
      return warm(subject, { minCalls, maxMs: 20000 });
    }),
  );
}

const native: Record<Engine, Map<string, number>[]> = { bullet: [], mujoco: [], simbody: [] };
const kron: { before: number[][]; after: number[][] } = { before: [], after: [] };
const before = kronSubjects();
for (let r = 0; r < rounds; r++) {
  for (const e of ENGINES) native[e].push(parse(peer(e, '-t', '0.3', '-r', '3')));
  kron.before.push(timeRounds(before, 15).map((t) => t.min));
  console.error(`round ${r + 1} of ${rounds}`);
}
// what MuJoCo's WebAssembly memory does when it grows: from here on V8 has no ArrayBufferDetaching protector
const buffer = new ArrayBuffer(8);
structuredClone(buffer, { transfer: [buffer] });
const after = kronSubjects(2000);
for (let r = 0; r < rounds; r++) kron.after.push(timeRounds(after, 15).map((t) => t.min));

const min = (xs: number[]) => Math.min(...xs);
const fmt = (v: number) => (v < 10 ? v.toFixed(3) : v.toFixed(1));
console.log(
  `\nµs per forward-dynamics call (Kron's target: ${target}), min over ${rounds} rounds; natives: thread CPU time, min of 3 trials of 0.3 s; Kron: process CPU time, min over 15 interleaved batches`,
);
console.log(
  '| model | Bullet ABA | MuJoCo C | Simbody | Kron relaxed | relaxed, detached | Kron torn | torn, detached | relaxed / Bullet | torn / MuJoCo | detached / before (relaxed) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
compiled.forEach((m, k) => {
  const peerUs = (e: Engine) => min(native[e].map((t) => t.get(m.name) ?? NaN));
  const [rb, tb] = [2 * k, 2 * k + 1].map((i) => min(kron.before.map((round) => round[i])));
  const [ra, ta] = [2 * k, 2 * k + 1].map((i) => min(kron.after.map((round) => round[i])));
  const [b, j, s] = ENGINES.map(peerUs);
  console.log(
    `| ${m.name} | ${fmt(b)} | ${fmt(j)} | ${fmt(s)} | ${fmt(rb)} | ${fmt(ra)} | ${fmt(tb)} | ${fmt(ta)} | ${(rb / b).toFixed(2)} | ${(tb / j).toFixed(2)} | ${(ra / rb).toFixed(2)} |`,
  );
});
