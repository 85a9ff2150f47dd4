// Prismatic joint: frame_b translates along the axis n (frame_a coordinates) by q.
//   R_b = R_a                e = R_a n,  d = e q  (world-resolved)
//   r_b = r_a + d            w_b = w_a          v_b = v_a + w_a x d + e qd
//   z_b = relax(z_a)
//   a_b = relax(a_a) + relax(z_a) x d + w_a x (w_a x d) + 2 w_a x (e qd) + e qdd
//   f_a + f_b = 0,  t_a + t_b + d x f_b = 0
//   -e . f_b = tau_total + residue(qdd)      (tau is the drive force here)
// It is never a cut joint: cut another joint of its loop.
import { add, cross, dot, mulMV, residue, vadd, vneg, vscale, type Vec3 } from '../../expr/index.ts';
import { unitAxis } from './axis.ts';
import { OneDofJoint, type JointOptions } from './joint.ts';
import { cutBalance, matrixEquation } from './kinematics.ts';
import { relax3 } from './revolute.ts';

export class Prismatic extends OneDofJoint {
  readonly axis: Vec3;

  constructor(name: string, options: JointOptions = {}) {
    super(name, options);
    this.axis = unitAxis(this, options.axis ?? [1, 0, 0]);
  }

  cutConstraints(): number {
    return 0;
  }

  cutResidual(): number[] {
    return [];
  }

  relativePose(q: readonly number[]): { R: number[][]; p: number[] } {
    return { R: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], p: this.axis.map((x) => x.value * q[0]) };
  }

  protected kinematics(): void {
    const fa = this.frame_a, fb = this.frame_b;
    const e = mulMV(fa.R, this.axis);
    const d = vscale(this.q, e);
    const ed = vscale(this.qd, e);
    matrixEquation(this, fb.R, fa.R);
    this.vectorEquation(fb.r, vadd(fa.r, d));
    this.vectorEquation(fb.w, fa.w);
    this.vectorEquation(fb.v, vadd(vadd(fa.v, cross(fa.w, d)), ed));
    this.vectorEquation(fb.z, relax3(fa.z));
    const coriolis = vadd(cross(fa.w, cross(fa.w, d)), vscale(2, cross(fa.w, ed)));
    this.vectorEquation(fb.a, vadd(vadd(relax3(fa.a), cross(relax3(fa.z), d)), vadd(coriolis, vscale(this.qdd, e))));
    cutBalance(this, fa, fb, d);
    this.equation(dot(e, vneg(fb.f)), add(this.drive, residue(this.qdd)));
  }

  protected cutEquations(): void {
    /* unreachable: cutConstraints() is 0, elaborate() refuses */
  }
}
