// The electrical pin: cut (V / i), across potential v, through current i
// (positive into the component).
import type { Ex } from '../../expr/index.ts';
import type { Component, Connector } from '../../model/index.ts';

/** a pin connector { across: { v }, through: { i } } on component c */
export function pin(c: Component, name: string, v: Ex, i: Ex): Connector {
  return c.connector(name, { across: { v }, through: { i } });
}
