// A massless bar: frame_b at the constant offset r (frame_a coordinates) from
// frame_a, same orientation (relaxing paper eqs. 25-26).
import { type Vec3Like, mulMV } from '../../expr/index.ts';
import { Component } from '../../model/index.ts';
import { Frame } from './frame.ts';
import type { Geometry } from './geometry.ts';
import { matrixEquation, rigidOffset } from './kinematics.ts';
import { centripetal } from './world-inertia.ts';
import { NUMBERS, OBJECT, type OptionKind, checkOptions } from '../options.ts';

/** a rigid bar's offset and its drawing */
export interface FixedTranslationOptions {
  /** offset from frame_a to frame_b in frame_a coordinates (m) */
  r: Vec3Like;
  /** how the viewer draws it (default a rod along r) */
  geometry?: Geometry;
}

const FIXEDTRANSLATION_OPTIONS = { r: NUMBERS, geometry: OBJECT } satisfies Record<keyof FixedTranslationOptions, OptionKind>;

export class FixedTranslation extends Component {
  /** the bar's first end */
  readonly frame_a: Frame;
  /** the bar's second end: frame_a moved by r, not rotated */
  readonly frame_b: Frame;
  /** frame_b's origin in frame_a coordinates (m) */
  readonly r: readonly number[];
  /** how the viewer draws it */
  readonly geometry: Geometry | undefined;

  constructor(name: string, options: FixedTranslationOptions) {
    super(name);
    checkOptions(`bar ${name}`, options, FIXEDTRANSLATION_OPTIONS);
    this.frame_a = this.add(new Frame('frame_a'));
    this.frame_b = this.add(new Frame('frame_b'));
    this.r = options.r.map(Number);
    this.geometry = options.geometry;
    const r = options.r.map((x, i) => this.parameter(`r[${i + 1}]`, Number(x))) as [never, never, never];
    const fa = this.frame_a,
      fb = this.frame_b;
    matrixEquation(this, fb.R, fa.R);
    // w x (w x R r) as the body on frame_a writes it: the two share w . c_k and w . w
    rigidOffset(this, fa, fb, mulMV(fa.R, r), centripetal(fa.w, fa.R, r, this.r));
  }
}

/** the relaxing paper's name for it */
export { FixedTranslation as Bar };
