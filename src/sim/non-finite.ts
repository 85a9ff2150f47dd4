// The error of a step that produced a non-finite value: the step replayed
// stage by stage to name the first non-finite variable (simulate.ts's).
import { SimulationError } from '../errors.ts';
import type { ModelState } from '../codegen/state.ts';

type Derivatives = (dx: Float64Array, x: Float64Array, t: number) => void;

/**
 * Replays the failed step as an RK4 step stage by stage (same stages as
 * ode-rk4; for the adaptive integrator a probe over the step it tried) and
 * names the first non-finite variable, in solve order, at the first stage
 * whose derivatives are not finite.
 */
export function nonFinite(state: ModelState, t: number, x: Float64Array, h: number, deriv: Derivatives): SimulationError {
  const n = x.length;
  const k = new Float64Array(n),
    stage = Float64Array.from(x);
  let first: { name: string; equation: string } | undefined;
  let at = t;
  for (const [c, weight] of [
    [0, 0],
    [0.5, 0.5],
    [0.5, 0.5],
    [1, 1],
  ] as const) {
    for (let i = 0; i < n; i++) stage[i] = x[i] + weight * h * k[i];
    at = t + c * h;
    try {
      deriv(k, stage, at);
    } catch {
      /* the workspace holds what was computed */
    }
    if (!k.every(Number.isFinite) || !stage.every(Number.isFinite)) {
      first = state.firstNonFinite(at, stage);
      break;
    }
  }
  const what = first ? `${first.name} (${first.equation})` : 'a state';
  return new SimulationError(`a non-finite value appeared in the step from time ${t}, at time ${at}: first non-finite variable ${what}`, {
    variables: first ? [first.name] : [],
    hint: 'a division by zero or a value growing without bound: check parameters and start values, or reduce --step',
  });
}
