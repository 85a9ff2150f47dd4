// Robots with contact, side by side with MuJoCo (issue 32): menagerie's Go2
// standing 10 s under PD (bench/contact-robots/go2.ts) and MuJoCo's humanoid
// falling on its plane (bench/contact-robots/humanoid.ts), each in Kron and
// in MuJoCo WebAssembly (same process), then the CPU time per simulated
// second of Kron (both forms, the default integrator auto at its default
// tolerances), MuJoCo WebAssembly (mj_step at the file's step, the PD law
// in JavaScript between steps) and MuJoCo C (../shared/peers/native's
// bench_mujoco_xml --contacts on --what step: ns per mj_step from the
// file's keyframe or pose, no PD; times steps per second). CPU time is
// process.cpuUsage() around whole runs, --rounds rounds interleaved, the
// fastest kept. Accuracy: each side against itself refined (Kron at rtol
// 1e-9, MuJoCo at a tenth of its step), the base height at the end.
// Each Kron part runs with both friction laws (contact/law.ts regularised,
// the default; contact/elasto-plastic.ts), or the one --friction names.
// Writes bench/results/contact-robots.json (everything) and
// contact-robots-accuracy.json and contact-robots-cpu.json (the tables of
// docs/performance/contact.md),
// and prints the tables.
//
//   npm run bench:contact [-- --rounds 2] [--mujoco-c /tmp/dv/bench_mujoco_xml] [--friction regularised|elasto-plastic|both]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { simulate } from '../src/index.ts';
import { UsageError } from '../src/errors.ts';
import { FIXTURES, G, type Go2, go2Kron, go2Mujoco, go2PdXml } from './contact-robots/go2.ts';
import { type Humanoid, humanoidKron, humanoidMujoco } from './contact-robots/humanoid.ts';
import type { FrictionLaw } from '../src/contact/law.ts';
import { writeBenchResult } from './results.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    'mujoco-c': { type: 'string', default: '/tmp/dv/bench_mujoco_xml' },
    friction: { type: 'string', default: 'both' },
  },
});
const rounds = Number(values.rounds);
if (!(Number.isInteger(rounds) && rounds > 0)) throw new UsageError(`--rounds ${values.rounds} is not a whole number > 0`, { hint: 'e.g. --rounds 2' });
const LAWS: readonly FrictionLaw[] = ['regularised', 'elasto-plastic'];
const laws = values.friction === 'both' ? LAWS : LAWS.filter((l) => l === values.friction);
if (!laws.length) throw new UsageError(`--friction ${values.friction} is not known`, { hint: 'use regularised, elasto-plastic or both' });

const GO2_STOP = 10,
  HUMANOID_STOP = 5;
const cpuSeconds = (f: () => void): number => {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1e6;
};
const fmt = (x: number, d = 6) => x.toFixed(d);
const e = (x: number) => x.toExponential(2);

type Scene = Go2 | Humanoid;
const baseOf = (s: Scene) => ('controller' in s ? 'base_free' : 'root');
// (scene, stop, interval, rtol) => Kron's run: base position and the total normal force per sample
function kronRun(s: Scene, stop: number, interval: number, rtol?: number, integrator?: 'radau') {
  const b = baseOf(s);
  const r = simulate(s.compiled, {
    stop,
    interval,
    signals: [`${b}.r[1]`, `${b}.r[2]`, `${b}.r[3]`, ...s.normalForces],
    contact: s.contact,
    ...('controller' in s && { controller: s.controller, start: s.start }),
    // refined: radau at rtol (auto may stay with RK4, whose step rtol does not refine)
    ...(rtol && { rtol, atol: rtol, integrator: 'radau' as const }),
    ...(integrator && { integrator }),
  });
  const time = Array.from(r.get('time'));
  return {
    time,
    integration: r.integration,
    base: time.map((_, i) => [1, 2, 3].map((k) => r.get(`${b}.r[${k}]`)[i])),
    normal: time.map((_, i) => s.normalForces.reduce((f, n) => f + r.get(n)[i], 0)),
  };
}

