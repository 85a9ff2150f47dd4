// Quaternion ball joint (3 dof, no singular pose; the Cardan `Spherical` is
// singular at q[2] = +-90 degrees). Its orientation is the unit quaternion
// Q[1..4] = (w, x, y, z) of frame_b relative to frame_a, its velocity the
// relative angular velocity w[1..3] resolved in frame_b, its accelerations
// wd[1..3] = der(w), its inputs tau[1..3] torques about frame_b's axes: the
// numbers of MuJoCo's ball joint (qpos, qvel, qacc, qfrc_applied). Four
// position coordinates for three velocity coordinates: der(Q) = 1/2 Q (x)
// (0, w) (quaternion.ts). As a tree joint it is the revolute's equations
// (relaxing paper eqs. 27-29) about frame_b's three axes e_i = R_b x_i:
//   R_b = R_a R(Q)             r_b = r_a      v_b = v_a      a_b = relax(a_a)
//   w_b = w_a + R_b w
//   z_b = relax(z_a) + R_b wd + w_a x w_b     (d/dt R_b w = R_b wd + w_b x R_b w)
//   f_a + f_b = 0,  t_a + t_b = 0
//   -e_i . t_b = tau_i - d w_i + residue(wd_i)
// so that relaxing makes it a ball joint of the articulated-body algorithm
// and tearing a 3 x 3 block of the mass matrix. A loop cannot determine a
// quaternion's four coordinates from three constraints: it is a state joint
// or a loop's cut (the three translations, as the spherical cut). Marked
// { cut: 'point' } it is a point-to-point cut (MJCF's connect): the three
// translations in a spatial loop, and in a planar loop the two in its
// planes (the builder sets planarCut: cut.ts inPlane), where the third is
// implied and would make the loop's position Jacobian singular.
import { type Expr, type Vec3, ZERO, add, cross, dot, mul, mulMM, pow, residue, vadd, vec3, vneg, vscale } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { der } from '../../model/index.ts';
import { WORLD_AXES, closeLoop, inPlane, planeDirections, translation } from './cut.ts';
import type { Geometry } from './geometry.ts';
import { type CutPlane, Joint, type RelativePose, type StoredEnergy } from './joint.ts';
import { cutBalance, matrixEquation } from './kinematics.ts';
import { columns, quaternionRate, rotationNumbers, rotationOf, unitQuaternion } from './quaternion.ts';
import { relax3 } from './revolute.ts';
import { type Pose, apply, difference, dot3 } from './start-pose.ts';
import { BOOLEAN, NUMBER, NUMBERS, OBJECT, type OptionKind, checkOptions, oneOf } from '../options.ts';

/** a ball joint's start orientation and speed, inputs, damping and role */
export interface BallJointOptions {
  /** start orientation [w, x, y, z] (normalised; default no rotation) */
  Q?: readonly number[];
  /** start relative angular velocity, frame_b coordinates (rad/s) */
  w?: readonly number[];
  /** torque inputs' start values about frame_b's axes (N m) */
  tau?: readonly number[];
  /** rotational damping on every axis (N m s/rad) */
  d?: number;
  /** rotor inertia on every axis (kg m^2, MuJoCo's armature): -armature wd_i joins each axis's torque */
  armature?: number;
  /** true: this joint closes a kinematic loop (three translations); 'point': also, but two in a planar loop (header) */
  cut?: boolean | 'point';
  /** true (the default as a tree joint): Q and w are states; false is refused (a loop cannot determine a quaternion) */
  state?: boolean;
  /** how the viewer draws the joint */
  geometry?: Geometry;
}

const BALL_OPTIONS = {
  Q: NUMBERS,
  w: NUMBERS,
  tau: NUMBERS,
  d: NUMBER,
  armature: NUMBER,
  cut: oneOf(true, false, 'point'),
  state: BOOLEAN,
  geometry: OBJECT,
} satisfies Record<keyof BallJointOptions, OptionKind>;

/** the angular part of a ball or free joint: its variables and, as a tree joint, its equations */
export interface Rotation {
  Q: [Expr, Expr, Expr, Expr];
  w: Vec3;
  wd: Vec3;
  tau: Vec3;
}

export class BallJoint extends Joint {
  readonly dof = 3;
  override readonly canBeRest = false;
  /** Q, w, wd, tau: declared when the joint is elaborated as a tree joint */
  rotation: Rotation | undefined;
  /** a point cut: in a planar loop only the translations in its planes (header) */
  readonly pointCut: boolean;
  /** a planar point cut: the planes' normal in frame_a coordinates, and whether the plane is fixed in the world (set by the builder) */
  plane: CutPlane | undefined;
  private readonly options: BallJointOptions;
  private readonly start: [number, number, number, number];

  constructor(name: string, options: BallJointOptions = {}) {
    checkOptions(`joint ${name}`, options, BALL_OPTIONS);
    super(name, { ...options, cut: !!options.cut });
    this.pointCut = options.cut === 'point';
    if (options.state === false) {
      throw new ModelError(`joint ${name} is a quaternion ball joint marked state: false`, {
        component: name,
        hint: "a loop cannot determine a quaternion (four coordinates from three constraints): make it the loop's cut ({ cut: true }), let another joint of the loop be determined, or use a Cardan spherical joint there",
      });
    }
    this.options = options;
    this.start = unitQuaternion(this, options.Q);
  }

