// Controllers from code: a function the integrator calls at every evaluation
// of the state derivatives (each RK4 stage, each stage of an adaptive step,
// accepted or not, and once per sample that records more than states), before the compiled code runs. It
// sees the time and the states of that evaluation by name and sets inputs by
// name; what it sets holds until it sets it again. Since stages and rejected
// steps call it too, it must be a function of (t, state) with no memory
// between calls: integral action belongs in the model, as a state.
import { KronError, SimulationError } from '../errors.ts';
import type { ModelState } from '../codegen/state.ts';

/**
 * A controller: `(t, state, inputs) => void`.
 * - `t`: the time of this evaluation (an RK4 stage's t, t + h/2 or t + h);
 * - `state`: the states of this evaluation by name (`j1.q`, `j1.qd`: the
 *   compiled model's `stateNames`), which are the stage's values, not the last
 *   accepted step's; one object reused between calls (copy what you keep;
 *   writing to it changes nothing);
 * - `inputs`: the model's inputs by name (`j1.tau`), holding their current
 *   values (the `inputs` option's, else the last value set); assign the ones to
 *   drive. A name that is not an input, or a value that is not a finite
 *   number, stops the run with a SimulationError naming the controller.
 */
export type Controller = (t: number, state: Readonly<Record<string, number>>, inputs: Record<string, number>) => void;

/** an error the controller hook raised itself: passed on as it is, never wrapped */
class ControllerFault extends SimulationError {}

// (model state, controller, its name for messages) => (t, x) => the controller run on (t, x), its inputs written into the state
export function controllerHook(state: ModelState, controller: Controller, name: string): (t: number, x: Float64Array) => void {
  const names = state.model.stateNames;
  const view: Record<string, number> = {};
  for (const n of names) view[n] = 0;
  let at = 0;
  const inputs = inputView(state, name, () => at);
  return (t, x) => {
    at = t;
    for (let i = 0; i < names.length; i++) view[names[i]] = x[i];
    try {
      controller(t, view, inputs);
    } catch (e) {
      // the hook's own errors, and those the command line's guard raises naming the controller module (process.exit: node/user-code.ts)
      if (e instanceof ControllerFault || (e instanceof KronError && e.details.component === name)) throw e;
      const message = e instanceof Error ? e.message : String(e);
      throw new SimulationError(`controller ${name} failed at time ${t}: ${message}`, {
        component: name,
        hint: 'the error is the controller\'s own; it is called as controller(t, state, inputs) at every evaluation of the derivatives (each RK4 stage), state by state name (e.g. state["j1.q"])',
      });
    }
  };
}

// the inputs by name over the state's input array u: a set writes u directly (checked), a get reads it
function inputView(state: ModelState, controller: string, time: () => number): Record<string, number> {
  const layout = state.model.generated.layout.inputs;
  const index = new Map(layout.map((n, i) => [n, i]));
  const target: Record<string, number> = {};
  for (const n of layout) target[n] = 0;
  return new Proxy(target, {
    get: (_, key) => {
      const i = typeof key === 'string' ? index.get(key) : undefined;
      return i === undefined ? undefined : state.u[i];
    },
    set: (_, key, value) => {
      const i = typeof key === 'string' ? index.get(key) : undefined;
      if (i === undefined) throw unknownInput(state, controller, String(key));
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new ControllerFault(`controller ${controller} set input ${String(key)} to ${String(value)} at time ${time()}`, {
          component: controller,
          variables: [String(key)],
          hint: `set inputs to finite numbers; state[name] is undefined for a name that is not a state (states: ${shortList(state.model.stateNames)})`,
        });
      }
      state.u[i] = value;
      return true;
    },
    // the inputs are fixed: no new names, none removed
    defineProperty: (_, key) => {
      throw unknownInput(state, controller, String(key));
    },
    deleteProperty: () => false,
  });
}

const shortList = (names: readonly string[]) => `${names.slice(0, 20).join(', ') || '(none)'}${names.length > 20 ? ', ...' : ''}`;

function unknownInput(state: ModelState, controller: string, name: string): KronError {
  const inputs = state.model.generated.layout.inputs;
  const list = `inputs: ${shortList(inputs)}`;
  const defined = state.model.hasSignal(name);
  return new ControllerFault(`controller ${controller} sets ${name}, which is not an input of the model`, {
    component: controller,
    variables: [name],
    hint: defined
      ? `${name} is computed by the model's equations (an equation defines it, e.g. a controller in the model): drive a model without it; ${list}`
      : list,
  });
}
