// Floating robots, side by side (issue 29): HyQ (12 + 6 dof) and Atlas
// (30 + 6) of the rbd-benchmarks suite with their roots on free joints
// (src/bench/robots.ts), one forward-dynamics evaluation each:
//   Kron relaxed and torn   derivatives() of the compiled model
//   MuJoCo WebAssembly      mj_forward of the MJCF that src/bench/mjcf.ts writes
//                           (@mujoco/mujoco, in this process)
//   MuJoCo C                the same MJCF through ../shared/peers/native's
//                           bench_mujoco_xml (forward, contacts off), when built
// First the agreement: Kron's accelerations in both forms against MuJoCo's
// qacc at --states random states with random joint and base forces, and
// against MuJoCo C at the state of the file's keyframe. Then --rounds rounds
// alternate the C program (thread CPU time, min of 3 trials of 0.3 s) with
// the in-process subjects (process CPU time, timing.ts: warmed up, then 15
// interleaved batches of ~15 ms, each at a fresh random state); a column
// gives the fastest batch (as the C program's fastest trial), over the rounds.
//
//   npx tsx bench/floating.ts [--peers DIR] [--rounds 3] [--states 50] [--target js|wasm]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile, type CompiledModel, type Mode } from '../src/index.ts';
import { UsageError } from '../src/errors.ts';
import { accelerationsAt, randomState, relativeDifference } from '../src/bench/agreement.ts';
import { type Mjcf, mjcf, mjcfXml, referenceValues } from '../src/bench/mjcf.ts';
import { kronAccelerations, mujocoState } from '../src/bench/mjcf-state.ts';
import { MujocoPeer } from '../src/bench/mujoco.ts';
import { FLOATING_ROBOTS, floatingRobot } from '../src/bench/robots.ts';
import { type Warmed, evalSubject, rng, timeRounds, warm } from '../src/bench/timing.ts';

/** the flags, checked: a wrong one is a UsageError naming it (exit 2), not a NaN table */
function flags() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        peers: { type: 'string', default: '../shared/peers/native' },
        rounds: { type: 'string', default: '3' },
        states: { type: 'string', default: '50' },
        target: { type: 'string', default: 'js' },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message, { hint: 'npx tsx bench/floating.ts [--peers DIR] [--rounds 3] [--states 50] [--target js|wasm]' });
  }
  if (values.target !== 'js' && values.target !== 'wasm')
    throw new UsageError(`--target needs js or wasm, got ${values.target}`, { hint: 'wasm compiles Kron to WebAssembly; js is the default' });
  const count = (flag: 'rounds' | 'states') => {
    const n = Number(values[flag]);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`--${flag} needs a positive integer, got ${values[flag]}`, { hint: `e.g. --${flag} ${flag === 'rounds' ? 3 : 50}` });
    return n;
  };
  return { peers: values.peers, target: values.target as 'js' | 'wasm', rounds: count('rounds'), states: count('states') };
}

let values: ReturnType<typeof flags>;
try {
  values = flags();
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(e.describe());
  process.exit(2);
}
const { target, rounds, states } = values;
const program = join(values.peers, 'bench_mujoco_xml');
const native = existsSync(program);
const work = mkdtempSync(join(tmpdir(), 'kron-floating-'));
const MODES: Mode[] = ['relaxed', 'torn'];
/** the agreement test/multibody/floating-mujoco.test.ts asks for, relative */
const AGREE = 1e-10;
/** Pinocchio's ABA on these robots as published for an i7-10700K (issue 29), µs */
const PINOCCHIO: Record<string, number> = { hyq: 1.2, atlas: 5.3 };

interface Robot {
  name: string;
  title: string;
  dof: number;
  forms: Record<Mode, CompiledModel>;
  doc: Mjcf;
  peer: MujocoPeer;
  /** the MJCF with a keyframe at a random state, for the C program */
  xml: string;
}

const robots: Robot[] = [];
for (const { name, title, joints } of FLOATING_ROBOTS) {
  const mech = floatingRobot(name);
  const forms = Object.fromEntries(MODES.map((mode) => [mode, compile(floatingRobot(name), { mode, target })])) as Record<Mode, CompiledModel>;
  const doc = mjcf(mech, referenceValues(forms.relaxed));
  robots.push({ name, title, dof: joints + 6, forms, doc, peer: await MujocoPeer.load(doc), xml: join(work, `${name}.xml`) });
}
const version = robots[0].peer.version;

console.log(
  `# ${cpus()[0].model}, ${cpus().length} cores, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; Kron target ${target}; MuJoCo WebAssembly ${version}`,
);

