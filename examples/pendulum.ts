// pendulum: a swinging rod, its period measured against the small-angle closed form.
//
// A rod of 1 kg and 1 m hangs from a revolute joint about z (gravity along -y)
// and swings 0.1 rad either side of straight down. Its small-angle period is
// T0 = 2 pi sqrt(Ip / (m g d)), with Ip = I + m d^2 the inertia about the pivot
// and d the distance to the centre of mass. The run measures the period from
// the times the rod passes straight down; at 0.1 rad the true period is
// longer than T0 by about theta0^2 / 16 = 0.06%.
//
// Run it: npx tsx pendulum.ts
import { Mechanism, compile, simulate } from 'kron';

export const rod = { m: 1, L: 1, d: 0.5, g: 9.80665 };
/** the inertia about the centre of mass (a thin rod, kg m^2) and about the pivot */
export const I = (rod.m * rod.L ** 2) / 12;
const Ip = I + rod.m * rod.d ** 2;
/** amplitude (rad) from straight down, which is q = -pi/2 (the rod lies along x at q = 0) */
export const theta0 = 0.1;
const down = -Math.PI / 2;

const m = new Mechanism('pendulum');
const j1 = m.revolute('j1', { axis: [0, 0, 1], q: down + theta0 });
const link = m.body('rod', { m: rod.m, rcm: [rod.d, 0, 0], I: [I / 100, I, I] });
m.connect(m.world.frame_b, j1.frame_a);
m.connect(j1.frame_b, link.frame_a);

// a tight error control, samples every millisecond to find the crossings
const result = simulate(compile(m), { stop: 4, interval: 1e-3, integrator: 'adaptive', rtol: 1e-10, atol: 1e-12, signals: ['j1.q'] });

/** the times the rod passes straight down moving the same way as at the first crossing, by linear interpolation */
function crossings(time: ArrayLike<number>, q: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let k = 1; k < time.length; k++) {
    const a = q[k - 1] - down,
      b = q[k] - down;
    if (a > 0 && b <= 0) out.push(time[k - 1] + (a / (a - b)) * (time[k] - time[k - 1]));
  }
  return out;
}

const passes = crossings(result.time, result.get('j1.q'));
/** the measured period: first to last crossing, over the whole periods between them */
export const period = (passes.at(-1)! - passes[0]) / (passes.length - 1);
/** the small-angle closed form */
export const smallAngle = 2 * Math.PI * Math.sqrt(Ip / (rod.m * rod.g * rod.d));

console.log(`measured period     ${period.toFixed(6)} s (${passes.length - 1} periods)`);
console.log(`small-angle T0      ${smallAngle.toFixed(6)} s`);
console.log(`longer by           ${((period / smallAngle - 1) * 100).toFixed(4)} % (theta0^2/16 = ${((theta0 ** 2 / 16) * 100).toFixed(4)} %)`);
