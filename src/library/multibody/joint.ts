// What every joint has: frames a and b, and a role in the mechanism that is
// known only once the model is complete (tearing paper, "Mechanical systems
// with kinematic loops"):
//   state  a joint of the spanning tree whose coordinates q, qd are states
//          (der(q) = qd, der(qd) = qdd); the default
//   rest   a tree joint of a kinematic loop whose coordinates are not states:
//          q and qd are tearing variables of the position and velocity loops
//          (the paper's `tearq = residue(q)`, `tearqd = residue(qd)`)
//   cut    the joint that closes a loop: replaced by its constraint forces,
//          its constraints on position, velocity and acceleration level are
//          the residue equations (eqs. 2b-2d)
// A joint therefore declares its equations in elaborate(), after the
// Mechanism builder has found the spanning tree and assigned the roles.
import { type Expr, type Vec3Like, ZERO, add, mul, pow, sub } from '../../expr/index.ts';
import { Component, der, variableOf } from '../../model/index.ts';
import { ModelError } from '../../errors.ts';
import { Frame } from './frame.ts';
import type { Geometry } from './geometry.ts';
import { BOOLEAN, NUMBER, NUMBERS, OBJECT, type OptionKind, checkOptions, oneOf } from '../options.ts';
import type { Pose } from './start-pose.ts';
import { type LimitFriction, checkLimitOptions, limitDefaults, limitFriction } from './limits.ts';

/** a joint's role: its coordinates are states, fixed at rest (no motion), or it cuts a loop */
export type JointRole = 'state' | 'rest' | 'cut';

/** the options of a one-degree-of-freedom joint (revolute, prismatic) */
export interface JointOptions {
  /** axis in frame_a coordinates (normalised; default z) */
  axis?: Vec3Like;
  /** start values of the coordinate and its speed (a guess for a joint whose coordinates are not states) */
  q?: number;
  /** start value of the coordinate's speed */
  qd?: number;
  /** drive torque (revolute) or force (prismatic): the start value of the input <joint>.tau */
  tau?: number;
  /** spring stiffness, rest position and damping on the coordinate */
  c?: number;
  /** the spring's rest position */
  q0?: number;
  /** damping on the coordinate */
  d?: number;
  /**
   * rotor inertia reflected onto the coordinate (kg m^2, or kg; MuJoCo's
   * armature): the generalized force gains -armature qdd, so the mass matrix
   * gains it on the diagonal, and the kinetic energy 1/2 armature qd^2
   */
  armature?: number;
  /**
   * joint limits [lower, upper] (rad or m, lower <= upper): beyond them a
   * one-sided spring-damper pushes the coordinate back (limits.ts)
   */
  limits?: readonly [number, number];
  /**
   * 'spring' (default): the limits are the spring-dampers above. 'impact':
   * hard limits (impact-limits.ts): reaching a limit outward is an event that
   * reverses the speed, qd := -restitution * qd; an impact slower than
   * restVelocity holds the joint at the limit instead (the spring-damper
   * above then carries the contact) until it moves back inside
   */
  limitKind?: 'spring' | 'impact';
  /** limitKind 'impact': the coefficient of restitution e in [0, 1] (default 0.5) */
  restitution?: number;
  /** limitKind 'impact': impacts slower than this (rad/s or m/s) stop at the limit (default 1e-3) */
  restVelocity?: number;
  /** the limit spring's stiffness (N m/rad or N/m); default: the joint's reference inertia times 300^2 1/s^2 (limits.ts) */
  limitStiffness?: number;
  /** the limit damper (N m s/rad or N s/m), acting only beyond a limit; default: damping ratio 0.5 at the reference inertia */
  limitDamping?: number;
  /** Coulomb friction level F (N m or N), regularised: tau_f = -F tanh(qd / frictionVelocity) */
  friction?: number;
  /** the regularisation speed v_eps of the friction (rad/s or m/s); default: max(1e-3, F h / (0.3 I)) with h = 1e-3 s (limits.ts) */
  frictionVelocity?: number;
  /**
   * true: this joint closes a kinematic loop (a cut joint); 'planar': the cut
   * of a planar loop (parallel revolutes, prismatic joints along their
   * planes), which constrains only what moves in the planes: for a revolute
   * the two translations in the plane normal to its axis, for a prismatic
   * the in-plane translation normal to its axis and the turn about the
   * planes' normal. Default: the builder decides.
   */
  cut?: boolean | 'planar';
  /** true: q, qd are states; false: they are determined by a loop. Default: the builder decides. */
  state?: boolean;
  /** how the viewer draws the joint */
  geometry?: Geometry;
}

