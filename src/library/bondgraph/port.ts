// A bond-graph power port as a connector (bond graph paper, section 5):
// cut (e / f), effort e across, flow f through, positive into the element,
// so e * f is the power flowing into the element. Connecting two ports is a
// bond; connecting several ports at one point is a 0-junction ("node").
import type { Ex } from '../../expr/index.ts';
import type { Component, Connector } from '../../model/index.ts';

/** a port connector { across: { e }, through: { f } } on component c */
export function port(c: Component, name: string, e: Ex, f: Ex): Connector {
  return c.connector(name, { across: { e }, through: { f } });
}
