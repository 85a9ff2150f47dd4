// Real-time simulation in the page: the compiled model integrated as the
// wall clock goes (the page's requestAnimationFrame gives the seconds), with
// its inputs (a joint's tau...) set at once from sliders. The integration is
// simulate()'s: ode-rk4 at a fixed step, times from the step count, so a run
// with inputs that are constant from t = 0 reaches exactly the states
// simulate() records with the same constant inputs.
import rk4 from 'ode-rk4';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { ModelState } from '../../src/codegen/state.ts';
import { packPoses, poseSignalNames } from '../../src/io/poses.ts';
import type { Scene } from '../../src/io/types.ts';
import { STABILITY_EVERY, checkRk4Step, syncProbe } from '../../src/sim/stability.ts';

/** simulate()'s default step for live runs (viewer/page/live.ts simulates with it too) */
export const REALTIME_STEP = 1e-3;

const timeAt = (k: number, h: number) => Number((k * h).toPrecision(14));

export class RealTimeRun {
  /** the model's inputs, in the compiled model's order */
  readonly inputs: readonly string[];
  private readonly state: ModelState;
  private readonly integrator: ReturnType<typeof rk4>;
  /** the state vector, integrated in place by ode-rk4 */
  private readonly x: Float64Array;
  private readonly dx: Float64Array;
  private readonly poseNames: string[];
  private steps = 0;
  /** the stability check's probe state (src/sim/stability.ts), made at the first check */
  private probe: ModelState | undefined;

  constructor(readonly compiled: CompiledModel, scene: Scene | undefined, inputs: Readonly<Record<string, number>> = {}, readonly step = REALTIME_STEP) {
    this.state = compiled.createState();
    this.inputs = compiled.generated.layout.inputs;
    for (const [name, value] of Object.entries(inputs)) this.state.setInput(name, value);
    const x = (this.x = this.state.x0());
    this.dx = new Float64Array(x.length);
    this.integrator = rk4(x, (dx: Float64Array, y: Float64Array, t: number) => this.state.derivatives(t, y, dx), 0, step);
    this.poseNames = scene ? poseSignalNames(scene.frames, (n) => compiled.hasSignal(n)) : [];
  }

  /** simulated time (s) */
  get time(): number {
    return timeAt(this.steps, this.step);
  }

  /** an input's value from now on (takes effect at the next step) */
  setInput(name: string, value: number): void {
    this.state.setInput(name, value);
  }

  private checkStable(): void {
    const probe = (this.probe ??= this.compiled.createState());
    syncProbe(probe, this.state);
    const t = this.time;
    checkRk4Step(this.compiled.stateNames, (dx, y) => probe.derivatives(t, y, dx), this.x, t, this.step);
  }

  /** integrate whole steps up to `until` (s of simulated time); returns the time reached */
  advanceTo(until: number): number {
    while (timeAt(this.steps + 1, this.step) <= until + 1e-12) {
      this.integrator.t = this.time;
      this.integrator.dt = this.step;
      // as simulate(): a step beyond RK4's stability region for a mode of the model stops the live run
      if (this.steps % STABILITY_EVERY === 0) this.checkStable();
      this.integrator.step();
      this.state.normalize(this.x); // unit quaternions back to norm 1
      this.steps++;
      if (!this.x.every(Number.isFinite)) throw new Error(`the live run diverged at t = ${this.time.toFixed(3)} s`);
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
    return Float32Array.from(packPoses(this.poseNames.map((n) => [this.state.signal(n)]), 1).data);
  }
}