/** what each option of a revolute or prismatic joint must be (options.ts) */
export const JOINT_OPTIONS = {
  axis: NUMBERS,
  q: NUMBER,
  qd: NUMBER,
  tau: NUMBER,
  c: NUMBER,
  q0: NUMBER,
  d: NUMBER,
  limits: NUMBERS,
  limitKind: oneOf('spring', 'impact'),
  restitution: NUMBER,
  restVelocity: NUMBER,
  limitStiffness: NUMBER,
  limitDamping: NUMBER,
  friction: NUMBER,
  frictionVelocity: NUMBER,
  cut: oneOf(true, false, 'planar'),
  state: BOOLEAN,
  geometry: OBJECT,
  armature: NUMBER,
} satisfies Record<keyof JointOptions, OptionKind>;

/** frame_b relative to frame_a (Joint.relativePose) */
export interface RelativePose {
  /** rotation, frame_b to frame_a coordinates */
  R: number[][];
  /** frame_b's origin in frame_a coordinates */
  p: number[];
}

/** the energy a joint or tendon stores besides the bodies' (energy.ts sums it) */
export interface StoredEnergy {
  /** kinetic energy (a joint's armature, a tendon's) */
  kinetic: Expr;
  /** potential energy (its springs and limit springs) */
  potential: Expr;
}

/** the plane of a planar cut joint (set by the builder, topology.ts) */
export interface CutPlane {
  /** the planes' normal in frame_a coordinates */
  normal: readonly number[];
  /** whether the plane is fixed in the world (else it turns with frame_a) */
  inWorld: boolean;
}

/** a joint between two frames: its coordinates relate frame_b's pose to frame_a's */
export abstract class Joint extends Component {
  /** the frame it hangs from (its parent side) */
  readonly frame_a: Frame;
  /** the frame it moves (its child side) */
  readonly frame_b: Frame;
  /** how the viewer draws it (undefined: its default marker) */
  readonly geometry: Geometry | undefined;
  /** degrees of freedom as a tree joint */
  abstract readonly dof: number;
  /** the role; set by the Mechanism builder before elaboration, or from the options */
  role: JointRole | undefined;
  /**
   * the axes (0-based) a loop determines while the others are states: set by
   * the builder for a spherical or universal joint when no set of whole joints
   * can close a loop (topology.ts); undefined otherwise
   */
  restAxes: ReadonlySet<number> | undefined;
  /** a planar cut (revolute, prismatic): only the constraints in the loop's planes */
  planarCut: boolean;
  /** the user's marks, which the builder honours */
  readonly marks: {
    /** the user asked for it to be a loop's cut joint */
    cut: boolean;
    /** the user asked for its coordinates to be states (true), or for a loop to determine them (false) */
    state: boolean | undefined;
  };
  /** a loop may determine its coordinates (topology.ts); not a quaternion's four from three constraints */
  readonly canBeRest: boolean = true;
  private elaborated = false;

  /** its equations have been made (elaborate() ran) */
  get elaboratedOnce(): boolean {
    return this.elaborated;
  }

  constructor(name: string, options: Pick<JointOptions, 'cut' | 'state' | 'geometry'>) {
    super(name);
    this.frame_a = this.add(new Frame('frame_a'));
    this.frame_b = this.add(new Frame('frame_b'));
    this.geometry = options.geometry;
    this.planarCut = options.cut === 'planar';
    this.marks = { cut: !!options.cut, state: options.state };
    if (options.cut && options.state) {
      throw new ModelError(`joint ${name} is marked both as cut joint and as state joint`, {
        component: name,
        hint: 'a cut joint has no coordinates of its own in the spanning tree: mark it cut or state, not both',
      });
    }
    this.role = options.cut ? 'cut' : options.state === false ? 'rest' : undefined;
  }

  /** its coordinates when it is a state joint (after elaboration), else none: the inverse problem's generalized coordinates */
  abstract stateCoordinates(): Coordinate[];

  /** constraints it imposes as a cut joint (0: it cannot be a cut joint) */
  abstract cutConstraints(planar: boolean): number;

  /** the start values of its coordinates (guesses for joints a loop determines) */
  abstract startCoordinates(): number[];

  /** frame_b relative to frame_a at coordinates q: rotation R (frame_b to frame_a coordinates) and offset p (frame_a coordinates) */
  abstract relativePose(q: readonly number[]): RelativePose;

  /** as a cut joint, its position constraints' residuals at the poses of its frames, in numbers (cut.ts has them as equations) */
  abstract cutResidual(a: Pose, b: Pose): number[];

