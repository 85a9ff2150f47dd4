// Prismatic joint: frame_b translates along the axis n (frame_a coordinates) by q.
//   R_b = R_a                e = R_a n,  d = e q  (world-resolved)
//   r_b = r_a + d            w_b = w_a          v_b = v_a + w_a x d + e qd
//   z_b = relax(z_a)
//   a_b = relax(a_a) + relax(z_a) x d + w_a x (w_a x d) + 2 w_a x (e qd) + e qdd
//   f_a + f_b = 0,  t_a + t_b + d x f_b = 0
//   -e . f_b = tau_total + residue(qdd)      (tau is the drive force here)
//
// As a cut joint (cut.ts) it constrains the two translations normal to its
// axis, u1 . d = u2 . d = 0 with u1, u2 fixed in frame_a (the guide turns
// with frame_a), and the three rotations: frame_b's axis along frame_a's,
// (R_a u1) . (R_b n) = (R_a u2) . (R_b n) = 0, and no turn about it,
// (R_a u1) . (R_b u2) = 0; their torques u1 x n, u2 x n, u1 x u2 are -u2,
// u1, n, independent at the assembled position (R_a = R_b). The planar cut
// ({ cut: 'planar' }) of a loop that moves in planes normal to p (its
// revolutes' common axis, the builder's planeNormal) constrains the one
// in-plane translation normal to the axis, w = p x n, and the turn about p,
// (R_a n) . (R_b w) = 0 (torque n x w = p): the other three are redundant
// there, as for the revolute's planar cut. Its q, qd, qdd are then measured:
// q = e . (r_b - r_a), with the time derivatives of cut.ts' translation.
import { type Vec3, add, cross, dot, mulMV, residue, vadd, vec3, vneg, vscale } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { unitAxis } from './axis.ts';
import { type Constraint, closeLoop, orientation, translation } from './cut.ts';
import { type JointOptions, OneDofJoint, type RelativePose } from './joint.ts';
import { cutBalance, matrixEquation } from './kinematics.ts';
import { normals, relax3 } from './revolute.ts';
import { type Pose, apply, difference, dot3 } from './start-pose.ts';

export class Prismatic extends OneDofJoint {
  /** the sliding axis, frame_a coordinates, unit length */
  readonly axis: Vec3;
  /**
   * the normal of a planar loop's planes in frame_a coordinates (unit, normal
   * to the axis): set by the builder when this joint is the loop's planar cut
   */
  planeNormal: readonly number[] | undefined;

  constructor(name: string, options: JointOptions = {}) {
    super(name, options);
    this.axis = unitAxis(this, options.axis ?? [1, 0, 0]);
  }

  cutConstraints(planar: boolean): number {
    return planar ? 2 : 5;
  }

  relativePose(q: readonly number[]): RelativePose {
    return {
      R: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      p: this.axis.map((x) => x.value * q[0]),
    };
  }

  cutResidual(a: Pose, b: Pose): number[] {
    const d = difference(b.p, a.p);
    if (this.planarCut) {
      const { n, w } = this.planarDirections();
      return [dot3(apply(a.R, w), d), dot3(apply(a.R, n), apply(b.R, w))];
    }
    const n = this.axis.map((x) => x.value);
    const [u1, u2] = normals(this.axis).map((u) => u.map((x) => x.value));
    const [u1a, u2a] = [apply(a.R, u1), apply(a.R, u2)];
    const nb = apply(b.R, n);
    return [dot3(u1a, d), dot3(u2a, d), dot3(u1a, nb), dot3(u2a, nb), dot3(u1a, apply(b.R, u2))];
  }

  protected kinematics(): void {
    const fa = this.frame_a,
      fb = this.frame_b;
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
    const fa = this.frame_a,
      fb = this.frame_b;
    const e = mulMV(fa.R, this.axis);
    closeLoop(this, fa, fb, this.cutConstraintList(), { force: vscale(this.drive, vneg(e)) });
    // the measured displacement along the guide: a translation constraint's three levels along e
    const along = translation(fa, fb, e);
    this.equation(this.q, along.position);
    this.equation(this.qd, along.velocity);
    this.equation(this.qdd, along.acceleration);
  }

  /** the constraints of the header, world-resolved */
  private cutConstraintList(): Constraint[] {
    const fa = this.frame_a,
      fb = this.frame_b;
    const inA = (u: Vec3) => mulMV(fa.R, u),
      inB = (u: Vec3) => mulMV(fb.R, u);
    if (this.planarCut) {
      const { n, w } = this.planarDirections();
      const [nv, wv] = [vec3(n[0], n[1], n[2]), vec3(w[0], w[1], w[2])];
      return [translation(fa, fb, inA(wv)), orientation(fa, fb, inA(nv), inB(wv), 0)];
    }
    const [u1, u2] = normals(this.axis);
    return [
      translation(fa, fb, inA(u1)),
      translation(fa, fb, inA(u2)),
      orientation(fa, fb, inA(u1), inB(this.axis), 0),
      orientation(fa, fb, inA(u2), inB(this.axis), 0),
      orientation(fa, fb, inA(u1), inB(u2), 0),
    ];
  }

  /** a planar cut's axis n and in-plane normal w = p x n (numbers, frame_a coordinates) */
  private planarDirections(): { n: number[]; w: number[] } {
    const p = this.planeNormal;
    if (!p) {
      throw new ModelError(`joint ${this.path} is a planar cut, but its loop is not planar`, {
        component: this.path,
        hint: "a prismatic planar cut needs a loop of revolutes with one common axis normal to its own axis (and prismatic joints along the planes): mark it { cut: true } instead of { cut: 'planar' }",
      });
    }
    const n = this.axis.map((x) => x.value);
    const c = [p[1] * n[2] - p[2] * n[1], p[2] * n[0] - p[0] * n[2], p[0] * n[1] - p[1] * n[0]];
    const k = Math.hypot(c[0], c[1], c[2]);
    return { n, w: c.map((x) => x / k) };
  }
}
