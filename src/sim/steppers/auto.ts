// The default integrator: RK4 at the fixed step while that step is stable
// for the model, the stiff solver from the first point where it is not —
// the choice LSODA makes between Adams and BDF (Petzold 1983), made here by
// the RK4 stability check (sim/stability.ts, its guard) instead of a
// stiffness estimate. A model RK4 handles runs exactly as with
// --integrator rk4 (the same steps, the same numbers); a stiff one gets the
// answer instead of an error, and the run says where and why it switched.
// Once switched a run stays with radau: an event's new steppers (which share
// the run's settings, and so its `switched` record) start with radau too.
// Contact with elasto-plastic friction starts with radau (autoStart): its
// anchors move once per accepted step, a discretisation of plastic flow
// that is first order in the step, so RK4's fixed step sets the error
// whether or not it is stable. Measured on Go2 standing 10 s (bench/
// contact-robots/profile.ts): RK4 at 1e-3 s is stable (the stiffest mode,
// -935 1/s, allows 2.98 ms) and takes 10000 steps, 40000 evaluations; radau
// 202 steps, 2071 evaluations, a tenth of the CPU time and a quarter of the
// error against its own run at rtol 1e-9 (3.4e-6 m against 1.5e-5 m).
import type { FrictionLaw } from '../../contact/law.ts';
import { StiffModeError } from '../stability.ts';
import { Radau5Stepper } from './radau5.ts';
import { Rk4Stepper } from './rk4.ts';
import { type Derivatives, type Stepper, type StepperSettings, type StepperStats, WrappingStepper } from './stepper.ts';

export class AutoStepper extends WrappingStepper {
  readonly name = 'auto';
  protected inner: Stepper;

  constructor(
    x0: Float64Array,
    private readonly f: Derivatives,
    t0: number,
    private readonly settings: StepperSettings,
  ) {
    super();
    this.inner = settings.switched?.time !== undefined ? new Radau5Stepper(x0, f, t0, settings) : new Rk4Stepper(x0, f, t0, settings);
  }

  step(until: number): void {
    try {
      this.inner.step(until);
    } catch (e) {
      // the check runs before a step, on the state at t: radau goes on from there
      if (!(e instanceof StiffModeError) || !(this.inner instanceof Rk4Stepper)) throw e;
      if (this.settings.switched) Object.assign(this.settings.switched, { time: this.inner.t, reason: e.message });
      const rk4 = this.inner.stats;
      this.inner = new Radau5Stepper(Float64Array.from(this.inner.x), this.f, this.inner.t, this.settings);
      // the run's counts go on from RK4's
      for (const k of Object.keys(rk4) as (keyof StepperStats)[]) this.inner.stats[k] += rk4[k];
      this.inner.step(until);
    }
  }
}

/** why auto runs contact with elasto-plastic friction with radau from the start (header) */
export const PLASTIC_START =
  "contact with elasto-plastic friction, whose anchors move once per step: RK4's fixed step would set its error (first order in the step), radau's error control does not";

/** auto's record of its switch, made before the run: already switched (radau from t = 0) for contact with elasto-plastic friction */
export function autoStart(friction: FrictionLaw | undefined): { time?: number; reason?: string } {
  return friction === 'elasto-plastic' ? { time: 0, reason: PLASTIC_START } : {};
}
