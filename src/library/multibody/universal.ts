// Universal (cardan) joint: rotation q[1] about axis 1 (frame_a coordinates),
// then q[2] about axis 2 (coordinates of the frame after the first rotation;
// default x then y). As a cut joint: the three translations and the angle
// between axis 1 (fixed in frame_a) and axis 2 (fixed in frame_b) held.
import { type Vec3Like, mulMV } from '../../expr/index.ts';
import { WORLD_AXES, closeLoop, orientation, translation } from './cut.ts';
import { MULTI_AXIS_OPTIONS, type MultiAxisOptions, RotationSequence } from './rotation-sequence.ts';
import { NUMBERS, type OptionKind, checkOptions } from '../options.ts';
import { type Pose, apply, difference, dot3 } from './start-pose.ts';

export interface UniversalOptions extends MultiAxisOptions {
  /** the two axes (default x and y) */
  axes?: readonly [Vec3Like, Vec3Like];
}

const UNIVERSAL_OPTIONS = { ...MULTI_AXIS_OPTIONS, axes: NUMBERS } satisfies Record<keyof UniversalOptions, OptionKind>;

export class Universal extends RotationSequence {
  constructor(name: string, options: UniversalOptions = {}) {
    checkOptions(`joint ${name}`, options, UNIVERSAL_OPTIONS);
    super(
      name,
      options.axes ?? [
        [1, 0, 0],
        [0, 1, 0],
      ],
      options,
    );
  }

  cutConstraints(): number {
    return 4;
  }

  cutResidual(a: Pose, b: Pose): number[] {
    const [n1, n2] = this.axes.map((n) => n.map((x) => x.value));
    return [...difference(b.p, a.p), dot3(apply(a.R, n1), apply(b.R, n2))];
  }

  protected cutEquations(): void {
    const fa = this.frame_a,
      fb = this.frame_b;
    const [n1, n2] = this.axes;
    const c = n1.reduce((s, x, i) => s + x.value * n2[i].value, 0);
    const angle = orientation(fa, fb, mulMV(fa.R, n1), mulMV(fb.R, n2), c);
    closeLoop(this, fa, fb, [...WORLD_AXES.map((u) => translation(fa, fb, u, true)), angle]);
  }
}
