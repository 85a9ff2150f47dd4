// Classical RK4 on a compiled model's derivatives, step by step as ode-rk4
// takes them, recording signals at each step's first stage and stopping at
// the first error the model raises (the tests of change points and gimbal
// lock read the run up to that error).
import type { CompiledModel } from '../../src/codegen/compiled.ts';

export interface Rk4Run {
  /** each signal at every accepted step, by name */
  readonly signals: Record<string, number[]>;
  /** the error that stopped the run, if any */
  error?: Error;
}

export function rk4Run(c: CompiledModel, h: number, stop: number, names: readonly string[], start?: Readonly<Record<string, number>>): Rk4Run {
  const s = c.createState({ start }),
    x = s.x0(),
    n = x.length;
  const k1 = new Float64Array(n),
    k2 = new Float64Array(n),
    k3 = new Float64Array(n),
    k4 = new Float64Array(n),
    y = new Float64Array(n);
  const run: Rk4Run = { signals: Object.fromEntries(names.map((name) => [name, []])) };
  try {
    for (let i = 0, t = 0; t < stop - 1e-12; i++, t = i * h) {
      s.derivatives(t, x, k1);
      for (const name of names) run.signals[name].push(s.signal(name));
      for (let j = 0; j < n; j++) y[j] = x[j] + (h / 2) * k1[j];
      s.derivatives(t + h / 2, y, k2);
      for (let j = 0; j < n; j++) y[j] = x[j] + (h / 2) * k2[j];
      s.derivatives(t + h / 2, y, k3);
      for (let j = 0; j < n; j++) y[j] = x[j] + h * k3[j];
      s.derivatives(t + h, y, k4);
      for (let j = 0; j < n; j++) x[j] += (h / 6) * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
    }
  } catch (e) {
    run.error = e as Error;
  }
  return run;
}

/** the largest relative change of a signal over a run (the energy's) */
export const drift = (values: readonly number[]) => Math.max(...values.map((e) => Math.abs(e - values[0]))) / Math.abs(values[0]);
