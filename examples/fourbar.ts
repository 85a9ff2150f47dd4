// fourbar: a crank-rocker four-bar linkage, a kinematic loop closed along the run.
//
// Four revolute joints about z in the x-y plane: the crank AB (a) turns about
// the world origin A, the rocker DC (c) about D = (d, 0), the coupler BC (b)
// joins them. The links satisfy Grashof's condition with the crank shortest,
// s + l <= p + q (0.2 + 0.6 <= 0.5 + 0.6), so the crank turns all the way
// round while the rocker swings between two angles: those where crank and
// coupler lie on one line, |AC| = b + a and |AC| = b - a. Gravity is off and
// nothing drives the crank: it keeps turning on its own momentum.
//
// The loop is cut at C (a planar cut joint, which constrains the two in-plane
// translations); Kron closes it at every evaluation. The run checks that the
// coupler's end and the rocker's end stay one point, and the rocker's range.
//
// Run it: npx tsx fourbar.ts
import { Mechanism, compile, simulate } from 'kron';

export const links = { a: 0.2, b: 0.6, c: 0.5, d: 0.6 };
const { a, b, c, d } = links;

const m = new Mechanism('fourbar', { gravity: [0, 0, 0] });
const z = [0, 0, 1] as const;
// the crank's angle and speed are the states; the other joints follow from the loop (q: a first guess)
const j1 = m.revolute('j1', { axis: z, q: Math.PI / 3, qd: 4, state: true });
const crank = m.bodyCylinder('crank', { r: [a, 0, 0], diameter: 0.02 });
const j2 = m.revolute('j2', { axis: z, q: -0.5 });
const coupler = m.bodyCylinder('coupler', { r: [b, 0, 0], diameter: 0.02 });
const j3 = m.revolute('j3', { axis: z, cut: 'planar' });
const ground = m.bar('ground', { r: [d, 0, 0] });
const j4 = m.revolute('j4', { axis: z, q: 1.5 });
const rocker = m.bodyCylinder('rocker', { r: [c, 0, 0], diameter: 0.02 });
m.connect(m.world.frame_b, j1.frame_a);
m.connect(j1.frame_b, crank.frame_a);
m.connect(crank.frame_b, j2.frame_a);
m.connect(j2.frame_b, coupler.frame_a);
m.connect(coupler.frame_b, j3.frame_a);
m.connect(m.world.frame_b, ground.frame_a);
m.connect(ground.frame_b, j4.frame_a);
m.connect(j4.frame_b, rocker.frame_a);
m.connect(rocker.frame_b, j3.frame_b);

export const result = simulate(compile(m), { stop: 4, interval: 1e-3, signals: ['j1.q', 'j2.q', 'j4.q'] });
const [q1, q2, q4] = [result.get('j1.q'), result.get('j2.q'), result.get('j4.q')];

/** the distance between the coupler's end C and the rocker's end, from the joint angles: zero when the loop is closed */
export function loopResidual(t1: number, t2: number, t4: number): number {
  const cx = a * Math.cos(t1) + b * Math.cos(t1 + t2),
    cy = a * Math.sin(t1) + b * Math.sin(t1 + t2);
  return Math.hypot(cx - (d + c * Math.cos(t4)), cy - c * Math.sin(t4));
}

let residual = 0,
  low = Infinity,
  high = -Infinity;
for (let k = 0; k < result.length; k++) {
  residual = Math.max(residual, loopResidual(q1[k], q2[k], q4[k]));
  [low, high] = [Math.min(low, q4[k]), Math.max(high, q4[k])];
}
/** the rocker's angle where |AC| = r, on the upper branch: |C|^2 = d^2 + c^2 + 2 d c cos(theta4) */
const rockerAt = (r: number) => Math.acos((r * r - d * d - c * c) / (2 * d * c));
export const turns = (q1[result.length - 1] - q1[0]) / (2 * Math.PI);
export const rockerRange = { low, high, lowClosed: rockerAt(b + a), highClosed: rockerAt(b - a) };

console.log(`largest loop residual  ${residual.toExponential(2)} m`);
console.log(`crank turns            ${turns.toFixed(3)}`);
console.log(`rocker swings between  ${low.toFixed(5)} and ${high.toFixed(5)} rad`);
console.log(`closed form            ${rockerRange.lowClosed.toFixed(5)} and ${rockerRange.highClosed.toFixed(5)} rad`);
export const largestResidual = residual;
