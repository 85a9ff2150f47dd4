// A long drive train (relaxing paper, section 3 last paragraph and section 5):
// n shafts in a row, driven by the constant torque tau at the left flange of s1.
//
// rigid = 0: rigid "parts" separated by elastic couplings,
//   s1 - g1 - s2 ~ c1|d1 ~ s3 - g2 - s4 ~ c2|d2 ~ ... ~ s(n-1) - g(n/2) - sn
// each part a Shaft, a Gear and a ShaftS (its speed the part's state), i.e. the
// 4-equation loop of eq. 3 once per part; each coupling is a Spring c_m and a
// Damper d_m in parallel (force elements: they separate the loops). n is even.
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
// shaftsFirst = 1 declares all shafts before all couplings instead of along
// the train; the model is the same (for tests of declaration-order independence).
import { Model, UsageError, rotational } from 'kron';
const { Damper, Gear, Shaft, ShaftS, Spring, TorqueSource } = rotational;

export const parameters = { n: 200, J: 1, ratio: 1.5, c: 100, d: 1, tau: 1, rigid: 0, shaftsFirst: 0 };

/** inertia of shaft k (1-based) */
export const inertia = (J: number, k: number): number => J * (1 + ((k - 1) % 4) / 4);

/** ratio of gear k (1-based): ratio for odd k, 1/ratio for even k */
export const gearRatio = (ratio: number, k: number): number => (k % 2 === 1 ? ratio : 1 / ratio);

/** the element(s) between shaft k and shaft k+1: a gear, or a spring and a damper in parallel */
type Coupling = rotational.Gear | [rotational.Spring, rotational.Damper];

export default function build(p: Partial<typeof parameters> = {}): Model {
  const { n, J, ratio, c, d, tau, rigid, shaftsFirst } = { ...parameters, ...p };
  if (rigid !== 0 && rigid !== 1) throw new UsageError(`rigid must be 0 or 1, got ${rigid}`, { hint: '--set rigid=1' });
  if (!Number.isInteger(n) || n < 2 || (rigid === 0 && n % 2 !== 0)) {
    throw new UsageError(`n must be an integer >= 2${rigid === 0 ? ', even when rigid = 0 (two shafts per part)' : ''}; got ${n}`, { hint: '--set n=20' });
  }
  // the state shaft: the right shaft of every part, or only the last one when rigid
  const isState = (k: number) => (rigid ? k === n : k % 2 === 0);
  const shafts = Array.from({ length: n }, (_, j) => {
    const k = j + 1;
    return isState(k) ? new ShaftS(`s${k}`, { J: inertia(J, k) }) : new Shaft(`s${k}`, { J: inertia(J, k) });
  });
  // couplings[k-1] between s_k and s_k+1: gear g_m of part m = (k+1)/2, coupling c_m/d_m after part m = k/2
  const couplings: Coupling[] = Array.from({ length: n - 1 }, (_, j) => {
    const k = j + 1;
    if (rigid) return new Gear(`g${k}`, { i: gearRatio(ratio, k) });
    return k % 2 === 1 ? new Gear(`g${(k + 1) / 2}`, { i: gearRatio(ratio, (k + 1) / 2) }) : [new Spring(`c${k / 2}`, { c }), new Damper(`d${k / 2}`, { d })];
  });
  const m = new Model(rigid ? 'longdrivetrain-rigid' : 'longdrivetrain');
  const drive = m.add(new TorqueSource('drive', { tau }));
  // declaration order: along the train (s1, g1, s2, c1, d1, s3, ...) or all shafts first;
  // the model is the same either way
  const parts = shaftsFirst ? [...shafts, ...couplings.flat()] : shafts.flatMap((s, j) => [s, ...[couplings[j] ?? []].flat()]);
  parts.forEach((part) => m.add(part));
  m.connect(drive.flange, shafts[0].l);
  couplings.forEach((coupling, j) => {
    for (const e of [coupling].flat()) {
      m.connect(shafts[j].r, e.l);
      m.connect(e.r, shafts[j + 1].l);
    }
  });
  return m;
}
