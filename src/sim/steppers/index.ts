// The integrators by the name --integrator and options.integrator take.
// A new integrator is a Stepper (steppers/stepper.ts) in a file of its own
// and one entry here.
import { AutoStepper } from './auto.ts';
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
  /** the default: rk4 while its step is stable for the model, radau from where it is not (steppers/auto.ts) */
  auto: (x0, f, t0, settings) => new AutoStepper(x0, f, t0, settings),
} satisfies Record<string, StepperFactory>;

/** an integrator's name: rk4, adaptive, radau or auto */
export type Integrator = keyof typeof STEPPERS;
export const INTEGRATORS = Object.keys(STEPPERS) as Integrator[];

/** integrators whose step size is fixed (the rest control their error) */
export const FIXED_STEP: readonly Integrator[] = ['rk4'];

/** the integrator of a run that names none */
export const DEFAULT_INTEGRATOR: Integrator = 'auto';

/** which integrator ran a run and what it cost */
export interface IntegrationStats extends StepperStats {
  /** the integrator that integrated (auto: rk4, or radau once it switched) */
  integrator: Exclude<Integrator, 'auto'>;
  /** auto: the time it went on with radau, and why (the RK4 stability check's finding) */
  switched?: { time: number; reason: string };
  /** radau with contact: how its Jacobians were formed (sim/contact-jacobian.ts) */
  jacobian?: { method: 'chain rule' | 'differences'; reason?: string; whole: number; kept: number };
}

export type { Stepper };
