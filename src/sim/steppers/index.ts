// The integrators by the name --integrator and options.integrator take.
// A new integrator is a Stepper (steppers/stepper.ts) in a file of its own
// and one entry here.
import { CashKarpStepper } from './cash-karp.ts';
import { Radau5Stepper } from './radau5.ts';
import { Rk4Stepper } from './rk4.ts';
import type { Stepper, StepperFactory, StepperStats } from './stepper.ts';

export const STEPPERS = {
  /** fixed-step classical RK4 (ode-rk4) */
  rk4: (x0, f, t0, settings) => new Rk4Stepper(x0, f, t0, settings),
  /** error-controlled explicit Runge-Kutta 5(4), Cash-Karp (ode45-cash-karp) */
  adaptive: (x0, f, t0, settings) => new CashKarpStepper(x0, f, t0, settings),
  /** error-controlled implicit Radau IIA of order 5 (Hairer & Wanner's RADAU5): for stiff models */
  radau: (x0, f, t0, settings) => new Radau5Stepper(x0, f, t0, settings),
} satisfies Record<string, StepperFactory>;

export type Integrator = keyof typeof STEPPERS;
export const INTEGRATORS = Object.keys(STEPPERS) as Integrator[];

/** integrators whose step size is fixed (the rest control their error) */
export const FIXED_STEP: readonly Integrator[] = ['rk4'];

/** which integrator ran a run and what it cost */
export interface IntegrationStats extends StepperStats {
  integrator: Integrator;
}

export type { Stepper };
