// Revolute joint: frame_b rotates about the axis n (frame_a coordinates) by q.
// Relaxing paper eqs. 27-29, with the position and velocity levels:
//   R_b = R_a R(n, q)        e = R_a n  (world-resolved axis)
//   r_b = r_a                v_b = v_a          w_b = w_a + e qd
//   z_b = relax(z_a) + e qdd + w_a x (e qd)                         (eq. 27)
//       = relax(z_a) + e qdd + w_a x w_b
//   a_b = relax(a_a)
//   f_a + f_b = 0,  t_a + t_b = 0                                   (eq. 28)
//   -e . t_b = tau_total + residue(qdd)                             (eq. 29)
// -t_b is the torque the joint exerts on what is attached at frame_b.
//
// As a cut joint (cut.ts) it constrains the three translations and the two
// rotations normal to its axis; the planar cut ({ cut: 'planar' }) only the
// two translations in the plane normal to its axis: a loop of parallel
// revolutes moves in a plane, where the other three are redundant. Its q, qd,
// qdd are then measured: q is the angle of frame_b about e, seen from frame_a.
import { type Vec3, add, atan2, axisRotation, cross, dot, mulMM, mulMV, relax, residue, vadd, vec3, vneg, vscale, vsub } from '../../expr/index.ts';
import { unitAxis } from './axis.ts';
import { type JointOptions, OneDofJoint, type RelativePose } from './joint.ts';
import { cutBalance, matrixEquation } from './kinematics.ts';
import { WORLD_AXES, closeLoop, orientation, planeDirections, translation } from './cut.ts';
import { type Pose, apply, difference, dot3, rotationMatrix } from './start-pose.ts';

export const relax3 = (v: Vec3): Vec3 => vec3(relax(v[0]), relax(v[1]), relax(v[2]));

export class Revolute extends OneDofJoint {
  /** the axis in frame_a coordinates, normalised */
  readonly axis: Vec3;
  /**
   * a planar cut whose loop hangs from the world with no fixed rotation: the plane is fixed
   * and its normal is the axis (set by the builder)
   */
  planeInWorld = false;

  constructor(name: string, options: JointOptions = {}) {
    super(name, options);
    this.axis = unitAxis(this, options.axis ?? [0, 0, 1]);
  }

  cutConstraints(planar: boolean): number {
    return planar ? 2 : 5;
  }

  relativePose(q: readonly number[]): RelativePose {
    return {
      R: rotationMatrix(
        this.axis.map((x) => x.value),
        q[0],
      ),
      p: [0, 0, 0],
    };
  }

  cutResidual(a: Pose, b: Pose): number[] {
    const n = this.axis.map((x) => x.value);
    const [u1, u2] = normals(this.axis).map((u) =>
      apply(
        a.R,
        u.map((x) => x.value),
      ),
    );
    const d = difference(b.p, a.p),
      eb = apply(b.R, n);
    return this.planarCut ? [dot3(u1, d), dot3(u2, d)] : [...d, dot3(u1, eb), dot3(u2, eb)];
  }

  protected kinematics(): void {
    const n = this.axis,
      fa = this.frame_a,
      fb = this.frame_b;
    const e = mulMV(fa.R, n);
    matrixEquation(this, fb.R, mulMM(fa.R, axisRotation(n, this.q)));
    this.vectorEquation(fb.r, fa.r);
    this.vectorEquation(fb.w, vadd(fa.w, vscale(this.qd, e)));
    this.vectorEquation(fb.v, fa.v);
    // w_a x (e qd) = w_a x w_b (w_b = w_a + e qd): one cross product of known velocities, no product by qd
    this.vectorEquation(fb.z, vadd(vadd(relax3(fa.z), vscale(this.qdd, e)), cross(fa.w, fb.w)));
    this.vectorEquation(fb.a, relax3(fa.a));
    cutBalance(this, fa, fb, vec3(0, 0, 0));
    this.equation(dot(e, vneg(fb.t)), add(this.drive, residue(this.qdd)));
  }

  protected cutEquations(): void {
    const fa = this.frame_a,
      fb = this.frame_b;
    const local = normals(this.axis);
    const [u1, u2] = local.map((u) => mulMV(fa.R, u));
    const e = mulMV(fa.R, this.axis);
    const eb = mulMV(fb.R, this.axis);
    // in-plane directions fixed in the world when the loop's plane is (relaxing then pivots only
    // on constant coefficients), else turning with frame_a
    const inPlane = this.planeInWorld ? local.map((u) => translation(fa, fb, u, true)) : [translation(fa, fb, u1), translation(fa, fb, u2)];
    const constraints = this.planarCut
      ? inPlane
      : [...WORLD_AXES.map((u) => translation(fa, fb, u, true)), orientation(fa, fb, u1, eb, 0), orientation(fa, fb, u2, eb, 0)];
    closeLoop(this, fa, fb, constraints, { torque: vscale(this.drive, vneg(e)) });
    const ub = mulMV(fb.R, local[0]);
    this.equation(this.q, atan2(dot(e, cross(u1, ub)), dot(u1, ub)));
    this.equation(this.qd, dot(e, vsub(fb.w, fa.w)));
    this.equation(this.qdd, dot(e, vsub(fb.z, fa.z)));
  }
}

/** two unit vectors normal to the unit vector n and to each other (numbers, so they fold) */
export function normals(n: Vec3): [Vec3, Vec3] {
  const [u1, u2] = planeDirections(n.map((x) => x.value));
  return [vec3(u1[0], u1[1], u1[2]), vec3(u2[0], u2[1], u2[2])];
}
