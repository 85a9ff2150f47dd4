// linearization: a pendulum linearized hanging down and standing up; eigenvalues +-i sqrt(g/l).
//
// linearize(model, { at }) gives x' = A x + B u about an operating point,
// exactly (the equations differentiated symbolically, not by differences).
// For a pendulum of mass m whose centre of mass is d from the pivot, with
// inertia Ip about the pivot, the equivalent length is l = Ip / (m d): hanging
// down, the eigenvalues of A are +-i sqrt(g / l), an oscillation of that
// angular frequency; standing up, +-sqrt(g / l), one mode that grows.
//
// Run it: npx tsx linearization.ts
import { Mechanism, linearize } from 'kron';

export const rod = { m: 0.5, d: 0.5, Izz: 0.135, g: 9.80665 };

const m = new Mechanism('pendulum'); // gravity along -y: straight down is q = -pi/2
const j1 = m.revolute('j1', { axis: [0, 0, 1] });
const link = m.body('rod', { m: rod.m, rcm: [rod.d, 0, 0], I: [rod.Izz / 100, rod.Izz, rod.Izz] });
m.connect(m.world.frame_b, j1.frame_a);
m.connect(j1.frame_b, link.frame_a);

export const down = linearize(m, { at: { 'j1.q': -Math.PI / 2, 'j1.qd': 0 }, inputs: ['j1.tau'] });
export const up = linearize(m, { at: { 'j1.q': Math.PI / 2, 'j1.qd': 0 } });

const show = (e: { re: number; im: number }) => `${e.re.toFixed(9)} ${e.im < 0 ? '-' : '+'} ${Math.abs(e.im).toFixed(9)}i`;
console.log(`states ${down.states.join(', ')}; A hanging down = ${JSON.stringify(down.A)}, B = ${JSON.stringify(down.B)}`);
console.log(`eigenvalues hanging down:  ${down.eigenvalues.map(show).join(', ')}`);
console.log(`eigenvalues standing up:   ${up.eigenvalues.map(show).join(', ')}`);
const l = (rod.Izz + rod.m * rod.d ** 2) / (rod.m * rod.d);
console.log(`sqrt(g/l), l = Ip/(m d) = ${l} m: ${Math.sqrt(rod.g / l).toFixed(9)} 1/s`);
