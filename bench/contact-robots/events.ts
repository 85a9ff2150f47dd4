// Does locating contact make and break as events pay (simulate's option
// contactEvents, src/sim/contact-events.ts)? Two measurements, each with and
// without the events, CPU time by process.cpuUsage() (the fastest of
// --rounds, interleaved):
//   1. a sphere thrown at the plane in zero gravity (linear law, damping
//      ratio 0.3, no friction): its speed leaving against the law's
//      restitution e v0 (test/contact/closed-forms.ts: Schwager & Poeschel
//      2007), at radau and the adaptive method's tolerances 1e-4..1e-8;
//   2. MuJoCo's humanoid falling and landing, its first 2.5 s (bench/
//      contact-robots/humanoid.ts; its feet touch from the start, its knees,
//      hands and torso land from 1.2 s), both friction laws: events, steps,
//      rejections, evaluations, CPU, and the torso's distance at 2.5 s from
//      the run without events.
//
//   npx tsx bench/contact-robots/events.ts [--rounds 3]
import { parseArgs } from 'node:util';
import { ContactScene, Mechanism, compile, simulate } from '../../src/index.ts';
import type { SimulateOptions } from '../../src/sim/simulate.ts';
import { linearRestitution } from '../../test/contact/closed-forms.ts';
import { humanoidKron } from './humanoid.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);

const cpu = <T>(f: () => T): [T, number] => {
  const t = process.cpuUsage();
  const r = f();
  const d = process.cpuUsage(t);
  return [r, (d.user + d.system) / 1e6];
};
// (run, rounds) => its result and the fastest CPU time
const fastest = <T>(f: () => T): [T, number] => {
  let best = Infinity,
    out: T | undefined;
  for (let r = 0; r < rounds; r++) {
    const [res, s] = cpu(f);
    ((out = res), (best = Math.min(best, s)));
  }
  return [out!, best];
};

// ---- 1. the thrown sphere
const m = 2,
  k = 1e5,
  v0 = 1,
  r = 0.1,
  c = 2 * 0.3 * Math.sqrt(k * m),
  e = linearRestitution(m, k, c);
const mech = new Mechanism('throw', { gravity: [0, 0, 0] });
const j = mech.free('j', { r: [0, r + 0.01, 0], v: [0, -v0, 0] });
const ball = mech.body('ball', {
  m,
  I: [0.01, 0.01, 0.01],
  collision: [{ shape: { type: 'sphere', radius: r }, material: { stiffness: k, damping: c, friction: 0 } }],
});
mech.ground({ normal: [0, 1, 0] });
(mech.connect(mech.world.frame_b, j.frame_a), mech.connect(j.frame_b, ball.frame_a));
const compiled = compile(mech),
  contact = ContactScene.of(mech);
console.log(`1. a sphere thrown at the plane, zero gravity, zeta 0.3: leaves at e v0 = ${(e * v0).toFixed(9)} m/s (closed form)`);
console.log('integrator | rtol  | events | |v / (e v0) - 1| | steps | rejected | evaluations | CPU ms (x 20 runs)');
for (const integrator of ['radau', 'adaptive'] as const) {
  for (const rtol of [1e-4, 1e-6, 1e-8]) {
    for (const contactEvents of [false, true]) {
      const options: SimulateOptions = { stop: 0.05, interval: 0.05, integrator, rtol, atol: rtol * 1e-2, contact, contactEvents, signals: ['j.v[2]'] };
      const [res, s] = fastest(() => {
        let out;
        for (let i = 0; i < 20; i++) out = simulate(compiled, options);
        return out!;
      });
      const err = Math.abs(res.final('j.v[2]') / (e * v0) - 1),
        it = res.integration!;
      console.log(
        `${integrator.padEnd(10)} | ${rtol.toExponential(0)} | ${String(contactEvents).padEnd(6)} | ${err.toExponential(2).padStart(15)} | ${String(it.steps).padStart(5)} | ${String(it.rejected).padStart(8)} | ${String(it.evaluations).padStart(11)} | ${(s * 1e3).toFixed(1)}`,
      );
    }
  }
}

// ---- 2. the humanoid's first second
const HUMANOID_STOP = 2.5;
console.log(`\n2. MuJoCo's humanoid falling, its first ${HUMANOID_STOP} s (auto at its default tolerances)`);
console.log('friction       | events (located) | steps | rejected | evaluations | jacobians | CPU s | torso from the run without events (m)');
for (const friction of ['regularised', 'elasto-plastic'] as const) {
  const h = humanoidKron({ friction });
  let plain: number[] = [];
  for (const contactEvents of [false, true]) {
    const [res, s] = fastest(() =>
      simulate(h.compiled, { stop: HUMANOID_STOP, interval: 0.25, contact: h.contact, contactEvents, signals: ['root.r[1]', 'root.r[2]', 'root.r[3]'] }),
    );
    const p = (['root.r[1]', 'root.r[2]', 'root.r[3]'] as const).map((n) => res.final(n));
    const located = (res.events ?? []).reduce((a, ev) => a + ev.count, 0);
    if (!contactEvents) plain = p;
    const it = res.integration!;
    console.log(
      `${friction.padEnd(14)} | ${String(contactEvents).padEnd(5)} (${String(located).padStart(4)})     | ${String(it.steps).padStart(5)} | ${String(it.rejected).padStart(8)} | ${String(it.evaluations).padStart(11)} | ${String(it.jacobians).padStart(9)} | ${s.toFixed(3)} | ${Math.hypot(...p.map((x, i) => x - plain[i])).toExponential(2)}`,
    );
  }
}
