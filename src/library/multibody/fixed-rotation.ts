// frame_b rotated by a constant angle about a constant axis (frame_a
// coordinates) and translated by r: R_b = R_a R(n, angle).
import { type Vec3Like, axisRotation, mulMM, mulMV } from '../../expr/index.ts';
import { Component } from '../../model/index.ts';
import { Frame } from './frame.ts';
import { matrixEquation, rigidOffset } from './kinematics.ts';
import { unitAxis } from './axis.ts';

export interface FixedRotationOptions {
  /** rotation axis in frame_a coordinates (normalised) */
  axis: Vec3Like;
  /** rotation angle (rad) */
  angle: number;
  /** translation from frame_a to frame_b in frame_a coordinates (m) */
  r?: Vec3Like;
}

export class FixedRotation extends Component {
  readonly frame_a: Frame;
  readonly frame_b: Frame;

  constructor(name: string, options: FixedRotationOptions) {
    super(name);
    this.frame_a = this.add(new Frame('frame_a'));
    this.frame_b = this.add(new Frame('frame_b'));
    const n = unitAxis(this, options.axis);
    const fa = this.frame_a, fb = this.frame_b;
    matrixEquation(this, fb.R, mulMM(fa.R, axisRotation(n, options.angle)));
    rigidOffset(this, fa, fb, mulMV(fa.R, options.r ?? [0, 0, 0]));
  }
}