  stateCoordinates(): never[] {
    return [];
  }

  /** the armature's kinetic energy 1/2 armature |w|^2 (energy.ts); 0 before elaboration or without one */
  get storedEnergy(): StoredEnergy {
    const a = this.options.armature,
      w = this.rotation?.w;
    return { kinetic: a && w ? mul(0.5, a, add(...w.map((x) => pow(x, 2)))) : ZERO, potential: ZERO };
  }

  cutConstraints(planar: boolean): number {
    return planar ? 2 : 3;
  }

  startCoordinates(): number[] {
    return [...this.start];
  }

  relativePose(q: readonly number[]): RelativePose {
    return { R: rotationNumbers(q), p: [0, 0, 0] };
  }

  cutResidual(a: Pose, b: Pose): number[] {
    const d = difference(b.p, a.p);
    if (!this.planarCut || !this.plane) return d;
    return planeDirections(this.plane.normal).map((u) => dot3(apply(a.R, u), d));
  }

  override unitNorms(): readonly (readonly Expr[])[] {
    return this.rotation ? [this.rotation.Q] : [];
  }

  protected treeEquations(): void {
    const o = this.options,
      fa = this.frame_a,
      fb = this.frame_b;
    const rot = (this.rotation = rotationVariables(this, this.start, o.w, o.tau));
    const Rb = mulMM(fa.R, rotationOf(rot.Q));
    matrixEquation(this, fb.R, Rb);
    this.vectorEquation(fb.r, fa.r);
    this.vectorEquation(fb.v, fa.v);
    this.vectorEquation(fb.a, relax3(fa.a));
    angularEquations(this, Rb, rot, o.d, o.armature);
    cutBalance(this, fa, fb, vec3(0, 0, 0));
  }

  protected cutEquations(): void {
    const fa = this.frame_a,
      fb = this.frame_b;
    closeLoop(
      this,
      fa,
      fb,
      this.planarCut && this.plane ? inPlane(fa, fb, this.plane.normal, this.plane.inWorld) : WORLD_AXES.map((u) => translation(fa, fb, u, true)),
    );
  }
}

/** Q[1..4] and w[1..3] states with their start values, wd[1..3] = der(w), inputs tau[1..3] */
export function rotationVariables(j: Joint, Q0: readonly number[], w0: readonly number[] = [], tau0: readonly number[] = []): Rotation {
  const Q = Q0.map((v, i) => j.variable(`Q[${i + 1}]`, { start: v })) as [Expr, Expr, Expr, Expr];
  const w = vec3(...([0, 1, 2].map((i) => j.variable(`w[${i + 1}]`, { start: w0[i] ?? 0 })) as [Expr, Expr, Expr]));
  const wd = vec3(...([0, 1, 2].map((i) => j.variable(`wd[${i + 1}]`)) as [Expr, Expr, Expr]));
  const tau = vec3(...([0, 1, 2].map((i) => j.input(`tau[${i + 1}]`, tau0[i] ?? 0)) as [Expr, Expr, Expr]));
  const rate = quaternionRate(Q, w);
  Q.forEach((q, i) => j.equation(der(q), rate[i]));
  w.forEach((wi, i) => j.equation(der(wi), wd[i]));
  return { Q, w, wd, tau };
}

// frame_b's angular velocity and acceleration through a rotation whose frame_b axes are the columns of Rb
// (world-resolved), and the d'Alembert equation of each axis with its tearing hint
export function angularEquations(j: Joint, Rb: ReturnType<typeof mulMM>, rot: Rotation, damping = 0, armature = 0): void {
  const fa = j.frame_a,
    fb = j.frame_b,
    e = columns(Rb);
  const wRel = vadd(vadd(vscale(rot.w[0], e[0]), vscale(rot.w[1], e[1])), vscale(rot.w[2], e[2]));
  const zRel = vadd(vadd(vscale(rot.wd[0], e[0]), vscale(rot.wd[1], e[1])), vscale(rot.wd[2], e[2]));
  j.vectorEquation(fb.w, vadd(fa.w, wRel));
  // d/dt (R_b w) = R_b wd + w_b x (R_b w) = R_b wd + w_a x w_b: one cross product of known velocities
  j.vectorEquation(fb.z, vadd(vadd(relax3(fa.z), zRel), cross(fa.w, fb.w)));
  const d = damping ? j.parameter('d', damping) : undefined;
  const a = armature ? j.parameter('armature', armature) : undefined;
  e.forEach((ei, i) => {
    const drive = add(rot.tau[i], d ? mul(-1, d, rot.w[i]) : ZERO, a ? mul(-1, a, rot.wd[i]) : ZERO);
    j.equation(dot(ei, vneg(fb.t)), add(drive, residue(rot.wd[i])));
  });
}
