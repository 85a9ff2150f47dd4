// The inertial frame and gravity. Its frame_b is fixed at the origin; the
// gravity vector g (parameters world.g[1..3], so `--set world.g[2]=-1.62`
// works) reaches every Body through the Mechanism builder.
import type { Vec3 } from '../../expr/index.ts';
import { vec3 } from '../../expr/index.ts';
import { Component } from '../../model/index.ts';
import { Frame } from './frame.ts';
import type { Floor } from './geometry.ts';
import { matrixEquation } from './kinematics.ts';

/** standard gravity, m/s^2 */
export const STANDARD_GRAVITY = 9.80665;

export class World extends Component {
  /** the world frame: the inertial frame every mechanism hangs from */
  readonly frame_b: Frame;
  /** gravity, world-resolved (m/s^2) */
  readonly g: Vec3;
  /** the ground the viewer draws (an MJCF floor plane); none: a grid just below the mechanism */
  floor?: Floor;

  constructor(name = 'world', gravity: readonly [number, number, number] = [0, -STANDARD_GRAVITY, 0]) {
    super(name);
    this.frame_b = this.add(new Frame('frame_b'));
    this.g = vec3(...([1, 2, 3].map((i) => this.parameter(`g[${i}]`, gravity[i - 1])) as [never, never, never]));
    const b = this.frame_b;
    matrixEquation(this, b.R, [vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1)]);
    for (const v of [b.r, b.w, b.v, b.z, b.a]) this.vectorEquation(v, [0, 0, 0]);
  }
}
