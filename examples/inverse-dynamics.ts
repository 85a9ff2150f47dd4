// inverse-dynamics: the joint torques that make a double pendulum move as asked, and back.
//
// compile(model, { problem: 'inverse' }) makes the joints' q, qd and qdd known
// and their torques tau the unknowns: the compiled code is the recursive
// Newton-Euler algorithm, found by the compiler, not written by hand. Here it
// gives the torques of a two-link arm (links about z in the x-y plane, gravity
// along -y) for one state and acceleration, the mass matrix M(q) and the bias
// h(q, qd) (gravity and velocity terms), so that tau = M qdd + h. Then forward
// dynamics, given those torques, must return the acceleration asked for.
//
// Run it: npx tsx inverse-dynamics.ts
import { Mechanism, compile, simulate } from 'kron';

/** rod k: mass, length, centre of mass from its joint, inertia about the centre of mass (about z) */
export const rods = { m1: 1, L1: 1, lc1: 0.5, I1: 1 / 12, m2: 0.5, lc2: 0.4, I2: 0.03, g: 9.80665 };

const m = new Mechanism('arm');
const j1 = m.revolute('j1', { axis: [0, 0, 1] });
const link1 = m.body('link1', { m: rods.m1, rcm: [rods.lc1, 0, 0], I: [rods.I1 / 100, rods.I1, rods.I1] });
const elbow = m.bar('elbow', { r: [rods.L1, 0, 0] });
const j2 = m.revolute('j2', { axis: [0, 0, 1] });
const link2 = m.body('link2', { m: rods.m2, rcm: [rods.lc2, 0, 0], I: [rods.I2 / 100, rods.I2, rods.I2] });
m.connect(m.world.frame_b, j1.frame_a);
m.connect(j1.frame_b, link1.frame_a);
m.connect(j1.frame_b, elbow.frame_a);
m.connect(elbow.frame_b, j2.frame_a);
m.connect(j2.frame_b, link2.frame_a);

/** the state and the acceleration asked for */
export const q = [0.3, -0.7],
  qd = [1.2, -0.4],
  qdd = [2, -1];

const inv = compile(m, { problem: 'inverse' });
export const tau = [...inv.inverse(0, q, qd, qdd)];
export const M = [...inv.massMatrix(q)]; // 2 x 2, row-major
export const h = [...inv.bias(q, qd)];
console.log(`torques for qdd = [${qdd}]: ${inv.coordinates.map((c, k) => `${c.tau} = ${tau[k].toFixed(6)} N m`).join(', ')}`);
console.log(`mass matrix M(q) = [${M.map((v) => v.toFixed(6))}], bias h = [${h.map((v) => v.toFixed(6))}]`);
const split = [0, 1].map((i) => M[2 * i] * qdd[0] + M[2 * i + 1] * qdd[1] + h[i] - tau[i]);
console.log(`M qdd + h - tau = [${split.map((v) => v.toExponential(1))}]`);

// forward dynamics with those torques as the joints' drives: the acceleration comes back
const forward = simulate(compile(m), {
  stop: 0,
  start: { 'j1.q': q[0], 'j2.q': q[1], 'j1.qd': qd[0], 'j2.qd': qd[1] },
  inputs: { 'j1.tau': tau[0], 'j2.tau': tau[1] },
  signals: ['der(j1.qd)', 'der(j2.qd)'],
});
export const back = [forward.final('der(j1.qd)'), forward.final('der(j2.qd)')];
console.log(`forward dynamics with them: qdd = [${back.map((v) => v.toFixed(12))}]`);
