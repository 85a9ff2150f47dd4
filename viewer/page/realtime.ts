// Real-time simulation in the page: the compiled model integrated as the
// wall clock goes (the page's requestAnimationFrame gives the seconds), with
// its inputs (a joint's tau...) set at once from sliders. The integration is
// simulate()'s: the RK4 stepper at a fixed step, times from the step count,
// so a run with inputs that are constant from t = 0 reaches exactly the
// states simulate() records with the same constant inputs; a model with
// events (hard joint limits, when()) stops at them as simulate() does.
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { ModelState } from '../../src/codegen/state.ts';
import { packPoses, poseSignalNames } from '../../src/io/poses.ts';
import type { Scene } from '../../src/io/types.ts';
import { checkRk4Step, syncProbe } from '../../src/sim/stability.ts';
import { withEvents } from '../../src/sim/events.ts';
import { Rk4Stepper, timeAt } from '../../src/sim/steppers/rk4.ts';
import { type Derivatives, type Stepper, type StepperSettings, StepFailure } from '../../src/sim/steppers/stepper.ts';

/** simulate()'s default step for live runs (viewer/page/live.ts simulates with it too) */
export const REALTIME_STEP = 1e-3;

export class RealTimeRun {
  /** the model's inputs, in the compiled model's order */
  readonly inputs: readonly string[];
  private readonly state: ModelState;
  private readonly stepper: Stepper;
  private readonly dx: Float64Array;
  private readonly poseNames: string[];
  /** the stability check's probe state (src/sim/stability.ts), made at the first check */
  private probe: ModelState | undefined;

  constructor(
    readonly compiled: CompiledModel,
    scene: Scene | undefined,
    inputs: Readonly<Record<string, number>> = {},
    readonly step = REALTIME_STEP,
  ) {
    this.state = compiled.createState();
    this.inputs = compiled.generated.layout.inputs;
    for (const [name, value] of Object.entries(inputs)) this.state.setInput(name, value);
    const x = this.state.x0();
    this.dx = new Float64Array(x.length);
    const f: Derivatives = (dx, y, t) => this.state.derivatives(t, y, dx);
    const settings: StepperSettings = {
      step,
      stop: Infinity,
      rtol: 0,
      atol: 0,
      maxSteps: Infinity,
      project: (y) => this.state.normalize(y), // unit quaternions back to norm 1
      // as simulate(): a step beyond RK4's stability region for a mode of the model stops the live run
      guard: (t, y, h) => this.checkStable(t, y, h),
    };
    // as simulate() restarts after an event (sim/events.ts): a new stepper, without the check within a step already taken
    const make = (x0: Float64Array, t0: number, within = false) => new Rk4Stepper(x0, f, t0, within ? { ...settings, guard: undefined } : settings);
    this.stepper = compiled.data.events ? withEvents(this.state, f, make, x) : make(x, 0);
    this.poseNames = scene ? poseSignalNames(scene.frames, (n) => compiled.hasSignal(n)) : [];
  }

  /** simulated time (s) */
  get time(): number {
    return this.stepper.t;
  }

  /** the state vector (the stepper's, integrated in place) */
  private get x(): Float64Array {
    return this.stepper.x;
  }

  /** an input's value from now on (takes effect at the next step) */
  setInput(name: string, value: number): void {
    this.state.setInput(name, value);
  }

  private checkStable(t: number, x: Float64Array, h: number): void {
    const probe = (this.probe ??= this.compiled.createState());
    syncProbe(probe, this.state);
    checkRk4Step(this.compiled.stateNames, (dx, y) => probe.derivatives(t, y, dx), x, t, h);
  }

  /** integrate whole steps up to `until` (s of simulated time); returns the time reached */
  advanceTo(until: number): number {
    // whole steps: the last point of the step grid at or before until (after an event the stepper goes back onto the grid)
    const target = timeAt(Math.floor(until / this.step + 1e-9), this.step);
    while (this.stepper.t < target) {
      try {
        this.stepper.step(target);
      } catch (e) {
        if (e instanceof StepFailure) throw new Error(`the live run diverged at t = ${e.t.toFixed(3)} s`, { cause: e });
        throw e;
      }
    }
    return this.time;
  }

  /** any signal at the current state (one evaluation, as simulate() samples) */
  value(name: string): number {
    this.state.derivatives(this.time, this.x, this.dx);
    return this.state.signal(name);
  }

  /** the states by name, now */
  states(): Record<string, number> {
    return Object.fromEntries(this.compiled.stateNames.map((n, i) => [n, this.x[i]]));
  }

  /** a signal as of the last pose() (no evaluation of its own: pose() evaluated at this state); undefined: the model has none */
  read(name: string): number | undefined {
    return this.compiled.hasSignal(name) ? this.state.signal(name) : undefined;
  }

  /** the frames' poses now, 7 numbers each (the layout of Poses) */
  pose(): Float32Array {
    this.state.derivatives(this.time, this.x, this.dx);
    return Float32Array.from(
      packPoses(
        this.poseNames.map((n) => [this.state.signal(n)]),
        1,
      ).data,
    );
  }
}
