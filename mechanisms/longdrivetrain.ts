// A long drive train (relaxing paper, section 3 last paragraph and section 5):
// n shafts in a row, driven by the constant torque tau at the left flange of s1.
//
// rigid = 0: rigid "parts" separated by elastic couplings,
//   s1 - g1 - s2 ~ k1 ~ s3 - g2 - s4 ~ k2 ~ ... ~ s(n-1) - g(n/2) - sn
// each part a Shaft, a Gear and a ShaftS (its speed the part's state), i.e. the
// 4-equation loop of eq. 3 once per part; each coupling k is a Spring c and a
// Damper d in parallel (a force element: it separates the loops). n is even.
//
// rigid = 1: every coupling is a gear, one rigid chain
//   s1 - g1 - s2 - g2 - s3 - ... - g(n-1) - sn
// with a single ShaftS at the end (sn): one loop of 3n - 2 equations that
// relaxing must take apart from the left end to the right (section 5).
//
// Gear ratios alternate ratio, 1/ratio, ratio, ... (g1 = ratio) so that speeds
// stay bounded along the train; inertias vary along it, J_k = J (1 + ((k-1) mod 4)/4).
// The ShaftS sits on each gear's right flange: al = i relax(ar) is the
// direction relaxing needs (section 10).
import { Model } from '../src/model/index.ts';
import { Damper, Gear, Shaft, ShaftS, Spring, TorqueSource } from '../src/library/rotational/index.ts';

export const parameters = { n: 200, J: 1, ratio: 1.5, c: 100, d: 1, tau: 1, rigid: 0 };

/** inertia of shaft k (1-based) */
export const inertia = (J: number, k: number): number => J * (1 + ((k - 1) % 4) / 4);

/** ratio of gear k (1-based): ratio for odd k, 1/ratio for even k */
export const gearRatio = (ratio: number, k: number): number => (k % 2 === 1 ? ratio : 1 / ratio);

export default function build(p: Partial<typeof parameters> = {}): Model {
  const { n, J, ratio, c, d, tau, rigid } = { ...parameters, ...p };
  if (rigid !== 0 && rigid !== 1) throw new RangeError(`rigid must be 0 or 1, got ${rigid}`);
  if (!Number.isInteger(n) || n < 2 || (rigid === 0 && n % 2 !== 0)) {
    throw new RangeError(`n must be an integer >= 2${rigid === 0 ? ', even when rigid = 0 (two shafts per part)' : ''}; got ${n}`);
  }
  const m = new Model(rigid ? 'longdrivetrain-rigid' : 'longdrivetrain');
  const drive = m.add(new TorqueSource('drive', { tau }));
  // the state shaft: the right shaft of every part, or only the last one when rigid
  const isState = (k: number) => (rigid ? k === n : k % 2 === 0);
  const shaft = (k: number) => m.add(isState(k) ? new ShaftS(`s${k}`, { J: inertia(J, k) }) : new Shaft(`s${k}`, { J: inertia(J, k) }));
  let left = shaft(1);
  m.connect(drive.flange, left.l);
  for (let k = 1; k < n; k++) {
    const right = shaft(k + 1);
    if (rigid || k % 2 === 1) {
      const g = m.add(new Gear(`g${rigid ? k : (k + 1) / 2}`, { i: gearRatio(ratio, rigid ? k : (k + 1) / 2) }));
      m.connect(left.r, g.l);
      m.connect(g.r, right.l);
    } else {
      const spring = m.add(new Spring(`c${k / 2}`, { c }));
      const damper = m.add(new Damper(`d${k / 2}`, { d }));
      m.connect(left.r, spring.l);
      m.connect(left.r, damper.l);
      m.connect(spring.r, right.l);
      m.connect(damper.r, right.l);
    }
    left = right;
  }
  return m;
}
