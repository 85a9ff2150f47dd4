// A rigid body with its frame_a not necessarily at the centre of mass
// (relaxing paper eq. 24, Newton-Euler, written at frame_a):
//   rc   = R_a r_cm                                  centre of mass, world-resolved
//   a_cm = a_a + z_a x rc + w_a x (w_a x rc)
//   f_a  = m (a_cm - g)
//   t_a  = I_w z_a + w_a x (I_w w_a) + rc x f_a,     I_w = R_a I R_a^T
// (I_w and w x (w x rc) as world-inertia.ts writes them, for fewer operations).
// f_a, t_a: force and torque acting on the body at frame_a.
// A body with collision geometry (options.collision) has an external wrench
// as inputs, world-resolved: contact_f[1..3] (N, acting at frame_a's origin)
// and contact_t[1..3] (N m, about frame_a's origin), which the run-time
// contact (src/contact/run.ts) fills at every evaluation; then
//   f_a  = m (a_cm - g) - F
//   t_a  = I_w z_a + w_a x (I_w w_a) + rc x (f_a + F) - T
// (F, T moved to the left of Newton-Euler). A body without collision
// geometry has neither inputs nor terms: its equations are as before.
import { symmetricEigen3 } from './jacobi.ts';
import { type Expr, type Vec3Like, add, cross, dot, mat3, mul, mulMTV, mulMV, vadd, vec3, vex, vscale, vsub } from '../../expr/index.ts';
import { centripetal, worldInertia } from './world-inertia.ts';
import { Component } from '../../model/index.ts';
import { ModelError } from '../../errors.ts';
import { Frame } from './frame.ts';
import type { Geometry } from './geometry.ts';
import { LIST, NUMBER, NUMBERS, OBJECTS, type OptionKind, checkOptions } from '../options.ts';
import { type Collider, checkColliders } from '../../contact/collider.ts';

/** a body's mass properties, drawing and collision geometry */
export interface BodyOptions {
  /** mass (kg), >= 0 */
  m: number;
  /** centre of mass in frame_a coordinates (m) */
  rcm?: readonly [number, number, number];
  /** inertia about the centre of mass in frame_a coordinates: [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] */
  I?: readonly [number, number, number, number?, number?, number?];
  /** gravity, world-resolved (the Mechanism builder passes the world's) */
  gravity?: Vec3Like;
  /** what it looks like: one shape, or several (an MJCF body's geoms), each in frame_a coordinates */
  geometry?: Geometry | readonly Geometry[];
  /** collision geometry (src/contact/collider.ts): the body gets contact wrench inputs contact_f[1..3], contact_t[1..3] */
  collision?: readonly Collider[];
}

const BODY_OPTIONS = { m: NUMBER, rcm: NUMBERS, I: NUMBERS, gravity: NUMBERS, geometry: OBJECTS, collision: LIST } satisfies Record<
  keyof BodyOptions,
  OptionKind
>;

/** a rigid body (Newton-Euler at its centre of mass), attached at frame_a */
export class Body extends Component {
  /** the frame it is attached at (its joint's frame_b) */
  readonly frame_a: Frame;
  /** the first of its shapes (the one a URDF link has) */
  readonly geometry: Geometry | undefined;
  /** all its shapes, drawn together */
  readonly shapes: readonly Geometry[];
  /** its collision geometry (empty: none, and no contact inputs) */
  readonly collision: readonly Collider[];
  /** the declared values (before any --set override): mass, centre of mass and inertia in frame_a coordinates */
  readonly mass: number;
  /** the declared centre of mass, frame_a coordinates (m) */
  readonly rcm: readonly [number, number, number];
  /** the declared inertia about the centre of mass, frame_a axes (kg m^2) */
  readonly inertia: readonly (readonly [number, number, number])[];
  /** kinetic energy 1/2 m |v_cm|^2 + 1/2 w . (I_w w) and potential energy -m g . r_cm (J) */
  readonly kineticEnergy: Expr;
  /** its potential energy in gravity, -m g . r_cm (J) */
  readonly potentialEnergy: Expr;
  /** with collision geometry: the contact wrench's power on the body, F . v_a + T . w_a (W) */
  readonly contactPower: Expr | undefined;
  /** whether the options gave I (a body without it is a point mass, and says so in notes()) */
  private readonly inertiaGiven: boolean;