// MuJoCo's run at the same sample times (its own step; refine: steps per step divided, the time step shortened)
async function mujocoRun(which: 'go2' | 'humanoid', stop: number, interval: number, refine = 1) {
  const m = which === 'go2' ? await go2Mujoco() : await humanoidMujoco();
  m.peer.model.opt.timestep = m.step / refine;
  const per = Math.round(interval / (m.step / refine));
  const out = { time: [] as number[], base: [] as number[][], normal: [] as number[], self: [] as number[], mass: m.mass };
  for (let i = 0; i * interval <= stop + 1e-9; i++) {
    if (i) for (let k = 0; k < per; k++) m.advance();
    (out.time.push(m.time()), out.base.push(m.base()));
    out.normal.push('normalForce' in m ? m.normalForce() : m.floorForce());
    out.self.push('selfContacts' in m ? m.selfContacts() : 0);
  }
  m.peer.delete();
  return out;
}

// MuJoCo's runs, once: side by side, and refined (a tenth of its step) for its accuracy
const mGo2 = await mujocoRun('go2', GO2_STOP, 0.1),
  mH = await mujocoRun('humanoid', HUMANOID_STOP, 0.25);
const mGo2Ref = await mujocoRun('go2', GO2_STOP, 0.1, 10),
  mHRef = await mujocoRun('humanoid', 1, 0.25, 10);
const at = (time: number[], t: number) => time.findIndex((s) => Math.abs(s - t) < 1e-9);
const drift = (base: number[][], time: number[], from: number, to: number) =>
  Math.hypot(...[0, 1, 2].map((k) => base[at(time, to)][k] - base[at(time, from)][k]));
const settled = (normal: number[], time: number[], from: number, w: number) =>
  Math.max(...normal.filter((_, i) => time[i] >= from - 1e-9).map((f) => Math.abs(f / w - 1)));
// the largest difference of the base position over the samples
const worst = (a: number[][], b: number[][]) => Math.max(...a.map((p, i) => Math.hypot(...p.map((x, k) => x - b[i][k]))));