  override elaborate(): void {
    if (this.elaborated) return;
    this.elaborated = true;
    const role = (this.role ??= 'state');
    if (role === 'cut') {
      if (this.cutConstraints(this.planarCut) === 0) {
        throw new ModelError(`joint ${this.path} cannot be a cut joint`, {
          component: this.path,
          hint: 'cut another joint of the loop (a spherical, universal, revolute or prismatic joint)',
        });
      }
      this.cutEquations();
    } else {
      this.treeEquations(role === 'state');
    }
  }

  /** the spanning-tree equations; state: der(q) = qd and der(qd) = qdd, else q and qd are tearing variables */
  protected abstract treeEquations(state: boolean): void;
  /** the constraint equations and constraint forces of the joint as a cut joint */
  protected abstract cutEquations(): void;
}

/** the coordinate of a one-degree-of-freedom joint with its drive */
export interface Coordinate {
  q: Expr;
  qd: Expr;
  qdd: Expr;
  tau: Expr;
  /** generalized force on the coordinate: drive plus spring-damper */
  drive: Expr;
  /** the spring's potential energy 1/2 c (q - q0)^2 (0 without a spring) */
  potential: Expr;
  /** the armature's kinetic energy 1/2 armature qd^2 (0 without one) */
  kinetic: Expr;
}

/**
 * Variables <prefix>q, qd, qdd and input tau with a linear spring-damper and
 * the armature: tau_total = tau - c (q - q0) - d qd - armature qdd. The
 * armature term sits in the d'Alembert equation beside residue(qdd), so the
 * torn form's M gains it on the diagonal and the relaxed elimination's pivot
 * D = S^T I^A S + armature (relaxing paper eq. 29 with a rotor on the axis).
 */
export function coordinate(c: Component, options: JointOptions, suffix = ''): Coordinate {
  const q = c.variable(`q${suffix}`, { start: options.q ?? 0 });
  const qd = c.variable(`qd${suffix}`, { start: options.qd ?? 0 });
  const qdd = c.variable(`qdd${suffix}`);
  const tau = c.input(`tau${suffix}`, options.tau ?? 0);
  const terms: Expr[] = [tau];
  let potential: Expr = ZERO;
  if (options.c) {
    const k = c.parameter(`c${suffix}`, options.c),
      dq = sub(q, c.parameter(`q0${suffix}`, options.q0 ?? 0));
    terms.push(mul(-1, k, dq));
    potential = mul(0.5, k, pow(dq, 2));
  }
  if (options.d) terms.push(mul(-1, c.parameter(`d${suffix}`, options.d), qd));
  let kinetic: Expr = ZERO;
  if (options.armature) {
    const a = c.parameter(`armature${suffix}`, options.armature);
    terms.push(mul(-1, a, qdd));
    kinetic = mul(0.5, a, pow(qd, 2));
  }
  return { q, qd, qdd, tau, drive: add(...terms), potential, kinetic };
}

/** state joint: der(q) = qd, der(qd) = qdd; otherwise q, qd become tearing variables of the loops */
export function coordinateRole(c: Component, k: Coordinate, state: boolean): void {
  if (state) {
    c.equation(der(k.q), k.qd);
    c.equation(der(k.qd), k.qdd);
  } else {
    variableOf(k.q)!.tearing = true;
    variableOf(k.qd)!.tearing = true;
  }
}

/** a joint with one coordinate q along or about its axis */
export abstract class OneDofJoint extends Joint {
  readonly dof = 1;
  /** the coordinate: an angle (rad) about the axis, or a distance (m) along it */
  readonly q: Expr;
  /** its speed */
  readonly qd: Expr;
  /** its acceleration */
  readonly qdd: Expr;
  /** the drive: a torque (N m) or force (N) input, the signal `<joint>.tau` */
  readonly tau: Expr;
  /**
   * the inertia (kg m^2, or kg for a prismatic joint) the default limit
   * stiffness, limit damping and friction speed are sized for: set by the
   * Mechanism builder from the bodies beyond the joint at the start pose
   * (limits.ts); 1 when not set
   */
  referenceInertia: number | undefined;
  /** a limited tendon sizes its limit's defaults from this joint's reference inertia (tendon.ts): the builder sets it */
  inLimitedTendon = false;
  /** referenceInertia was set by the builder from the bodies (not by the user): it follows their --set values (limitDefaultsFor) */
  sizedByBuilder = false;
  private readonly options: JointOptions;
  private readonly spring: { drive: Expr; potential: Expr };
  /** the armature's kinetic energy 1/2 armature qd^2 (energy.kinetic) */
  readonly kinetic: Expr;
  /** generalized forces from outside the joint (actuators, tendons, couplings), added to its drive */
  private readonly applied: Expr[] = [];
  private limitModel: LimitFriction | undefined;

