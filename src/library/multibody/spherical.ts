// Spherical (ball) joint. As a cut joint it constrains the three translations
// (tearing paper: residue(dummyq) = r_rel, residue(dummyqd) = v_rel,
// residue(fc) = a_rel); it transmits no torque. As a tree joint it is three
// revolutes about x, y, z of frame_a (Cardan angles q[1..3]), which are
// singular where q[2] = ±90°: prefer it as the cut joint of a loop.
import { WORLD_AXES, closeLoop, translation } from './cut.ts';
import { type MultiAxisOptions, RotationSequence } from './rotation-sequence.ts';
import { type Pose, difference } from './start-pose.ts';

export class Spherical extends RotationSequence {
  constructor(name: string, options: MultiAxisOptions = {}) {
    super(name, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], options);
  }

  cutConstraints(): number {
    return 3;
  }

  cutResidual(a: Pose, b: Pose): number[] {
    return difference(b.p, a.p);
  }

  protected cutEquations(): void {
    closeLoop(this, this.frame_a, this.frame_b, WORLD_AXES.map((u) => translation(this.frame_a, this.frame_b, u, true)));
  }
}
