// The default integrator: RK4 at the fixed step while that step is stable
// for the model, the stiff solver from the first point where it is not —
// the choice LSODA makes between Adams and BDF (Petzold 1983), made here by
// the RK4 stability check (sim/stability.ts, its guard) instead of a
// stiffness estimate. A model RK4 handles runs exactly as with
// --integrator rk4 (the same steps, the same numbers); a stiff one gets the
// answer instead of an error, and the run says where and why it switched.
// Once switched a run stays with radau: an event's new steppers (which share
// the run's settings, and so its `switched` record) start with radau too.
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
