// Joints made of k revolute axes through one point with no mass between them:
// the universal (cardan) joint, two axes, and the spherical joint, three.
// Axis i is given in the frame left by the rotations before it, and
//   R_0 = R_a,  R_i = R_{i-1} R(n_i, q_i),  e_i = R_{i-1} n_i   (world-resolved)
//   R_b = R_k            r_b = r_a        v_b = v_a        a_b = relax(a_a)
//   w_b = w_a + sum e_i qd_i
//   z_b = relax(z_a) + sum e_i qdd_i + sum w_{i-1} x (e_i qd_i),  w_i = w_{i-1} + e_i qd_i
//   f_a + f_b = 0,  t_a + t_b = 0
//   -e_i . t_b = tau_total,i + residue(qdd_i)        (one d'Alembert equation per axis)
// which is the revolute joint's eqs. 27-29 applied k times over massless frames.
// Coordinates are q[i], qd[i], qdd[i] with inputs tau[i].
import { type Mat3, type Vec3, type Vec3Like, add, axisRotation, cross, dot, mulMM, mulMV, residue, vadd, vec3, vneg, vscale } from '../../expr/index.ts';
import { unitAxis } from './axis.ts';
import { type Coordinate, coordinate, coordinateRole, Joint, type JointOptions, type RelativePose } from './joint.ts';
import { cutBalance, matrixEquation } from './kinematics.ts';
import { relax3 } from './revolute.ts';
import { multiply, rotationMatrix } from './start-pose.ts';
import { BOOLEAN, NUMBER, NUMBERS, OBJECT, type OptionKind, oneOf } from '../options.ts';

/** limits and friction are for one-degree-of-freedom joints (revolute, prismatic) */
export interface MultiAxisOptions extends Omit<
  JointOptions,
  'axis' | 'q' | 'qd' | 'tau' | 'c' | 'q0' | 'd' | 'armature' | 'limits' | 'limitStiffness' | 'limitDamping' | 'friction' | 'frictionVelocity'
> {
  /** start values (guesses unless the joint is a state joint), one per axis */
  q?: readonly number[];
  /** start speeds, one per axis */
  qd?: readonly number[];
  /** damping on every axis */
  d?: number;
}

/** what each option of a spherical joint must be (options.ts) */
export const MULTI_AXIS_OPTIONS = {
  q: NUMBERS,
  qd: NUMBERS,
  d: NUMBER,
  limitKind: oneOf('spring', 'impact'),
  restitution: NUMBER,
  restVelocity: NUMBER,
  cut: oneOf(true, false, 'planar'),
  state: BOOLEAN,
  geometry: OBJECT,
} satisfies Record<keyof MultiAxisOptions, OptionKind>;

export abstract class RotationSequence extends Joint {
  /** the rotation axes, in the order the rotations apply */
  readonly axes: readonly Vec3[];
  readonly dof: number;
  /** the coordinates, once the joint is a tree joint (after elaboration) */
  coordinates: Coordinate[] = [];
  private readonly options: MultiAxisOptions;

  constructor(name: string, axes: readonly Vec3Like[], options: MultiAxisOptions) {
    super(name, options);
    this.axes = axes.map((a) => unitAxis(this, a));
    this.dof = axes.length;
    this.options = options;
  }

  stateCoordinates(): Coordinate[] {
    return this.role === 'state' ? this.coordinates.filter((_, i) => !this.restAxes?.has(i)) : [];
  }

  startCoordinates(): number[] {
    return this.axes.map((_, i) => this.options.q?.[i] ?? 0);
  }

  relativePose(q: readonly number[]): RelativePose {
    return {
      R: this.axes.reduce(
        (R, n, i) =>
          multiply(
            R,
            rotationMatrix(
              n.map((x) => x.value),
              q[i],
            ),
          ),
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
      ),
      p: [0, 0, 0],
    };
  }

  protected treeEquations(state: boolean): void {
    const o = this.options;
    this.coordinates = this.axes.map((_, i) => coordinate(this, { q: o.q?.[i], qd: o.qd?.[i], d: o.d }, `[${i + 1}]`));
    this.coordinates.forEach((k, i) => coordinateRole(this, k, state && !this.restAxes?.has(i)));
    const fa = this.frame_a,
      fb = this.frame_b;
    let R: Mat3 = fa.R,
      w: Vec3 = fa.w,
      z: Vec3 = relax3(fa.z);
    const e: Vec3[] = [];
    this.axes.forEach((n, i) => {
      const { q, qd, qdd } = this.coordinates[i];
      const ei = mulMV(R, n);
      e.push(ei);
      z = vadd(vadd(z, vscale(qdd, ei)), cross(w, vscale(qd, ei)));
      w = vadd(w, vscale(qd, ei));
      R = mulMM(R, axisRotation(n, q));
    });
    matrixEquation(this, fb.R, R);
    this.vectorEquation(fb.r, fa.r);
    this.vectorEquation(fb.v, fa.v);
    this.vectorEquation(fb.w, w);
    this.vectorEquation(fb.z, z);
    this.vectorEquation(fb.a, relax3(fa.a));
    cutBalance(this, fa, fb, vec3(0, 0, 0));
    this.coordinates.forEach((k, i) => this.equation(dot(e[i], vneg(fb.t)), add(k.drive, residue(k.qdd))));
  }
}
