// Types for the ode45-cash-karp package (adaptive fifth-order Runge-Kutta,
// Cash-Karp embedded pair): the options and fields Kron uses.
declare module 'ode45-cash-karp' {
  type Vector = Float64Array | number[];
  interface Options {
    /** accepted when the reduced, scaled error estimate is below tol */
    tol?: number;
    dtMinMag?: number;
    dtMaxMag?: number;
    maxIncreaseFactor?: number;
    maxDecreaseFactor?: number;
    /** log warnings with console.log (default true) */
    verbose?: boolean;
    /** the scale that component i's error estimate is divided by */
    errorScaleFunction?: (i: number, dt: number, y: number, dydt: number) => number;
    /** folds the scaled error estimates of all components into one */
    errorReduceFunction?: (i: number, accumulated: number, estimate: number) => number;
  }
  interface Integrator<V extends Vector> {
    /** current state, updated in place by step() */
    y: V;
    t: number;
    /** the step size the next step tries */
    dt: number;
    /** one accepted step, not past tLimit; false when already at tLimit */
    step(tLimit?: number): boolean;
  }
  export default function ode45<V extends Vector>(y0: V, deriv: (dydt: V, y: V, t: number) => void, t0: number, dt0: number, options?: Options): Integrator<V>;
}