// (friction law) => Go2 standing and the humanoid falling, side by side with MuJoCo, and each side's accuracy
function sideBySide(friction: FrictionLaw) {
  // ---- 1. Go2 standing, 2. the humanoid falling: side by side
  const go2 = go2Kron({ friction });
  const weightGo2 = go2.mass * G;
  const kGo2 = kronRun(go2, GO2_STOP, 0.1);
  console.log(`[${friction} friction] Go2 standing under PD (kp ${'100'}, kd 2), ${GO2_STOP} s; mass ${fmt(go2.mass)} kg, weight ${fmt(weightGo2, 4)} N`);
  console.log('t (s)  | Kron z (m)  MuJoCo z (m)  diff (mm) | Kron sum fn / W - 1   MuJoCo');
  for (const t of [0.2, 0.5, 1, 2, 5, 10]) {
    const i = at(kGo2.time, t),
      j = at(mGo2.time, t);
    console.log(
      `${t.toFixed(1).padStart(6)} | ${fmt(kGo2.base[i][2])}  ${fmt(mGo2.base[j][2])}  ${((kGo2.base[i][2] - mGo2.base[j][2]) * 1e3).toFixed(3).padStart(8)} | ${e(kGo2.normal[i] / weightGo2 - 1).padStart(10)}  ${e(mGo2.normal[j] / weightGo2 - 1).padStart(10)}`,
    );
  }
  const go2Summary = {
    mass: go2.mass,
    integration: kGo2.integration,
    settledForce: { kron: settled(kGo2.normal, kGo2.time, 1, weightGo2), mujoco: settled(mGo2.normal, mGo2.time, 1, weightGo2) },
    drift1to10: { kron: drift(kGo2.base, kGo2.time, 1, 10), mujoco: drift(mGo2.base, mGo2.time, 1, 10) },
    heightAt10: { kron: kGo2.base.at(-1)![2], mujoco: mGo2.base.at(-1)![2] },
    nonFinite: kGo2.base.flat().some((x) => !Number.isFinite(x)),
  };
  console.log(
    `settled (t >= 1 s): max |sum fn / W - 1| Kron ${e(go2Summary.settledForce.kron)}, MuJoCo ${e(go2Summary.settledForce.mujoco)}; base moved from 1 s to 10 s: Kron ${e(go2Summary.drift1to10.kron)} m, MuJoCo ${e(go2Summary.drift1to10.mujoco)} m`,
  );
  console.log(`Kron: ${kGo2.integration?.integrator} ${JSON.stringify(kGo2.integration)}\n`);

  const humanoid = humanoidKron({ friction });
  const weightH = humanoid.mass * G;
  const kH = kronRun(humanoid, HUMANOID_STOP, 0.25);
  console.log(
    `[${friction} friction] MuJoCo's humanoid falling on its plane, ${HUMANOID_STOP} s; mass ${fmt(humanoid.mass)} kg (MuJoCo ${fmt(mH.mass)}), weight ${fmt(weightH, 3)} N`,
  );
  console.log('t (s)  | Kron torso z  MuJoCo z  | Kron x    MuJoCo x | Kron fn / W  MuJoCo (floor)  MuJoCo self-contacts');
  for (let i = 0; i < kH.time.length; i++) {
    console.log(
      `${kH.time[i].toFixed(2).padStart(6)} | ${fmt(kH.base[i][2], 4).padStart(11)}  ${fmt(mH.base[i][2], 4)}  | ${fmt(kH.base[i][0], 4).padStart(7)}  ${fmt(mH.base[i][0], 4).padStart(7)} | ${fmt(kH.normal[i] / weightH, 4).padStart(10)}  ${fmt(mH.normal[i] / weightH, 4).padStart(10)}  ${mH.self[i]}`,
    );
  }
  const humanoidSummary = {
    mass: humanoid.mass,
    integration: kH.integration,
    restForce: { kron: kH.normal.at(-1)! / weightH - 1, mujoco: mH.normal.at(-1)! / weightH - 1 },
    restHeight: { kron: kH.base.at(-1)![2], mujoco: mH.base.at(-1)![2] },
    lastSecondMoved: { kron: drift(kH.base, kH.time, HUMANOID_STOP - 1, HUMANOID_STOP), mujoco: drift(mH.base, mH.time, HUMANOID_STOP - 1, HUMANOID_STOP) },
  };
  console.log(
    `at rest: sum fn / W - 1 Kron ${e(humanoidSummary.restForce.kron)}, MuJoCo ${e(humanoidSummary.restForce.mujoco)}; torso moved in the last second: Kron ${e(humanoidSummary.lastSecondMoved.kron)} m, MuJoCo ${e(humanoidSummary.lastSecondMoved.mujoco)} m\n`,
  );
  console.log(`Kron: ${kH.integration?.integrator} ${JSON.stringify(kH.integration)}\n`);

  // ---- 3. accuracy: each side against itself refined
  const kGo2Ref = kronRun(go2, GO2_STOP, 0.1, 1e-9);
  const kHRef = kronRun(humanoid, 1, 0.25, 1e-9);
  const accuracy = {
    go2: { kron: worst(kGo2.base, kGo2Ref.base), mujoco: worst(mGo2.base, mGo2Ref.base) },
    humanoidFirstSecond: { kron: worst(kH.base.slice(0, 5), kHRef.base), mujoco: worst(mH.base.slice(0, 5), mHRef.base) },
    // radau at its default tolerances, where auto ran RK4 (its fixed step's error is not the law's)
    radau: {
      go2: worst(kronRun(go2, GO2_STOP, 0.1, undefined, 'radau').base, kGo2Ref.base),
      humanoidFirstSecond: worst(kronRun(humanoid, 1, 0.25, undefined, 'radau').base, kHRef.base),
    },
  };
  console.log(
    `[${friction} friction] accuracy, the base's largest distance from its own refined run (Kron rtol 1e-9, MuJoCo step / 10): Go2 over ${GO2_STOP} s Kron ${e(accuracy.go2.kron)} m, MuJoCo ${e(accuracy.go2.mujoco)} m; humanoid over its first second Kron ${e(accuracy.humanoidFirstSecond.kron)} m, MuJoCo ${e(accuracy.humanoidFirstSecond.mujoco)} m; Kron with radau: Go2 ${e(accuracy.radau.go2)} m, humanoid ${e(accuracy.radau.humanoidFirstSecond)} m\n`,
  );
  return { go2: go2Summary, humanoid: humanoidSummary, accuracy };
}
const byLaw = Object.fromEntries(laws.map((l) => [l, sideBySide(l)]));

