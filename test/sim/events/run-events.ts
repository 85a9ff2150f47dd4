// Drives a compiled model with events step by step (sim/events.ts), records
// each event (its time, the state before and after its actions) and stops
// exactly at given times (a closed form's apexes).
import type { CompiledModel } from '../../../src/codegen/compiled.ts';
import { type EventStepper, withEvents } from '../../../src/sim/events.ts';
import { type Integrator, STEPPERS } from '../../../src/sim/steppers/index.ts';
import type { Derivatives, StepperSettings } from '../../../src/sim/steppers/stepper.ts';

export interface EventRecord {
  /** the event's index in report.events */
  k: number;
  t: number;
  before: Float64Array;
  after: Float64Array;
}

export function eventRun(compiled: CompiledModel, integrator: Integrator, stop: number, settings: Partial<StepperSettings> = {}) {
  const state = compiled.createState();
  const f: Derivatives = (dx, x, t) => state.derivatives(t, x, dx);
  const all: StepperSettings = { step: 1e-3, stop, rtol: 1e-10, atol: 1e-12, maxSteps: 1e7, ...settings };
  const stepper: EventStepper = withEvents(state, f, (x0, t0) => STEPPERS[integrator](x0, f, t0, all), state.x0());
  const records: EventRecord[] = [];
  /** steps to `until` (exactly), recording the events on the way */
  const runTo = (until: number) => {
    while (stepper.t < until) {
      const last = stepper.last;
      stepper.step(until);
      if (stepper.last !== last) records.push({ ...stepper.last!, after: Float64Array.from(stepper.x) });
    }
  };
  return { stepper, state, records, runTo };
}
