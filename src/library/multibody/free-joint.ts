// Free joint (6 dof): frame_b anywhere relative to frame_a, the root of a
// robot that moves in the world (MuJoCo's freejoint, Pinocchio's FreeFlyer,
// Modelica's FreeMotion with quaternions). Its states are the numbers of
// MuJoCo's free joint: r[1..3] the position of frame_b's origin in frame_a
// coordinates, Q[1..4] = (w, x, y, z) its orientation (quaternion.ts), v[1..3]
// = der(r) the linear velocity in frame_a coordinates, w[1..3] the angular
// velocity resolved in frame_b; vd = der(v), wd = der(w); inputs f[1..3]
// (force along frame_a's axes) and tau[1..3] (torque about frame_b's axes).
// A prismatic joint along each axis of frame_a (p = R_a r) followed by a
// ball joint (ball-joint.ts), with nothing between them:
//   R_b = R_a R(Q)        r_b = r_a + p        v_b = v_a + w_a x p + R_a v
//   a_b = relax(a_a) + relax(z_a) x p + w_a x (w_a x p) + 2 w_a x (R_a v) + R_a vd
//   w_b, z_b and the three angular d'Alembert equations as the ball joint's
//   f_a + f_b = 0,  t_a + t_b + p x f_b = 0
//   -(R_a x_i) . f_b = f_i + residue(vd_i)
// Relaxing then makes it the floating base of the articulated-body algorithm
// and tearing the 6 x 6 base block of the mass matrix. It is always a state
// joint: no loop determines it, and it cannot close one (it constrains
// nothing).
import { type Expr, type Vec3, ZERO, add, cross, dot, mul, mulMM, mulMV, pow, residue, vadd, vec3, vneg, vscale } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import { der } from '../../model/index.ts';
import { type Rotation, angularEquations, rotationVariables } from './ball-joint.ts';
import type { Geometry } from './geometry.ts';
import { Joint, type RelativePose, type StoredEnergy } from './joint.ts';
import { cutBalance, matrixEquation } from './kinematics.ts';
import { columns, rotationNumbers, rotationOf, unitQuaternion } from './quaternion.ts';
import { relax3 } from './revolute.ts';
import { NUMBER, NUMBERS, OBJECT, type OptionKind, checkOptions } from '../options.ts';

/** a free joint's start pose and velocity, and its inputs */
export interface FreeJointOptions {
  /** start position of frame_b's origin in frame_a coordinates (m) */
  r?: readonly number[];
  /** start orientation [w, x, y, z] (normalised; default no rotation) */
  Q?: readonly number[];
  /** start linear velocity in frame_a coordinates (m/s) */
  v?: readonly number[];
  /** start angular velocity in frame_b coordinates (rad/s) */
  w?: readonly number[];
  /** start values of the force inputs (N, frame_a axes) and torque inputs (N m, frame_b axes) */
  f?: readonly number[];
  /** start values of the torque inputs (N m, frame_b axes) */
  tau?: readonly number[];
  /** rotor inertia on each of the six coordinates (MuJoCo's armature of a free joint): -armature vd_i, -armature wd_i join their forces */
  armature?: number;
  /** how the viewer draws the joint */
  geometry?: Geometry;
}

const FREE_OPTIONS = { r: NUMBERS, Q: NUMBERS, v: NUMBERS, w: NUMBERS, f: NUMBERS, tau: NUMBERS, geometry: OBJECT, armature: NUMBER } satisfies Record<
  keyof FreeJointOptions,
  OptionKind
>;

export class FreeJoint extends Joint {
  readonly dof = 6;
  override readonly canBeRest = false;
  /** r, v, vd, f and the rotation's Q, w, wd, tau: declared when the joint is elaborated */
  translation:
    | {
        /** frame_b's origin relative to frame_a's, in frame_a coordinates (m) */
        r: Vec3;
        /** its velocity, der(r) (m/s) */
        v: Vec3;
        /** its acceleration, der(v) (m/s²) */
        vd: Vec3;
        /** the force applied between the frames, on frame_b along frame_a's axes (N; an input, f[1..3], default 0) */
        f: Vec3;
      }
    | undefined;
  /** Q, w, wd, tau: declared when the joint is elaborated */
  rotation: Rotation | undefined;
  private readonly options: FreeJointOptions;
  private readonly start: [number, number, number, number];

