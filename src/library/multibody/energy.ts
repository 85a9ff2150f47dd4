// The energy signals of a mechanism (J): energy.kinetic, energy.potential and
// energy.total, for plots and checks (`kron simulate ... --signals energy.total`).
//   kinetic   = sum over bodies 1/2 m |v_cm|^2 + 1/2 w . (I_w w)
//             + sum over joints 1/2 armature qd^2 (rotors, joint.ts)
//   potential = sum over bodies -m g . r_cm (any gravity direction)
//             + sum over joints 1/2 c (q - q0)^2 + the limit springs (limits.ts)
//             + what other components store (StoresEnergy: tendons' springs)
//   total     = kinetic + potential
// No state derivative reads them, so they are computed in the outputs pass
// only (structure/needed.ts), never in derivatives().
// A mechanism with collision geometry also has the state contact_work, the
// work the contact wrenches have done on the bodies (J, src/contact):
//   der(contact_work) = sum over bodies F . v_a + T . w_a
// so total - contact_work is constant in a run without other inputs or
// dissipation: what the contacts' springs hold and their dampers and
// friction took (contact_work <= 0 once the contacts have let go).
import { type Expr, add } from '../../expr/index.ts';
import { Component, der } from '../../model/index.ts';
import type { Body } from './body.ts';

/** a component that stores energy besides the bodies: a joint's spring or rotor (armature), a tendon's spring */
export interface StoresEnergy {
  /** read after the component is elaborated */
  readonly storedEnergy: { kinetic: Expr; potential: Expr };
}

export const storesEnergy = (c: Component): c is Component & StoresEnergy => 'storedEnergy' in c;

export class Energy extends Component {
  readonly kinetic: Expr;
  readonly potential: Expr;
  readonly total: Expr;
  /** with collision geometry: the contact wrenches' work on the bodies (a state, J) */
  readonly contactWork: Expr | undefined;

  constructor(name: string, bodies: readonly Body[], springs: readonly Expr[], rotors: readonly Expr[]) {
    super(name);
    this.kinetic = this.variable('kinetic');
    this.potential = this.variable('potential');
    this.total = this.variable('total');
    this.equation(this.kinetic, add(...bodies.map((b) => b.kineticEnergy), ...rotors));
    this.equation(this.potential, add(...bodies.map((b) => b.potentialEnergy), ...springs));
    this.equation(this.total, add(this.kinetic, this.potential));
    const power = bodies.flatMap((b) => (b.contactPower ? [b.contactPower] : []));
    if (power.length) {
      this.contactWork = this.variable('contact_work', { start: 0 });
      this.equation(der(this.contactWork), add(...power));
    }
  }
}
