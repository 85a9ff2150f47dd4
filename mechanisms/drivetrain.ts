// The drive train of the relaxing paper, fig. 1: a motor rotor s1 (Shaft),
// an ideal gear g with ratio i, and a load inertia s2 (ShaftS, its speed the
// state), driven by the torque tau at s1's left flange.
// Sorting finds one linear loop of 4 equations (eq. 3); the residue(a) of
// ShaftS (section 10) tears it to the single unknown der(s2.w), eq. 5:
//   (J2 + i^2 J1) der(s2.w) = i tau
import { Model, rotational } from 'kron';
const { Gear, Shaft, ShaftS, TorqueSource } = rotational;

export const parameters = { J1: 1, J2: 2, i: 3, tau: 1, w0: 0 };

export default function build(p: Partial<typeof parameters> = {}): Model {
  const { J1, J2, i, tau, w0 } = { ...parameters, ...p };
  const m = new Model('drivetrain');
  const drive = m.add(new TorqueSource('drive', { tau }));
  const s1 = m.add(new Shaft('s1', { J: J1 }));
  const g = m.add(new Gear('g', { i }));
  const s2 = m.add(new ShaftS('s2', { J: J2, w: w0 }));
  m.connect(drive.flange, s1.l);
  m.connect(s1.r, g.l);
  m.connect(g.r, s2.l);
  return m;
}
