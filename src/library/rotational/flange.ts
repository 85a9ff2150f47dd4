// The rotational flange of the relaxing paper, section 3:
//   cut l (w, a / tl)     left flange: torque tl flows into the component
//   cut r (w, a / -tr)    right flange: torque tr flows out to the next one
// across: angular velocity w and angular acceleration a; through: cut torque t.
import type { Ex } from '../../expr/index.ts';
import type { Component, Connector } from '../../model/index.ts';

/** a flange connector { across: { w, a }, through: { t } } on component c */
export function flange(c: Component, name: string, w: Ex, a: Ex, t: Ex): Connector {
  return c.connector(name, { across: { w, a }, through: { t } });
}
