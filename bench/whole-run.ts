// Whole runs, as a user types them: `kron simulate <model> --stop T --out f.csv`
// from the built package (dist/, what `npm install kron` runs), the second run
// of each round (the compile cache warm), CPU time of the whole process
// (start-up, loading the cached model, V8 compiling the generated code, the
// RK4 run, writing the CSV). Beside it, when g++ and MuJoCo's C headers and
// library are installed (Debian: libmujoco-dev), MuJoCo C's same run:
// bench/whole-run/run_mujoco.cpp on the model's MJCF (src/bench/mjcf.ts),
// RK4 at the same step, every step written with 17 digits. The two CSVs are
// compared at t = 0.1 s first: the same model, or no comparison.
//
//   npm run build && npx tsx bench/whole-run.ts [--model mechanisms/puma560.ts] [--stop 10] [--step 0.001] [--rounds 5]
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Mechanism, compile } from '../src/index.ts';
import { mjcf, referenceValues } from '../src/bench/mjcf.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'mechanisms/puma560.ts' },
    stop: { type: 'string', default: '10' },
    step: { type: 'string', default: '0.001' },
    rounds: { type: 'string', default: '5' },
  },
});
const root = new URL('..', import.meta.url).pathname;
const main = join(root, 'dist/src/cli/main.js');
if (!existsSync(main)) throw new Error('bench/whole-run.ts runs the built package: npm run build first');
const work = mkdtempSync(join(tmpdir(), 'kron-whole-run-'));
// the model module in a folder of its own where 'kron' is the built package, as in a user's project
// (in the repository its tsconfig maps 'kron' to src/, whose classes are not the built CLI's)
const project = join(work, 'project');
mkdirSync(join(project, 'node_modules'), { recursive: true });
writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
symlinkSync(root, join(project, 'node_modules', 'kron'));
const model = join(project, basename(values.model));
copyFileSync(resolve(values.model), model);
const [stop, step, rounds] = [values.stop, values.step, Number(values.rounds)];

// the package's CLI in a process that reports its own CPU time (all threads) at exit
const runner = join(work, 'kron.mjs');
writeFileSync(
  runner,
  `import { main } from ${JSON.stringify(main)};
process.on('exit', () => { const c = process.cpuUsage(); process.stderr.write('cpu ' + (c.user + c.system) + '\\n'); });
process.exitCode = await main(process.argv.slice(2));
`,
);
const kronCsv = join(work, 'kron.csv');
function kron(): number {
  const r = spawnSync(process.execPath, [runner, 'simulate', model, '--stop', stop, '--step', step, '--out', kronCsv], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, KRON_CACHE_DIR: join(work, 'cache') },
  });
  if (r.status !== 0) throw new Error(`kron simulate failed:\n${r.stderr}`);
  return Number(/cpu (\d+)/.exec(r.stderr)![1]) / 1e6;
}

function mujocoProgram(): string | undefined {
  const binary = join(work, 'run_mujoco');
  try {
    const flags = spawnSync('pkg-config', ['--cflags', '--libs', 'mujoco'], { encoding: 'utf8' });
    execFileSync(
      'g++',
      ['-O2', '-o', binary, join(root, 'bench/whole-run/run_mujoco.cpp'), ...(flags.status === 0 ? flags.stdout.trim().split(/\s+/) : ['-lmujoco'])],
      { stdio: 'pipe' },
    );
    return binary;
  } catch (e) {
    console.log(`# MuJoCo C column left out: run_mujoco did not build (${String((e as { stderr?: Buffer }).stderr ?? e).split('\n')[0]})`);
    return undefined;
  }
}

const mod = (await import(resolve(values.model))) as { default: (p?: Record<string, number>) => unknown };
const mech = mod.default();
const program = mech instanceof Mechanism ? mujocoProgram() : undefined;
const mujocoCsv = join(work, 'mujoco.csv');
let mujoco: (() => number) | undefined;
if (program) {
  const xml = join(work, 'model.xml');
  writeFileSync(xml, mjcf(mech as Mechanism, referenceValues(compile(mech as Mechanism))).xml);
  mujoco = () => {
    const r = spawnSync(program, [xml, mujocoCsv, stop, step], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`run_mujoco failed:\n${r.stderr}`);
    return Number(/cpu (\d+)/.exec(r.stderr)![1]) / 1e6;
  };
}

kron(); // fills the compile cache
const times: { kron: number[]; mujoco: number[] } = { kron: [], mujoco: [] };
for (let i = 0; i < rounds; i++) {
  times.kron.push(kron());
  if (mujoco) times.mujoco.push(mujoco());
}

// the same model: q and qd at t = 0.1 s (row 101 at h = 1 ms), Kron's j.q, j.qd against MuJoCo's q_i, qd_i
if (mujoco) {
  const row = (file: string, t: number) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const header = lines[0].split(',');
    const line = lines.slice(1).find((l) => Math.abs(Number(l.split(',')[0]) - t) < 1e-9)!;
    return new Map(line.split(',').map((v, i) => [header[i], Number(v)]));
  };
  const k = row(kronCsv, 0.1),
    m = row(mujocoCsv, 0.1);
  const joints = mjcf(mech as Mechanism, referenceValues(compile(mech as Mechanism))).joints;
  let worst = 0;
  joints.forEach((j, i) => {
    for (const [kn, mn] of [
      [`${j}.q`, `q${i}`],
      [`${j}.qd`, `qd${i}`],
    ])
      worst = Math.max(worst, Math.abs(k.get(kn)! - m.get(mn)!) / Math.max(1, Math.abs(m.get(mn)!)));
  });
  console.log(`# the same run: q and qd at t = 0.1 s agree to ${worst.toExponential(1)} (relative)`);
  if (!(worst < 1e-6)) throw new Error('Kron and MuJoCo do not run the same model: no comparison');
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const shown = (a: number[]) => a.map((s) => s.toFixed(3)).join(' ');
console.log(`| run | CPU s (median of ${rounds}) | rounds |`);
console.log('|---|---:|---|');
console.log(`| kron simulate ${values.model} --stop ${stop} (cache warm) | ${median(times.kron).toFixed(3)} | ${shown(times.kron)} |`);
if (mujoco) {
  console.log(`| MuJoCo C, RK4, same step, CSV | ${median(times.mujoco).toFixed(3)} | ${shown(times.mujoco)} |`);
  console.log(`\nkron / MuJoCo C: ${(median(times.kron) / median(times.mujoco)).toFixed(2)}`);
}
