// Weld: a cut joint that holds frame_b at frame_a's pose (MJCF's weld
// equality), always a loop's cut: it has no coordinates of its own. Its six
// constraints (cut.ts, tearing paper eqs. 2b-2d) are the three translations
// and three orientations, x_a . y_b = 0, y_a . z_b = 0, z_a . x_b = 0,
// whose constraint torques z, x, y are independent where the frames line up.
// In a planar loop (every joint turning about or sliding normal to one axis
// p) three of them are implied by the loop's motion and would make the torn
// position Jacobian singular: the builder sets planarCut and the plane, and
// the weld keeps the two translations in the planes and the turn about p
// (n1_a . n2_b = 0 with n1, n2 normal to p).
import { type Vec3, mulMV, vec3 } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { type Constraint, WORLD_AXES, closeLoop, inPlane, orientation, planeDirections, translation } from './cut.ts';
import type { Geometry } from './geometry.ts';
import { type CutPlane, Joint, type RelativePose } from './joint.ts';
import { type Pose, apply, difference, dot3 } from './start-pose.ts';

/** a weld's drawing */
export interface WeldOptions {
  /** how the viewer draws the joint */
  geometry?: Geometry;
}

const AXES = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
/** the orientation constraints' pairs: u_i of frame_a normal to e_(i+1) of frame_b */
const PAIRS: [number, number][] = [
  [0, 1],
  [1, 2],
  [2, 0],
];

export class Weld extends Joint {
  readonly dof = 0;
  override readonly canBeRest = false;
  /** a planar weld: the planes' normal in frame_a coordinates, and whether the plane is fixed in the world (set by the builder) */
  plane: CutPlane | undefined;

  constructor(name: string, options: WeldOptions = {}) {
    super(name, { ...options, cut: true });
  }

  stateCoordinates(): never[] {
    return [];
  }

  cutConstraints(planar: boolean): number {
    return planar ? 3 : 6;
  }

  startCoordinates(): number[] {
    return [];
  }

  relativePose(): RelativePose {
    return { R: AXES.map((r) => [...r]), p: [0, 0, 0] };
  }

  cutResidual(a: Pose, b: Pose): number[] {
    const d = difference(b.p, a.p);
    if (this.planarCut && this.plane) {
      const [n1, n2] = planeDirections(this.plane.normal).map((u) => apply(a.R, u));
      return [dot3(n1, d), dot3(n2, d), dot3(n1, apply(b.R, planeDirections(this.plane.normal)[1]))];
    }
    return [...d, ...PAIRS.map(([i, k]) => dot3(apply(a.R, AXES[i]), apply(b.R, AXES[k])))];
  }

  protected treeEquations(): void {
    // never reached: the constructor marks it cut, and the spanning tree leaves cut joints out
    throw new ModelError(`weld ${this.path} is not a loop's cut`, {
      component: this.path,
      hint: 'a weld closes a kinematic loop; connect two bodies directly to join them rigidly',
    });
  }

  protected cutEquations(): void {
    const fa = this.frame_a,
      fb = this.frame_b;
    const inA = (v: readonly number[]): Vec3 => mulMV(fa.R, vec3(v[0], v[1], v[2]));
    const inB = (v: readonly number[]): Vec3 => mulMV(fb.R, vec3(v[0], v[1], v[2]));
    let constraints: Constraint[];
    if (this.planarCut && this.plane) {
      const [n1, n2] = planeDirections(this.plane.normal);
      constraints = [...inPlane(fa, fb, this.plane.normal, this.plane.inWorld), orientation(fa, fb, inA(n1), inB(n2), 0)];
    } else {
      constraints = [...WORLD_AXES.map((u) => translation(fa, fb, u, true)), ...PAIRS.map(([i, k]) => orientation(fa, fb, inA(AXES[i]), inB(AXES[k]), 0))];
    }
    closeLoop(this, fa, fb, constraints);
  }
}
