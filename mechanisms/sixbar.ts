// A Watt I six-bar: two planar four-bars in series, sharing the ternary
// rocker. Two independent loops, one degree of freedom (Gruebler:
// 3 (6 - 1) - 2 * 7 = 1). No joint is marked: the builder finds the spanning
// tree, cuts both loops with planar revolute cuts and picks the state joint
// (the compile report's `kinematics` says which).
//
//   ground pivots A = (0,0), D = (dD, 0), F = (dF, 0)
//   loop 1: crank AB (a) - coupler BC (b) - ternary rocker DC (c)
//   loop 2: ternary arm DE (e, at angle alpha from DC) - coupler EG (g) - rocker FG (f)
import { Mechanism } from 'kron';

export const parameters = {
  a: 0.2,
  b: 0.6,
  c: 0.5,
  dD: 0.6,
  e: 0.4,
  alpha: Math.PI / 3,
  g: 0.7,
  f: 0.5,
  dF: 1.3,
  /** start crank angle and speed */
  theta: Math.PI / 3,
  w: 3,
  diameter: 0.02,
};

/** start guesses of the joints the loops may determine (rad), for theta = pi/3 */
const GUESS = { jB: -0.47, jC: 2.1, jD: 1.56, jE: -2.4, jG: 2.17, jF: 2.38 };

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const m = new Mechanism('sixbar');
  const z = [0, 0, 1] as const;
  const look = (color: string) => ({ diameter: o.diameter, color });
  const jA = m.revolute('jA', { axis: z, q: o.theta, qd: o.w });
  const crank = m.bodyCylinder('crank', { r: [o.a, 0, 0], ...look('#c0392b') });
  const jB = m.revolute('jB', { axis: z, q: GUESS.jB });
  const coupler1 = m.bodyCylinder('coupler1', { r: [o.b, 0, 0], ...look('#27ae60') });
  const jC = m.revolute('jC', { axis: z, q: GUESS.jC });
  const groundD = m.bar('groundD', { r: [o.dD, 0, 0] });
  const jD = m.revolute('jD', { axis: z, q: GUESS.jD });
  const rockerDC = m.bodyCylinder('rockerDC', { r: [o.c, 0, 0], ...look('#2980b9') });
  const rockerDE = m.bodyCylinder('rockerDE', { r: [o.e * Math.cos(o.alpha), o.e * Math.sin(o.alpha), 0], ...look('#2980b9') });
  const jE = m.revolute('jE', { axis: z, q: GUESS.jE });
  const coupler2 = m.bodyCylinder('coupler2', { r: [o.g, 0, 0], ...look('#8e44ad') });
  const jG = m.revolute('jG', { axis: z, q: GUESS.jG });
  const groundF = m.bar('groundF', { r: [o.dF, 0, 0] });
  const jF = m.revolute('jF', { axis: z, q: GUESS.jF });
  const rocker2 = m.bodyCylinder('rocker2', { r: [o.f, 0, 0], ...look('#d35400') });
  m.connect(m.world.frame_b, jA.frame_a);
  m.connect(jA.frame_b, crank.frame_a);
  m.connect(crank.frame_b, jB.frame_a);
  m.connect(jB.frame_b, coupler1.frame_a);
  m.connect(coupler1.frame_b, jC.frame_a);
  m.connect(m.world.frame_b, groundD.frame_a);
  m.connect(groundD.frame_b, jD.frame_a);
  m.connect(jD.frame_b, rockerDC.frame_a);
  m.connect(jD.frame_b, rockerDE.frame_a);
  m.connect(rockerDC.frame_b, jC.frame_b);
  m.connect(rockerDE.frame_b, jE.frame_a);
  m.connect(jE.frame_b, coupler2.frame_a);
  m.connect(coupler2.frame_b, jG.frame_a);
  m.connect(m.world.frame_b, groundF.frame_a);
  m.connect(groundF.frame_b, jF.frame_a);
  m.connect(jF.frame_b, rocker2.frame_a);
  m.connect(rocker2.frame_b, jG.frame_b);
  return m;
}