  constructor(name: string, options: BodyOptions) {
    super(name);
    checkOptions(`body ${name}`, options, BODY_OPTIONS);
    checkInertia(name, options);
    this.frame_a = this.add(new Frame('frame_a'));
    this.shapes = options.geometry === undefined ? [] : Array.isArray(options.geometry) ? options.geometry : [options.geometry as Geometry];
    this.geometry = this.shapes[0];
    this.collision = options.collision ?? [];
    checkColliders(this.collision, name);
    const m = this.parameter('m', options.m);
    const rcm = (this.rcm = options.rcm ?? [0, 0, 0]);
    this.mass = options.m;
    const c = vec3(...(rcm.map((x, i) => this.parameter(`r_cm[${i + 1}]`, x)) as [never, never, never]));
    const [xx, yy, zz, xy = 0, xz = 0, yz = 0] = options.I ?? [0, 0, 0];
    this.inertia = [
      [xx, xy, xz],
      [xy, yy, yz],
      [xz, yz, zz],
    ];
    this.inertiaGiven = options.I !== undefined;
    const p = (i: number, j: number, v: number) => this.parameter(`I[${i}][${j}]`, v);
    const [Ixy, Ixz, Iyz] = [p(1, 2, xy), p(1, 3, xz), p(2, 3, yz)];
    const I = mat3([
      [p(1, 1, xx), Ixy, Ixz],
      [Ixy, p(2, 2, yy), Iyz],
      [Ixz, Iyz, p(3, 3, zz)],
    ]);
    const g = vex(options.gravity ?? [0, -9.80665, 0]);
    const fa = this.frame_a;
    const rc = mulMV(fa.R, c);
    const acm = vadd(vadd(fa.a, cross(fa.z, rc)), centripetal(fa.w, fa.R, c, rcm));
    const { Iw, gyroscopic } = worldInertia(fa.R, I, this.inertia);
    const inertial = vadd(mulMV(Iw, fa.z), gyroscopic(fa.w));
    if (this.collision.length === 0) {
      this.vectorEquation(fa.f, vscale(m, vsub(acm, g)));
      this.vectorEquation(fa.t, vadd(inertial, cross(rc, fa.f)));
    } else {
      const input = (n: string) => vec3(...([1, 2, 3].map((i) => this.input(`${n}[${i}]`, 0)) as [Expr, Expr, Expr]));
      const F = input('contact_f'),
        T = input('contact_t');
      this.vectorEquation(fa.f, vsub(vscale(m, vsub(acm, g)), F));
      this.vectorEquation(fa.t, vsub(vadd(inertial, cross(rc, vadd(fa.f, F))), T));
      this.contactPower = add(dot(F, fa.v), dot(T, fa.w));
    }
    // energies: v_cm = v_a + w_a x rc; w . (I_w w) = (R_a^T w) . I (R_a^T w)
    const vcm = vadd(fa.v, cross(fa.w, rc)),
      wb = mulMTV(fa.R, fa.w);
    this.kineticEnergy = mul(0.5, add(mul(m, dot(vcm, vcm)), dot(wb, mulMV(I, wb))));
    this.potentialEnergy = mul(-1, m, dot(g, vadd(fa.r, rc)));
  }

  /** a body given a mass but no I is a point mass: allowed (a ball, a carriage), but a rigid body missing its inertia looks the same */
  override notes(): string[] {
    if (this.inertiaGiven || this.mass === 0) return [];
    return [
      `body ${this.path} has a mass but no inertia I: it is a point mass at its centre of mass (give I: [Ixx, Iyy, Izz] about the centre of mass, or I: [0, 0, 0] for a point mass on purpose)`,
    ];
  }