// agreement with MuJoCo (WebAssembly) at random states, with random forces on every joint and the base
for (const r of robots) {
  const worst = MODES.map((mode) => {
    const state = r.forms[mode].createState(),
      rand = rng(r.dof);
    let w = 0;
    for (let k = 0; k < states; k++) {
      for (const u of r.forms[mode].generated.layout.inputs) state.setInput(u, 20 * (2 * rand() - 1));
      w = Math.max(w, relativeDifference(accelerationsAt(state, r.doc, r.peer, randomState(state, rand))));
    }
    // timing models that disagree would compare different computations: say so and fail the run
    if (!(w <= AGREE)) {
      console.error(
        `${r.title}, ${mode}: Kron and MuJoCo ${r.peer.version} disagree by ${w} > ${AGREE} (relative); the timings below compare different dynamics`,
      );
      process.exitCode = 1;
    }
    return `${mode} ${w.toExponential(1)}`;
  });
  console.log(
    `# ${r.title}: Kron's base and joint accelerations against MuJoCo ${version}'s qacc at ${states} random states, largest |difference| / max |acceleration|: ${worst.join(', ')}`,
  );
}

// the C program's state: a keyframe in the file, Kron's accelerations compared with its --dump
let nativeVersion = '';
if (native) {
  for (const r of robots) {
    const state = r.forms.relaxed.createState(),
      c = r.forms.relaxed;
    const x = randomState(state, rng(7 * r.dof));
    const dx = new Float64Array(x.length);
    state.derivatives(0, x, dx);
    const key = mujocoState(r.doc, (n) => x[c.stateNames.indexOf(n)]);
    writeFileSync(r.xml, mjcfXml(r.doc.model, r.doc.gravity, r.doc.bodies, key));
    const [head, ...qacc] = execFileSync(program, [r.xml, '--keyframe', '0', '--dump'], { encoding: 'utf8' }).trim().split('\n');
    nativeVersion = head.replace(/^mujoco\s*/, '');
    const theirs = kronAccelerations(r.doc, qacc.map(Number));
    const kron = [...theirs.keys()].map((n) => dx[c.stateNames.indexOf(n)]);
    const diff = relativeDifference({ names: [...theirs.keys()], kron, mujoco: [...theirs.values()] });
    console.log(`# ${r.title}: against MuJoCo C ${nativeVersion} (${program} --keyframe 0 --dump): ${diff.toExponential(1)}`);
  }
} else {
  console.log(
    `# MuJoCo C column left out: ${program} is not built (see ../shared/peers/native/README.md: apt-get install libmujoco-dev; cc -O2 -o bench_mujoco_xml bench_mujoco_xml.c -lmujoco -lm), or give --peers`,
  );
}

/** bench_mujoco_xml's mj_forward, µs per call: min of 3 trials of 0.3 s of thread CPU time */
const nativeForward = (r: Robot) =>
  Number(/^forward ([\d.]+)/m.exec(execFileSync(program, [r.xml, '--keyframe', '0', '--what', 'forward', '-t', '0.3', '-r', '3'], { encoding: 'utf8' }))![1]) /
  1000;

const subjects: Warmed[] = robots.flatMap((r) => [
  ...MODES.map((mode) => warm(evalSubject(r.forms[mode], r.dof))),
  warm(r.peer.forwardSubject(r.dof), { minCalls: 2000 }),
]);
const fastest = subjects.map(() => Infinity),
  median = subjects.map(() => Infinity);
const cForward = robots.map(() => Infinity);
for (let round = 0; round < rounds; round++) {
  if (native) robots.forEach((r, i) => (cForward[i] = Math.min(cForward[i], nativeForward(r))));
  timeRounds(subjects, 15).forEach((t, i) => ((fastest[i] = Math.min(fastest[i], t.min)), (median[i] = Math.min(median[i], t.us))));
  console.error(`round ${round + 1} of ${rounds}`);
}

const fmt = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? (a / b).toFixed(2) : '–');
console.log(
  `\nµs per forward-dynamics evaluation, fastest batch (median batch in parentheses), best of ${rounds} rounds; MuJoCo C ${nativeVersion || '(not built)'}: fastest of 3 trials of 0.3 s`,
);
console.log(
  '| robot | dof | ops relaxed (mul / add) | Kron relaxed | Kron torn | MuJoCo WebAssembly | MuJoCo C | relaxed / MuJoCo C | torn / MuJoCo C | relaxed / WebAssembly | Pinocchio ABA, published (i7-10700K) |',
);
console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
robots.forEach((r, k) => {
  const [relaxed, torn, wasm] = [0, 1, 2].map((i) => 3 * k + i);
  const ops = r.forms.relaxed.report.ops;
  const cell = (i: number) => `${fmt(fastest[i])} (${fmt(median[i])})`;
  console.log(
    `| ${r.title} | ${r.dof - 6} + 6 | ${ops.mul} / ${ops.add} | ${cell(relaxed)} | ${cell(torn)} | ${cell(wasm)} | ${fmt(cForward[k])} | ${ratio(fastest[relaxed], cForward[k])} | ${ratio(fastest[torn], cForward[k])} | ${ratio(fastest[relaxed], fastest[wasm])} | ${PINOCCHIO[r.name]} |`,
  );
});
robots.forEach((r) => r.peer.delete());
