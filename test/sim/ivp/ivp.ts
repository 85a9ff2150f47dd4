// Problems of the published IVP test set (Mazzia & Magherini, Test Set for
// IVP Solvers, release 2.4, www.dm.uniba.it/~testset) as plain ODEs with
// their Jacobians, run through a Stepper directly, and the test set's
// accuracy measure. The reference solutions are copied from the test set's
// Fortran problem files (vdpol.f, rober.f, hires.f, their `solut`
// routines: RADAU5 in quadruple-like precision, uround 1e-19, rtol = atol =
// h0 = 1.1e-18).
import type { JacobianFn, StepperSettings, StepperStats } from '../../../src/sim/steppers/stepper.ts';
import { Radau5Stepper } from '../../../src/sim/steppers/radau5.ts';

export interface Ivp {
  readonly y0: readonly number[];
  readonly tEnd: number;
  readonly f: (dx: Float64Array, y: Float64Array, t: number) => void;
  readonly jacobian: JacobianFn;
}

export interface Solved {
  readonly y: Float64Array;
  readonly stats: StepperStats;
}

/** integrates the problem from 0 to tEnd with RADAU5 (one step() per accepted step), with its Jacobian unless told not to */
export function solve(p: Ivp, options: { rtol: number; atol: number; h0: number; jacobian?: boolean; tEnd?: number }): Solved {
  const tEnd = options.tEnd ?? p.tEnd;
  const settings: StepperSettings = { step: options.h0, stop: tEnd, rtol: options.rtol, atol: options.atol, maxSteps: 1e6 };
  if (options.jacobian !== false) settings.jacobian = p.jacobian;
  const s = new Radau5Stepper(Float64Array.from(p.y0), p.f, 0, settings);
  while (s.t < tEnd) s.step(tEnd);
  return { y: Float64Array.from(s.x), stats: { ...s.stats } };
}

/** the test set's scd: significant correct digits, -log10 of the largest relative error over the components */
export function scd(y: ArrayLike<number>, ref: readonly number[]): number {
  return Math.min(...ref.map((r, i) => -Math.log10(Math.abs((y[i] - r) / r))));
}

/** the test set's mescd: mixed error, -log10 max |y_i - ref_i| / (atol/rtol + |ref_i|) */
export function mescd(y: ArrayLike<number>, ref: readonly number[], atolOverRtol: number): number {
  return Math.min(...ref.map((r, i) => -Math.log10(Math.abs(y[i] - r) / (atolOverRtol + Math.abs(r)))));
}

/** Van der Pol in Hairer's scaled form (vdpol.f): y1' = y2, ε y2' = (1 - y1²) y2 - y1; ε = 1/μ² */
export function vdpol(eps: number, y0: readonly number[] = [2, 0], tEnd = 2): Ivp {
  return {
    y0,
    tEnd,
    f: (dx, y) => {
      dx[0] = y[1];
      dx[1] = ((1 - y[0] * y[0]) * y[1] - y[0]) / eps;
    },
    jacobian: (J, y) => {
      J[0] = 0;
      J[1] = 1;
      J[2] = (-2 * y[0] * y[1] - 1) / eps;
      J[3] = (1 - y[0] * y[0]) / eps;
    },
  };
}

/** vdpol.f's reference at t = 2 (ε = 1e-6, y0 = (2, 0)) */
export const VDPOL_REFERENCE = [0.1706167732170483e1, -0.8928097010247975];

/** Robertson's chemical kinetics (rober.f), t in [0, 1e11] */
export const rober: Ivp = {
  y0: [1, 0, 0],
  tEnd: 1e11,
  f: (dx, y) => {
    dx[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
    dx[1] = 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] * y[1];
    dx[2] = 3e7 * y[1] * y[1];
  },
  jacobian: (J, y) => {
    J.set([-0.04, 1e4 * y[2], 1e4 * y[1], 0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1], 0, 6e7 * y[1], 0]);
  },
};

/** rober.f's reference at t = 1e11 */
export const ROBER_REFERENCE = [0.2083340149701255e-7, 0.8333360770334713e-13, 0.999999979166505];

/** HIRES, High Irradiance RESponse of plant physiology (hires.f), t in [0, 321.8122] */
export const hires: Ivp = {
  y0: [1, 0, 0, 0, 0, 0, 0, 0.0057],
  tEnd: 321.8122,
  f: (f, y) => {
    f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
    f[1] = 1.71 * y[0] - 8.75 * y[1];
    f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
    f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
    f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
    f[5] = -280 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
    f[6] = 280 * y[5] * y[7] - 1.81 * y[6];
    f[7] = -f[6];
  },
  jacobian: (J, y) => {
    J.fill(0);
    const at = (i: number, j: number, v: number) => (J[(i - 1) * 8 + j - 1] = v);
    (at(1, 1, -1.71), at(1, 2, 0.43), at(1, 3, 8.32));
    (at(2, 1, 1.71), at(2, 2, -8.75));
    (at(3, 3, -10.03), at(3, 4, 0.43), at(3, 5, 0.035));
    (at(4, 2, 8.32), at(4, 3, 1.71), at(4, 4, -1.12));
    (at(5, 5, -1.745), at(5, 6, 0.43), at(5, 7, 0.43));
    (at(6, 4, 0.69), at(6, 5, 1.71), at(6, 6, -280 * y[7] - 0.43), at(6, 7, 0.69), at(6, 8, -280 * y[5]));
    (at(7, 6, 280 * y[7]), at(7, 7, -1.81), at(7, 8, 280 * y[5]));
    (at(8, 6, -280 * y[7]), at(8, 7, 1.81), at(8, 8, -280 * y[5]));
  },
};

/** hires.f's reference at t = 321.8122 */
export const HIRES_REFERENCE = [
  0.7371312573325668e-3, 0.1442485726316185e-3, 0.5888729740967575e-4, 0.1175651343283149e-2, 0.2386356198831331e-2, 0.6238968252742796e-2,
  0.2849998395185769e-2, 0.2850001604814231e-2,
];