  /** mass and inertia set with --set (e.g. link.m=-1) are checked like those given to the constructor */
  override checkParameters(value: (localName: string) => number): void {
    const I = [value('I[1][1]'), value('I[2][2]'), value('I[3][3]'), value('I[1][2]'), value('I[1][3]'), value('I[2][3]')] as const;
    const problem = inertiaProblem(value('m'), I);
    if (problem)
      throw new ModelError(`body ${this.path}: ${problem.what}`, {
        component: this.path,
        hint: `${problem.hint} (check the --set values of ${this.path}.m and ${this.path}.I)`,
      });
  }
}

export interface InertiaProblem {
  what: string;
  hint: string;
}

/**
 * What is physically wrong with a mass and an inertia about the centre of
 * mass, or undefined: mass >= 0; inertia positive semi-definite with principal
 * moments (eigenvalues) A <= B <= C satisfying the triangle inequality
 * A + B >= C. The principal moments, not the diagonal as written: with
 * products of inertia a diagonal can pass while the body cannot exist
 * (Ixx = Iyy = 1, Izz = 0.2, Ixy = 0.9 has moments 0.1, 0.2, 1.9).
 * Tolerance 1e-9 of the trace: far above the eigenvalues' rounding (a few
 * eps of the trace), far below a real violation.
 */
export function inertiaProblem(m: number, I: BodyOptions['I']): InertiaProblem | undefined {
  if (!(m >= 0) || !Number.isFinite(m)) return { what: `mass ${m} is not a finite number >= 0`, hint: 'give a mass in kg, 0 or more' };
  const [xx, yy, zz, xy = 0, xz = 0, yz = 0] = I ?? [0, 0, 0];
  const labels = ['Ixx', 'Iyy', 'Izz', 'Ixy', 'Ixz', 'Iyz'];
  const shown = `(${[xx, yy, zz, xy, xz, yz]
    .map((v, i) => (i < 3 || v !== 0 ? `${labels[i]} ${v}` : ''))
    .filter(Boolean)
    .join(', ')})`;
  if (![xx, yy, zz, xy, xz, yz].every(Number.isFinite))
    return { what: `inertia ${shown} has a non-finite entry`, hint: 'give finite moments and products of inertia in kg m^2' };
  const tol = 1e-9 * (Math.abs(xx) + Math.abs(yy) + Math.abs(zz));
  const [A, B, C] = principalMoments([xx, yy, zz, xy, xz, yz]);
  const moments = [A, B, C].map((v) => Number(v.toPrecision(6)));
  if (!(A >= -tol)) {
    return {
      what: `inertia ${shown} is not positive semi-definite: principal moments ${moments.join(', ')}`,
      hint: 'the inertia tensor about the centre of mass must be positive semi-definite',
    };
  }
  if (!(A + B >= C - tol)) {
    return {
      what: `inertia ${shown} violates the triangle inequality: principal moments ${moments.join(', ')} (${moments[0]} + ${moments[1]} < ${moments[2]})`,
      hint: 'the principal moments A <= B <= C of a rigid body satisfy A + B >= C',
    };
  }
  return undefined;
}

/** the eigenvalues of the symmetric inertia [xx, yy, zz, xy, xz, yz] in ascending order (jacobi.ts) */
export function principalMoments([xx, yy, zz, xy, xz, yz]: readonly [number, number, number, number, number, number]): [number, number, number] {
  return symmetricEigen3([
    [xx, xy, xz],
    [xy, yy, yz],
    [xz, yz, zz],
  ]).values.sort((a, b) => a - b);
}

function checkInertia(name: string, o: BodyOptions): void {
  const problem = inertiaProblem(o.m, o.I);
  if (problem) throw new ModelError(`body ${name}: ${problem.what}`, { component: name, hint: problem.hint });
}