  constructor(name: string, options: FreeJointOptions = {}) {
    checkOptions(`joint ${name}`, options, FREE_OPTIONS);
    super(name, options);
    for (const [key, v] of [
      ['r', options.r],
      ['v', options.v],
      ['w', options.w],
      ['f', options.f],
      ['tau', options.tau],
    ] as const) {
      if (v !== undefined && !(v.length === 3 && v.every(Number.isFinite))) {
        throw new ModelError(`free joint ${name}: ${key} = [${v.join(', ')}] is not three finite numbers`, { component: name, hint: `give ${key}: [x, y, z]` });
      }
    }
    this.options = options;
    this.start = unitQuaternion(this, options.Q);
  }

  stateCoordinates(): never[] {
    return [];
  }

  /** the armature's kinetic energy 1/2 armature (|v|^2 + |w|^2) (energy.ts); 0 before elaboration or without one */
  get storedEnergy(): StoredEnergy {
    const a = this.options.armature,
      v = this.translation?.v,
      w = this.rotation?.w;
    return { kinetic: a && v && w ? mul(0.5, a, add(...[...v, ...w].map((x) => pow(x, 2)))) : ZERO, potential: ZERO };
  }

  /** a free joint constrains nothing: it cannot close a loop */
  cutConstraints(): number {
    return 0;
  }

  startCoordinates(): number[] {
    return [...(this.options.r ?? [0, 0, 0]), ...this.start];
  }

  relativePose(q: readonly number[]): RelativePose {
    return { R: rotationNumbers(q.slice(3, 7)), p: q.slice(0, 3) };
  }

  cutResidual(): number[] {
    return [];
  }

  override unitNorms(): readonly (readonly Expr[])[] {
    return this.rotation ? [this.rotation.Q] : [];
  }

  protected treeEquations(): void {
    const o = this.options,
      fa = this.frame_a,
      fb = this.frame_b;
    const vector = (name: string, start?: readonly number[]) =>
      vec3(...([0, 1, 2].map((i) => this.variable(`${name}[${i + 1}]`, { start: start?.[i] ?? 0 })) as [Expr, Expr, Expr]));
    const r = vector('r', o.r),
      v = vector('v', o.v),
      vd = vector('vd');
    const f = vec3(...([0, 1, 2].map((i) => this.input(`f[${i + 1}]`, o.f?.[i] ?? 0)) as [Expr, Expr, Expr]));
    r.forEach((ri, i) => this.equation(der(ri), v[i]));
    v.forEach((vi, i) => this.equation(der(vi), vd[i]));
    this.translation = { r, v, vd, f };
    const rot = (this.rotation = rotationVariables(this, this.start, o.w, o.tau));
    const p = mulMV(fa.R, r),
      vRel = mulMV(fa.R, v),
      aRel = mulMV(fa.R, vd);
    const Rb = mulMM(fa.R, rotationOf(rot.Q));
    matrixEquation(this, fb.R, Rb);
    this.vectorEquation(fb.r, vadd(fa.r, p));
    this.vectorEquation(fb.v, vadd(vadd(fa.v, cross(fa.w, p)), vRel));
    const coriolis = vadd(cross(fa.w, cross(fa.w, p)), vscale(2, cross(fa.w, vRel)));
    this.vectorEquation(fb.a, vadd(vadd(relax3(fa.a), cross(relax3(fa.z), p)), vadd(coriolis, aRel)));
    angularEquations(this, Rb, rot, 0, o.armature);
    cutBalance(this, fa, fb, p);
    // the translations' d'Alembert equations, along frame_a's axes
    const a = o.armature ? this.parameter('armature_v', o.armature) : undefined;
    columns(fa.R).forEach((e, i) => this.equation(dot(e, vneg(fb.f)), add(f[i], a ? mul(-1, a, vd[i]) : ZERO, residue(vd[i]))));
  }

  protected cutEquations(): void {
    throw new ModelError(`free joint ${this.path} cannot close a loop`, {
      component: this.path,
      hint: 'a free joint constrains nothing: close the loop with another joint',
    });
  }
}
