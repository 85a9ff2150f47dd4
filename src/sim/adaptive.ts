// Adaptive stepping with the ode45-cash-karp package (the embedded fifth/
// fourth-order Cash-Karp pair): a step is accepted when every component's
// error estimate is within atol + rtol |y_i| (tol = 1 on the scaled errors,
// reduced by the maximum). Steps end exactly at each requested time.
import ode45 from 'ode45-cash-karp';
import { SimulationError } from '../errors.ts';
import { NonFiniteError } from '../codegen/state.ts';

export interface Tolerances {
  rtol: number;
  atol: number;
}

export type Derivatives = (dx: Float64Array, x: Float64Array, t: number) => void;

/** why a step was not taken: the state before it and the step size it tried */
export class StepFailure extends Error {
  constructor(readonly t: number, readonly x: Float64Array, readonly h: number) {
    super(`step from ${t} failed`);
  }
}

export class AdaptiveStepper {
  private readonly integrator;
  /** steps smaller than this (relative to the time span) mean the error control gave up */
  private readonly minStep: number;
  private readonly before: Float64Array;
  steps = 0;

  constructor(x0: Float64Array, deriv: Derivatives, h0: number, span: number, { rtol, atol }: Tolerances, private readonly maxSteps = Infinity, private readonly project: (y: Float64Array) => void = () => {}) {
    this.minStep = 1e-12 * Math.max(span, h0);
    this.before = new Float64Array(x0.length);
    this.integrator = ode45(x0, deriv, 0, h0, {
      tol: 1,
      verbose: false,
      dtMinMag: this.minStep,
      errorScaleFunction: (_i, _dt, y) => atol + rtol * Math.abs(y),
      errorReduceFunction: (_i, acc, e) => Math.max(acc, Math.abs(e)),
    });
  }

  get x(): Float64Array {
    return this.integrator.y;
  }

  // (target time) => the state at target; throws StepFailure on a non-finite state
  advance(target: number): Float64Array {
    const it = this.integrator;
    while (it.t < target) {
      const t0 = it.t;
      this.before.set(it.y);
      try {
        it.step(target);
      } catch (e) {
        // a singular position, Newton's failure: the model's own error, reported as it is
        if (e instanceof SimulationError && !(e instanceof NonFiniteError)) throw e;
        // the derivatives or the error estimate were not finite: the step tried was at most dt, and did not pass target
        throw new StepFailure(t0, Float64Array.from(this.before), Math.min(it.dt, target - t0));
      }
      if (!it.y.every(Number.isFinite)) throw new StepFailure(t0, Float64Array.from(this.before), it.t - t0);
      this.project(it.y); // back onto the constraint manifold (unit quaternions) after every accepted step
      const taken = it.t - t0;
      if (taken === 0) break; // within rounding of target: the integrator declined to step
      this.steps++;
      if (this.steps > this.maxSteps) {
        throw new SimulationError(`the adaptive integrator took more than ${this.maxSteps} steps and reached time ${it.t} of ${target}`, {
          hint: `the last step was ${taken.toPrecision(3)} s: the model is probably stiff; loosen --rtol/--atol, or use --integrator rk4 with a --step it stays stable with`,
        });
      }
      if (taken <= this.minStep * (1 + 1e-9) && target - it.t > 2 * this.minStep) {
        throw new SimulationError(`the adaptive step size fell below ${this.minStep.toPrecision(3)} at time ${it.t}`, {
          hint: 'the error control cannot meet the tolerances here: the model may be stiff or singular; loosen --rtol/--atol or try --integrator rk4 with a small --step',
        });
      }
    }
    it.t = target; // exactly on the sampling grid
    return it.y;
  }
}
