// Revolute joint: frame_b rotates about the axis n (frame_a coordinates) by q.
// Relaxing paper eqs. 27-29, with the position and velocity levels:
//   R_b = R_a R(n, q)        e = R_a n  (world-resolved axis)
//   r_b = r_a                v_b = v_a          w_b = w_a + e qd
//   z_b = relax(z_a) + e qdd + w_a x (e qd)                         (eq. 27)
//   a_b = relax(a_a)
//   f_a + f_b = 0,  t_a + t_b = 0                                   (eq. 28)
//   -e . t_b = tau_total + residue(qdd)                             (eq. 29)
// -t_b is the torque the joint exerts on what is attached at frame_b.
import { add, axisRotation, cross, dot, mulMM, mulMV, relax, residue, vadd, vec3, vneg, vscale, type Vec3 } from '../../expr/index.ts';
import { unitAxis } from './axis.ts';
import { Joint, type JointOptions } from './joint.ts';
import { cutBalance, matrixEquation } from './kinematics.ts';

export const relax3 = (v: Vec3): Vec3 => vec3(relax(v[0]), relax(v[1]), relax(v[2]));

export class Revolute extends Joint {
  /** the axis in frame_a coordinates, normalised */
  readonly axis: Vec3;

  constructor(name: string, options: JointOptions = {}) {
    super(name, options);
    const n = (this.axis = unitAxis(this, options.axis ?? [0, 0, 1]));
    const fa = this.frame_a, fb = this.frame_b;
    const e = mulMV(fa.R, n);
    matrixEquation(this, fb.R, mulMM(fa.R, axisRotation(n, this.q)));
    this.vectorEquation(fb.r, fa.r);
    this.vectorEquation(fb.w, vadd(fa.w, vscale(this.qd, e)));
    this.vectorEquation(fb.v, fa.v);
    this.vectorEquation(fb.z, vadd(vadd(relax3(fa.z), vscale(this.qdd, e)), cross(fa.w, vscale(this.qd, e))));
    this.vectorEquation(fb.a, relax3(fa.a));
    cutBalance(this, fa, fb, vec3(0, 0, 0));
    this.equation(dot(e, vneg(fb.t)), add(this.drive, residue(this.qdd)));
  }
}
