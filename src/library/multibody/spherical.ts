// Spherical (ball) joint. As a cut joint it constrains the three translations
// (tearing paper: residue(dummyq) = r_rel, residue(dummyqd) = v_rel,
// residue(fc) = a_rel); it transmits no torque. As a tree joint it is three
// revolutes about x, y, z of frame_a (Cardan angles q[1..3]), which are
// singular where q[2] = ±90°: prefer it as the cut joint of a loop.
import { WORLD_AXES, closeLoop, translation } from './cut.ts';
import { MULTI_AXIS_OPTIONS, type MultiAxisOptions, RotationSequence } from './rotation-sequence.ts';
import { checkOptions } from '../options.ts';
import { type Pose, difference } from './start-pose.ts';
import type { SingularPose } from '../../model/index.ts';

export class Spherical extends RotationSequence {
  constructor(name: string, options: MultiAxisOptions = {}) {
    checkOptions(`joint ${name}`, options, MULTI_AXIS_OPTIONS);
    super(
      name,
      [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      options,
    );
  }

  cutConstraints(): number {
    return 3;
  }

  // Rx(q1) Ry(q2) Rz(q3): the third axis R_x R_y z lines up with the first, x, where cos q2 = 0
  override singularPoses(): readonly SingularPose[] {
    if (this.role !== 'state' || this.restAxes?.has(1)) return [];
    const q2 = `${this.path}.q[2]`;
    return [
      {
        state: this.coordinates[1].q,
        rates: [this.coordinates[0].qd, this.coordinates[2].qd],
        what: `(Cardan angles q[1..3] about x, y, z) passed or came near gimbal lock, ${q2} = +-90 degrees, where its first and third axes line up and the rates of q[1] and q[3] grow without bound`,
        hint: `Cardan angles cannot pass ${q2} = +-90 degrees, and near it only steps short enough for the fast q[1] and q[3] follow the motion: turn the joint's frame_a (a fixedRotation before it) so that the motion keeps ${q2} away from it, or use a joint without this singular pose (a quaternion ball joint)`,
      },
    ];
  }

  cutResidual(a: Pose, b: Pose): number[] {
    return difference(b.p, a.p);
  }

  protected cutEquations(): void {
    closeLoop(
      this,
      this.frame_a,
      this.frame_b,
      WORLD_AXES.map((u) => translation(this.frame_a, this.frame_b, u, true)),
    );
  }
}
