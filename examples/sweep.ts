// sweep: a pendulum compiled once and run for eight lengths; period against 2 pi sqrt(L/g).
//
// A ball of 0.2 kg and radius 2 cm on a massless rod of length L swings 0.05
// rad either side of straight down. Compiled with foldParameters: false, the
// rod's length (the body's centre of mass, the parameter 'ball.r_cm[1]') stays
// a parameter of the generated code, so each run sets its own without
// compiling again. The period of each run is measured and set against the
// small-angle closed form of this pendulum, T0 = 2 pi sqrt(Ip / (m g L)) with
// Ip = m L^2 + (2/5) m r^2 (2 pi sqrt(L / g) for a point mass).
//
// For thousands of runs on every core, or on many machines through a Redis
// queue, the same model as a model module (export default function build()):
// kron sweep model.ts --grid 'ball.r_cm[1]=0.25:2:8', or sweep() from code.
//
// Run it: npx tsx sweep.ts
import { Mechanism, compile, simulate } from 'kron';

export const ball = { m: 0.2, r: 0.02, g: 9.80665 };
export const theta0 = 0.05;
export const lengths = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];
const down = -Math.PI / 2;
const I = (2 / 5) * ball.m * ball.r ** 2;

const m = new Mechanism('pendulum');
const j1 = m.revolute('j1', { axis: [0, 0, 1], q: down + theta0 });
const body = m.body('ball', { m: ball.m, rcm: [lengths[0], 0, 0], I: [I, I, I] });
m.connect(m.world.frame_b, j1.frame_a);
m.connect(j1.frame_b, body.frame_a);
const compiled = compile(m, { foldParameters: false });

/** the time between the first and the last pass through straight down in one direction, per period */
function period(time: ArrayLike<number>, q: ArrayLike<number>): number {
  const passes: number[] = [];
  for (let k = 1; k < time.length; k++) {
    const a = q[k - 1] - down,
      b = q[k] - down;
    if (a > 0 && b <= 0) passes.push(time[k - 1] + (a / (a - b)) * (time[k] - time[k - 1]));
  }
  return (passes.at(-1)! - passes[0]) / (passes.length - 1);
}

export const rows = lengths.map((L) => {
  const T0 = 2 * Math.PI * Math.sqrt((ball.m * L ** 2 + I) / (ball.m * ball.g * L));
  // a little over two periods, whatever the length
  const run = simulate(compiled, {
    stop: 2.3 * T0,
    interval: 1e-3,
    integrator: 'adaptive',
    rtol: 1e-10,
    atol: 1e-12,
    parameters: { 'ball.r_cm[1]': L },
    signals: ['j1.q'],
  });
  return { L, period: period(run.time, run.get('j1.q')), T0 };
});

console.log('L (m)   period (s)   closed form T0 (s)   ratio');
for (const r of rows) console.log(`${r.L.toFixed(2)}    ${r.period.toFixed(6)}     ${r.T0.toFixed(6)}             ${(r.period / r.T0).toFixed(6)}`);
console.log(`(the ratio 1 + theta0^2/16 = ${(1 + theta0 ** 2 / 16).toFixed(6)} at this amplitude)`);
