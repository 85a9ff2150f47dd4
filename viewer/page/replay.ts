// Every signal of a run, not just the recorded ones: the recorded states
// replayed through the compiled model. At each sample the model evaluates
// its derivatives at the recorded (t, x), which computes every unknown
// (and, for a torn loop, runs its Newton solve warm-started from the last
// sample), then the signal is read as simulate() reads it. A signal so
// computed equals the one simulate() records, since both come from the same
// code at the same (t, x). The page's model must be the run's: the replay
// is checked against the recorded motion before it is used.
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { ModelState } from '../../src/codegen/state.ts';
import { poseSignalNames } from '../../src/io/poses.ts';
import { POSE_STRIDE, type PlaybackRun } from '../../src/io/types.ts';
import { Rk4Stepper } from '../../src/sim/steppers/rk4.ts';

/** frame positions of the run and of the page's model agree to this (m) */
const SAME_POSE = 1e-4;
/** one interval integrated here and the recorded next sample agree to this, relative to the states' size: the run's
 * own RK4 steps (rounding and the loops' Newton tolerance apart), or, when the run's steps are unknown (adaptive, an
 * older file), RK4 at a step of its own */
const SAME_MOTION = { sameSteps: 1e-7, otherSteps: 1e-4 };

export class SignalReplay {
  private readonly state: ModelState;
  private readonly x: Float64Array;
  private readonly dx: Float64Array;
  private readonly columns = new Map<string, Float64Array>();

  private constructor(
    readonly compiled: CompiledModel,
    private readonly run: PlaybackRun,
  ) {
    this.state = compiled.createState();
    this.x = new Float64Array(compiled.stateNames.length);
    this.dx = new Float64Array(this.x.length);
  }

  /** a replay of the run through the compiled model, or why there is none */
  static of(compiled: CompiledModel, run: PlaybackRun): SignalReplay | string {
    const missing = compiled.stateNames.filter((n) => !run.signals[n]);
    // signals the model here does not have: the run is of other parameters (kron simulate --set floating=1), not a subset of signals
    const foreign = Object.keys(run.signals).find((n) => !n.includes('(') && !compiled.hasSignal(n));
    if (missing.length && foreign)
      return `the run is not of the model compiled here with its default parameters: it has ${foreign}, the model has not (a run with other --set values?)`;
    if (missing.length) return `the run did not record the state ${missing[0]} (kron simulate records the states unless --signals says otherwise)`;
    const replay = new SignalReplay(compiled, run);
    return replay.mismatch() ?? replay;
  }

  /** every signal the model has */
  names(): string[] {
    return this.compiled.signalNames();
  }

  // (sample k) => the state's workspace at the recorded (t, x); dx holds the derivatives
  private evaluate(k: number): void {
    this.compiled.stateNames.forEach((n, i) => (this.x[i] = this.run.signals[n][k]));
    this.state.derivatives(this.run.time[k], this.x, this.dx);
  }

  /** the signals over the run's samples (computed once per name: one pass over the samples for all new names) */
  columnsOf(names: readonly string[]): Float64Array[] {
    const todo = names.filter((n) => !this.columns.has(n));
    if (todo.length) {
      const readers = todo.map((n) => this.state.reader(n));
      const out = todo.map(() => new Float64Array(this.run.time.length));
      for (let k = 0; k < this.run.time.length; k++) {
        this.evaluate(k);
        readers.forEach((read, j) => (out[j][k] = read(this.x)));
      }
      todo.forEach((n, j) => this.columns.set(n, out[j]));
    }
    return names.map((n) => this.columns.get(n)!);
  }

  private motionTolerance(): number {
    return this.run.integration?.integrator === 'rk4' ? SAME_MOTION.sameSteps : SAME_MOTION.otherSteps;
  }

  // (sample k) => max |x(t_k+1) - x_k+1| / max(1, |x_k+1|): RK4 from the recorded x_k, with the run's step if it used RK4
  private stepError(k: number): number {
    const { run, compiled } = this;
    const t0 = run.time[k],
      dt = run.time[k + 1] - t0;
    const h = run.integration?.integrator === 'rk4' ? run.integration.step : Math.min(1e-3, dt / 10);
    const steps = Math.max(1, Math.round(dt / h));
    // simulate()'s RK4 stepper: the same stages in the same order, on the same grid of times
    const start = Float64Array.from(compiled.stateNames, (s) => run.signals[s][k]);
    const t1 = run.time[k + 1];
    const stepper = new Rk4Stepper(start, (dx, y, t) => this.state.derivatives(t, y, dx), t0, {
      step: dt / steps,
      stop: t1,
      rtol: 0,
      atol: 0,
      maxSteps: Infinity,
    });
    while (stepper.t < t1) stepper.step(t1);
    const x = stepper.x;
    const next = compiled.stateNames.map((s) => run.signals[s][k + 1]);
    const scale = Math.max(1, ...next.map(Math.abs));
    return Math.max(...next.map((v, i) => Math.abs(v - x[i]))) / scale;
  }

  /** how the page's model differs from the run's (other parameters, inputs, a controller), or undefined */
  private mismatch(): string | undefined {
    const { run, compiled } = this;
    const n = run.time.length;
    if (run.scene && run.poses) {
      const poseNames = poseSignalNames(run.scene.frames, (s) => compiled.hasSignal(s));
      this.evaluate(0);
      const data = run.poses.data;
      for (let f = 0; f < run.scene.frames.length; f++) {
        for (let c = 0; c < 3; c++) {
          const far = Math.abs(this.state.signal(poseNames[f * 12 + 9 + c]) - data[f * POSE_STRIDE + c]);
          if (!(far < SAME_POSE)) return `the model compiled here does not reproduce this run's pose (${far.toExponential(1)} m apart): other parameters?`;
        }
      }
    }
    // the recorded motion obeys the page's equations: from sample k, one interval of RK4 reaches sample k + 1
    for (const k of [0, n >> 1, n - 2].filter((k) => k >= 0 && k < n - 1)) {
      const worst = this.stepError(k);
      if (!(worst <= this.motionTolerance()))
        return `the model compiled here does not reproduce this run's motion at t = ${run.time[k]} (${worst.toExponential(1)} apart: other parameters, inputs or a controller?)`;
    }
    return undefined;
  }
}
