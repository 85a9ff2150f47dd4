// frame_b rotated by a constant angle about a constant axis (frame_a
// coordinates) and translated by r: R_b = R_a R(n, angle).
import { type Expr, type Mat3, type Vec3Like, ZERO, axisRotation, ex, mat3, mulMM, mulMV } from '../../expr/index.ts';
import { Component } from '../../model/index.ts';
import { Frame } from './frame.ts';
import { matrixEquation, rigidOffset } from './kinematics.ts';
import { unitAxis } from './axis.ts';
import { NUMBER, NUMBERS, type OptionKind, checkOptions } from '../options.ts';

/** a rigid offset and rotation between two frames */
export interface FixedRotationOptions {
  /** rotation axis in frame_a coordinates (normalised) */
  axis: Vec3Like;
  /** rotation angle (rad) */
  angle: number;
  /** translation from frame_a to frame_b in frame_a coordinates (m) */
  r?: Vec3Like;
}

/** entries within 1e-15 of 0 or ±1 made exact, so that cos(pi/2) leaves a structural zero */
function snapped(R: Mat3): Mat3 {
  const snap = (e: Expr) => {
    if (e.op !== 'const') return e;
    const v = e.value;
    return Math.abs(v) < 1e-15 ? ZERO : Math.abs(Math.abs(v) - 1) < 1e-15 ? ex(Math.sign(v)) : e;
  };
  return mat3([R[0].map(snap) as never, R[1].map(snap) as never, R[2].map(snap) as never]);
}

const FIXEDROTATION_OPTIONS = { axis: NUMBERS, angle: NUMBER, r: NUMBERS } satisfies Record<keyof FixedRotationOptions, OptionKind>;

export class FixedRotation extends Component {
  /** the first frame */
  readonly frame_a: Frame;
  /** frame_a moved by r, then rotated by angle about the axis */
  readonly frame_b: Frame;
  /** the unit axis, angle and offset as given, for the builder's start pose (start-pose.ts) */
  readonly axis: readonly number[];
  /** the rotation angle (rad) */
  readonly angle: number;
  /** frame_b's origin in frame_a coordinates (m) */
  readonly r: readonly number[];

  constructor(name: string, options: FixedRotationOptions) {
    super(name);
    checkOptions(`fixed rotation ${name}`, options, FIXEDROTATION_OPTIONS);
    this.frame_a = this.add(new Frame('frame_a'));
    this.frame_b = this.add(new Frame('frame_b'));
    const n = unitAxis(this, options.axis);
    this.axis = n.map((x) => x.value);
    this.angle = options.angle;
    this.r = (options.r ?? [0, 0, 0]).map(Number);
    const fa = this.frame_a,
      fb = this.frame_b;
    matrixEquation(this, fb.R, mulMM(fa.R, snapped(axisRotation(n, options.angle))));
    rigidOffset(this, fa, fb, mulMV(fa.R, options.r ?? [0, 0, 0]));
  }
}