  constructor(name: string, options: JointOptions) {
    checkOptions(`joint ${name}`, options, JOINT_OPTIONS);
    super(name, options);
    checkLimitOptions(name, options);
    this.options = options;
    const k = coordinate(this, options);
    ({ q: this.q, qd: this.qd, qdd: this.qdd, tau: this.tau } = k);
    this.spring = { drive: k.drive, potential: k.potential };
    this.kinetic = k.kinetic;
  }

  /**
   * Adds a generalized force on the coordinate from another component (an
   * actuator, a tendon, a coupling's constraint force): it joins the drive in
   * the d'Alembert equation, the input tau stays the user's. Before the joint
   * is elaborated only.
   */
  applyForce(force: Expr): void {
    if (this.elaboratedOnce) {
      throw new ModelError(`joint ${this.path}: a force was applied after the joint's equations were made`, {
        component: this.path,
        hint: 'apply actuator, tendon and coupling forces while building the mechanism, before compiling it',
      });
    }
    this.applied.push(force);
  }

  /** the forces other components applied to the coordinate (applyForce), for the analytical derivatives' proof (codegen/tree-proof.ts) */
  get appliedForces(): readonly Expr[] {
    return this.applied;
  }

  /** the joint's limits and friction, their parameters declared on first use (after the builder set referenceInertia) */
  private limitsAndFriction(): LimitFriction {
    return (this.limitModel ??= limitFriction(this, this.options, this.q, this.qd, this.referenceInertia));
  }

  /** generalized force acting on the coordinate: drive, spring-damper, limits and friction, and the forces applied to it */
  get drive(): Expr {
    return add(this.spring.drive, this.limitsAndFriction().force, ...this.applied);
  }

  /** potential energy of the joint's spring and of its limit springs */
  get potential(): Expr {
    return add(this.spring.potential, this.limitsAndFriction().potential);
  }

  /** what energy.ts sums besides the bodies: the springs' potential, the armature's kinetic energy */
  get storedEnergy(): StoredEnergy {
    return { kinetic: this.kinetic, potential: this.potential };
  }

  /** limits and friction set with --set (j1.limit_lower=2, j1.friction=-1) are checked like the options */
  override checkParameters(value: (localName: string) => number): void {
    if (!this.limitModel) return;
    const o = this.options;
    checkLimitOptions(
      this.path,
      {
        limits: o.limits && [value('limit_lower'), value('limit_upper')],
        limitStiffness: o.limits && value('limit_c'),
        limitDamping: o.limits && value('limit_d'),
        friction: o.friction ? value('friction') : undefined,
        frictionVelocity: o.friction ? value('friction_v') : undefined,
      },
      ' (check the --set values)',
    );
  }

  /**
   * The defaults of the limit and friction parameters the user left open,
   * sized for reference inertia I (limits.ts), by full name: the builder
   * sizes them again when --set changes the bodies beyond the joint.
   */
  limitDefaultsFor(I: number, friction: number): Record<string, number> {
    const o = this.options,
      d = limitDefaults(I, friction),
      out: Record<string, number> = {};
    if (o.limits && o.limitStiffness === undefined) out[`${this.path}.limit_c`] = d.stiffness;
    if (o.limits && o.limitDamping === undefined) out[`${this.path}.limit_d`] = d.damping;
    if (o.friction && o.frictionVelocity === undefined) out[`${this.path}.friction_v`] = d.frictionVelocity;
    return out;
  }

  /** true when the joint has limits or friction (the builder then sizes their defaults) */
  get hasLimitsOrFriction(): boolean {
    return this.options.limits !== undefined || this.hasFriction;
  }

  /** true when the joint has friction (a parameter <joint>.friction) */
  get hasFriction(): boolean {
    return !!this.options.friction;
  }

  protected treeEquations(state: boolean): void {
    coordinateRole(this, this, state);
    this.kinematics();
  }

  startCoordinates(): number[] {
    return [variableOf(this.q)?.start ?? 0];
  }

  stateCoordinates(): Coordinate[] {
    return this.role === 'state' ? [this] : [];
  }

  /** frame_b from frame_a and q, qd, qdd; the joint's force balance and d'Alembert equation */
  protected abstract kinematics(): void;
}
