// Types for the ode-rk4 package (fixed-step classical Runge-Kutta).
declare module 'ode-rk4' {
  type Vector = Float64Array | number[];
  interface Integrator<V extends Vector> {
    /** current state, updated in place by step() */
    y: V;
    t: number;
    dt: number;
    n: number;
    step(): Integrator<V>;
    steps(n: number): Integrator<V>;
  }
  export default function rk4<V extends Vector>(y0: V, deriv: (dydt: V, y: V, t: number) => void, t0: number, dt: number): Integrator<V>;
}
