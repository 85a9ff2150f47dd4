// Events declared in components (Component.when): a zero-crossing indicator,
// the direction of the crossings that count, and the actions applied at the
// crossing: states reinitialised (Modelica's reinit) and modes set. The
// design follows Modelica's `when c then reinit(v, -e*pre(v)); end when;`:
// the indicator is a continuous expression whose sign change is the
// condition (Modelica's relation `q > qmax` is `q - qmax` rising here), and
// every value an action assigns is computed from the values just before the
// event (so `v` in an action is Modelica's pre(v)), all before any is
// assigned. Compilation (codegen/events.ts) turns them into the compiled
// model's indicators(t, x, out) and apply(k, t, x); sim/events.ts finds the
// crossings.
import type { Expr } from '../expr/index.ts';
import { ModelError } from '../errors.ts';
import type { Component } from './component.ts';
import { variableOf } from './variable.ts';

/** which sign changes of the indicator are events: - to + (rising), + to - (falling), or both */
export type Direction = 'rising' | 'falling' | 'both';

export const DIRECTIONS: readonly Direction[] = ['rising', 'falling', 'both'];

/** what Component.when() takes besides the indicator */
export interface WhenActions {
  /** default 'both' */
  direction?: Direction;
  /** [state, value]: the state takes the value (of the values before the event) */
  reinit?: readonly (readonly [state: Expr, value: Expr | number])[];
  /** [mode, value]: the mode (Component.mode) takes the value */
  set?: readonly (readonly [mode: Expr, value: Expr | number])[];
}

/** an event as a component declared it */
export interface EventDeclaration {
  readonly localName: string;
  readonly indicator: Expr;
  readonly direction: Direction;
  readonly reinit: readonly (readonly [Expr, Expr])[];
  readonly set: readonly (readonly [Expr, Expr])[];
  readonly origin: Component;
}

/** an event's full name: its component's path and its own */
export const eventName = (e: EventDeclaration): string => (e.origin.path ? `${e.origin.path}.${e.localName}` : e.localName);

/** a when() the model cannot run, as a ModelError naming the component and event */
export function checkWhen(c: Component, name: string, actions: WhenActions): void {
  const full = c.path ? `${c.path}.${name}` : name;
  const fail = (what: string, hint: string) => {
    throw new ModelError(`event ${full}: ${what}`, { component: c.path, hint });
  };
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) fail('invalid event name', 'use letters, digits and underscores, starting with a letter');
  if (c.events.some((e) => e.localName === name)) fail('declared twice', 'give every event of a component its own name');
  if (actions.direction !== undefined && !DIRECTIONS.includes(actions.direction))
    fail(`direction "${actions.direction}" is not known`, `use ${DIRECTIONS.join(', ')}`);
  for (const [v] of actions.reinit ?? []) {
    if (!variableOf(v))
      fail(
        'reinit() takes a state variable, not an expression',
        'write reinit: [[qd, value]] with a variable declared by variable() and differentiated by der()',
      );
  }
  for (const [v] of actions.set ?? []) {
    if (!variableOf(v)?.mode) fail('set takes a mode declared with mode()', 'declare the discrete variable with this.mode(name, start)');
  }
  if (!(actions.reinit?.length || actions.set?.length)) fail('has no action', 'give reinit: [[state, value]] or set: [[mode, value]]');
}