// ---- 4. CPU time per simulated second
const dir = mkdtempSync(join(tmpdir(), 'kron-contact-'));
const go2File = join(dir, 'go2-flat.xml');
writeFileSync(go2File, go2PdXml());
// (file, its step, the simulated seconds, its keyframe) => MuJoCo C's CPU seconds per simulated second (the fastest of 3 trials of the whole run)
function mujocoC(file: string, step: number, stop: number, keyframe?: number): number | undefined {
  if (!existsSync(values['mujoco-c'])) return undefined;
  const args = [
    file,
    '--contacts',
    'on',
    '--what',
    'step',
    '--steps',
    String(Math.round(stop / step)),
    '-r',
    '3',
    ...(keyframe !== undefined ? ['--keyframe', String(keyframe)] : []),
  ];
  const out = execFileSync(values['mujoco-c'], args, { encoding: 'utf8' });
  const ns = Number(/^step ([\d.]+)/m.exec(out)?.[1]);
  return (ns * 1e-9) / step;
}
const subjects: { scene: string; who: string; stop: number; run: () => Promise<void> | void }[] = [];
for (const mode of ['torn', 'relaxed'] as const) {
  for (const friction of laws) {
    const g = go2Kron({ mode, friction }),
      h = humanoidKron({ mode, friction }),
      who = `Kron ${mode}${friction === 'regularised' ? '' : ' e-p'}`;
    subjects.push({ scene: 'go2', who, stop: GO2_STOP, run: () => void kronRun(g, GO2_STOP, GO2_STOP) });
    subjects.push({ scene: 'humanoid', who, stop: HUMANOID_STOP, run: () => void kronRun(h, HUMANOID_STOP, HUMANOID_STOP) });
    // auto runs elasto-plastic friction with radau from the start (sim/steppers/auto.ts); radau asked for by name too, the rows kept
    if (friction !== 'regularised') {
      subjects.push({ scene: 'go2', who: `${who} radau`, stop: GO2_STOP, run: () => void kronRun(g, GO2_STOP, GO2_STOP, undefined, 'radau') });
      subjects.push({
        scene: 'humanoid',
        who: `${who} radau`,
        stop: HUMANOID_STOP,
        run: () => void kronRun(h, HUMANOID_STOP, HUMANOID_STOP, undefined, 'radau'),
      });
    }
  }
}
const wasm = { go2: await go2Mujoco(), humanoid: await humanoidMujoco() };
for (const [scene, m] of Object.entries(wasm)) {
  const stop = scene === 'go2' ? GO2_STOP : HUMANOID_STOP;
  subjects.push({
    scene,
    who: 'MuJoCo WebAssembly',
    stop,
    run: () => {
      const n = Math.round(stop / m.step);
      for (let k = 0; k < n; k++) m.advance();
    },
  });
}
const best = new Map<string, number>();
for (let r = 0; r < rounds; r++) {
  for (const s of subjects) {
    const key = `${s.scene}|${s.who}`;
    const seconds = cpuSeconds(() => void s.run()) / s.stop;
    best.set(key, Math.min(best.get(key) ?? Infinity, seconds));
  }
  for (const [scene, file, step, stop, key] of [
    ['go2', go2File, wasm.go2.step, GO2_STOP, 0],
    ['humanoid', FIXTURES + 'humanoid.xml', wasm.humanoid.step, HUMANOID_STOP, undefined],
  ] as const) {
    const c = mujocoC(file, step, stop, key);
    if (c !== undefined) best.set(`${scene}|MuJoCo C`, Math.min(best.get(`${scene}|MuJoCo C`) ?? Infinity, c));
  }
}
Object.values(wasm).forEach((m) => m.peer.delete());
const cpu = [...best].map(([key, seconds]) => ({ scene: key.split('|')[0], who: key.split('|')[1], cpuPerSimulatedSecond: seconds }));
console.log('CPU time per simulated second (fastest of', rounds, 'rounds)');
console.log('scene     | subject              | CPU s per s   | x MuJoCo C');
for (const c of cpu) {
  const ref = best.get(`${c.scene}|MuJoCo C`);
  console.log(
    `${c.scene.padEnd(9)} | ${c.who.padEnd(20)} | ${c.cpuPerSimulatedSecond.toFixed(4).padStart(12)}  | ${ref ? (c.cpuPerSimulatedSecond / ref).toFixed(2) : '-'}`,
  );
}
const results = new URL('results/', import.meta.url).pathname;
mkdirSync(results, { recursive: true });
writeFileSync(
  results + 'contact-robots.json',
  JSON.stringify({ date: new Date().toISOString(), rounds, ...(byLaw.regularised ?? {}), byLaw, cpu }, null, 2) + '\n',
);
// the accuracy and CPU tables as docs/performance/contact.md shows them (generated: npm run docs:bench)
const sci = (x: number) => x.toExponential(1);
const lawRuns = LAWS.map((l) => byLaw[l]);
const row = (label: string, kron: (s: ReturnType<typeof sideBySide>) => string, mujoco: string) => [label, ...lawRuns.map((s) => (s ? kron(s) : '–')), mujoco];
const any = Object.values(byLaw)[0];
const counts = (i: ReturnType<typeof sideBySide>['go2']['integration']) => (i ? `${i.steps} / ${i.rejected} / ${i.evaluations}` : '–');
writeBenchResult({
  name: 'contact-robots-accuracy',
  command: `npm run bench:contact -- --rounds ${rounds}${values.friction === 'both' ? '' : ` --friction ${values.friction}`}`,
  columns: [{ label: 'quantity' }, ...LAWS.map((l) => ({ label: `Kron, ${l}`, align: 'right' as const })), { label: 'MuJoCo', align: 'right' }],
  rows: [
    row('Go2: base height at 10 s (m)', (s) => s.go2.heightAt10.kron.toFixed(6), any.go2.heightAt10.mujoco.toFixed(6)),
    row('Go2: base moved from 1 s to 10 s (m)', (s) => sci(s.go2.drift1to10.kron), sci(any.go2.drift1to10.mujoco)),
    row('Go2: largest abs(Σfn / W − 1) from 1 s', (s) => sci(s.go2.settledForce.kron), sci(any.go2.settledForce.mujoco)),
    row('Go2: base from its own refined run (m)', (s) => sci(s.accuracy.go2.kron), sci(any.accuracy.go2.mujoco)),
    row('Go2: steps / rejected / evaluations', (s) => counts(s.go2.integration), `${Math.round(GO2_STOP / wasm.go2.step)} steps`),
    row('humanoid: torso height at 5 s (m)', (s) => s.humanoid.restHeight.kron.toFixed(4), any.humanoid.restHeight.mujoco.toFixed(4)),
    row('humanoid: Σfn / W − 1 at 5 s', (s) => sci(s.humanoid.restForce.kron), sci(any.humanoid.restForce.mujoco)),
    row('humanoid: torso moved in the last second (m)', (s) => sci(s.humanoid.lastSecondMoved.kron), sci(any.humanoid.lastSecondMoved.mujoco)),
    row(
      'humanoid: base from its own refined run, first second (m)',
      (s) => sci(s.accuracy.humanoidFirstSecond.kron),
      sci(any.accuracy.humanoidFirstSecond.mujoco),
    ),
    row('humanoid: steps / rejected / evaluations', (s) => counts(s.humanoid.integration), `${Math.round(HUMANOID_STOP / wasm.humanoid.step)} steps`),
  ],
  raw: [byLaw],
});
const lawsArg = values.friction === 'both' ? '' : ` --friction ${values.friction}`;
writeBenchResult({
  name: 'contact-robots-cpu',
  command: `npm run bench:contact -- --rounds ${rounds}${lawsArg}`,
  columns: [{ label: 'scene' }, { label: 'subject' }, { label: 'CPU s per simulated s', align: 'right' }, { label: '× MuJoCo C', align: 'right' }],
  rows: cpu.map((c) => {
    const ref = best.get(`${c.scene}|MuJoCo C`);
    return [
      c.scene === 'go2' ? 'Go2 standing, 10 s' : 'humanoid falling, 5 s',
      c.who,
      c.cpuPerSimulatedSecond.toPrecision(3),
      ref ? (c.cpuPerSimulatedSecond / ref).toFixed(2) : '–',
    ];
  }),
  raw: cpu,
});
console.log(`\nwritten: bench/results/contact-robots.json, contact-robots-accuracy.json, contact-robots-cpu.json`);
