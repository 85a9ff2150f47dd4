// The builder users write mechanisms with: a Model that owns the World and
// hands its gravity to every body, so a mechanism reads like its drawing:
//   const m = new Mechanism('pendulum');
//   const j1 = m.revolute('j1', { axis: [0, 0, 1] });
//   const link = m.body('link', { m: 1, rcm: [0.5, 0, 0] });
//   m.connect(m.world.frame_b, j1.frame_a);
//   m.connect(j1.frame_b, link.frame_a);
// When the model is complete (at compile time) the builder finds the spanning
// tree, cuts every kinematic loop and chooses the state joints
// (topology.ts); the compile report lists what it chose.
import { type GeneralizedCoordinate, Model, components, elaborate, variableOf } from '../../model/index.ts';
import type { Expr } from '../../expr/index.ts';
import { KronError, UsageError } from '../../errors.ts';
import { Body, type BodyOptions } from './body.ts';
import { BodyCylinder, type BodyCylinderOptions } from './body-cylinder.ts';
import { FixedRotation, type FixedRotationOptions } from './fixed-rotation.ts';
import { FixedTranslation, type FixedTranslationOptions } from './fixed-translation.ts';
import { Energy, storesEnergy } from './energy.ts';
import { BallJoint, type BallJointOptions } from './ball-joint.ts';
import { FreeJoint, type FreeJointOptions } from './free-joint.ts';
import { COM, CentreOfMass, MOMENTUM, Momentum } from './momentum.ts';
import { Joint, type JointOptions, OneDofJoint } from './joint.ts';
import { type BodyValues, referenceInertias, setReferenceInertias } from './reference-inertia.ts';
import { Prismatic } from './prismatic.ts';
import { Revolute } from './revolute.ts';
import type { MultiAxisOptions } from './rotation-sequence.ts';
import { Spherical } from './spherical.ts';
import { type Topology, assignJointRoles } from './topology.ts';
import { Universal, type UniversalOptions } from './universal.ts';
import { STANDARD_GRAVITY, World } from './world.ts';
import { NUMBERS, type OptionKind, checkOptions } from '../options.ts';
import { type Collider, checkColliders, zOnto } from '../../contact/collider.ts';
import { type ContactRules, defaultContactRules } from '../../contact/rules.ts';

/** the name of the energy component (its signals energy.kinetic, energy.potential, energy.total) */
export const ENERGY = 'energy';

/** a ground plane (Mechanism.ground): a collider's name, parameters and filter, and where the plane is */
export interface GroundOptions extends Omit<Collider, 'shape' | 'offset' | 'orientation'> {
  /** the outward normal, world-resolved (default: against gravity) */
  normal?: readonly [number, number, number];
  /** a point of the plane (default the origin) */
  point?: readonly [number, number, number];
}

/** a mechanism's gravity */
export interface MechanismOptions {
  /** world-resolved gravity (m/s^2); default (0, -9.80665, 0) */
  gravity?: readonly [number, number, number];
}

const MECHANISM_OPTIONS = { gravity: NUMBERS } satisfies Record<keyof MechanismOptions, OptionKind>;

/**
 * The builder of a multibody model: a world, then bodies, joints and bars
 * made by name and connected frame to frame (`m.connect(j1.frame_b,
 * link.frame_a)`). At compile time it finds the spanning tree and the
 * kinematic loops, chooses state and cut joints, and adds the energy and
 * momentum signals.
 */
export class Mechanism extends Model {
  /** the inertial frame (frame_b) and gravity */
  readonly world: World;
  /** the spanning tree and loops, once elaborated (at compile time) */
  topology: Topology | undefined;
  /** the energy signals energy.kinetic, .potential, .total, once elaborated (energy.ts) */
  energy: Energy | undefined;
  /** momentum.linear, .angular and com.r, .v, .m, once elaborated (momentum.ts) */
  momentum: Momentum | undefined;
  /** the centre of mass signals com.r, .v, .m, once elaborated (momentum.ts) */
  com: CentreOfMass | undefined;
  /** collision geometry fixed in the world (ground planes, Mechanism.ground) */
  readonly worldCollision: Collider[] = [];
  /** which geometries touch beyond their bitmasks: the parent filter, excluded body pairs, explicit pairs (contact/rules.ts) */
  readonly contactRules: ContactRules = defaultContactRules();

  /** the declared gravity, world-resolved (m/s^2; before any --set of world.g) */
  readonly gravity: readonly [number, number, number];

  /**
   * where a component comes from in the file the mechanism was read from
   * (an MJCF <equality> element and its line), by component name: an error
   * naming the component names that too
   */
  readonly sources = new Map<string, string>();

  constructor(title: string, options: MechanismOptions = {}) {
    super(title);
    checkOptions(`mechanism ${title}`, options, MECHANISM_OPTIONS);
    this.gravity = options.gravity ?? [0, -STANDARD_GRAVITY, 0];
    this.world = this.add(new World('world', this.gravity));
  }

  override elaborate(): void {
    if (this.topology) return;
    const all = components(this);
    this.topology = this.naming(() => assignJointRoles(all, this.world.frame_b));
    setReferenceInertias(all, this.world.frame_b);
    // energy.kinetic, energy.potential, energy.total; a component of the user's own named energy keeps the name
    if (!this.children.some((c) => c.localName === ENERGY)) {
      const bodies = all.filter((c): c is Body => c instanceof Body);
      // elaborated first: a ball joint's rotor energy is made of the variables its elaboration declares
      const stores = all.filter(storesEnergy);
      stores.forEach((c) => c.elaborate());
      const stored = stores.map((c) => c.storedEnergy);
      this.energy = this.add(
        new Energy(
          ENERGY,
          bodies,
          stored.map((e) => e.potential),
          stored.map((e) => e.kinetic),
        ),
      );
    }
    // momentum.* and com.* (momentum.ts); a component of the user's own named momentum or com keeps the name likewise
    const massive = all.filter((c): c is Body => c instanceof Body);
    if (!this.children.some((c) => c.localName === MOMENTUM)) this.momentum = this.add(new Momentum(MOMENTUM, massive));
    if (!this.children.some((c) => c.localName === COM)) this.com = this.add(new CentreOfMass(COM, massive, this.momentum));
  }

  /** f(), an error naming a component of `sources` rethrown (same class, details) with the source appended */
  private naming<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      const source = e instanceof KronError && e.details.component !== undefined ? this.sources.get(e.details.component) : undefined;
      if (!source || !(e instanceof KronError)) throw e;
      const Class = e.constructor as new (message: string, details: KronError['details']) => KronError;
      throw new Class(`${e.message} (${e.details.component} is ${source})`, e.details);
    }
  }

  /** the default limit springs and friction speeds sized again from the bodies' values after --set (reference-inertia.ts) */
  override derivedParameters(value: (name: string) => number): Record<string, number> {
    const all = components(this);
    const joints = all.filter((c): c is OneDofJoint => c instanceof OneDofJoint && c.sizedByBuilder);
    const body = (b: Body): BodyValues => {
      const v = (local: string) => value(`${b.path}.${local}`),
        I = (i: number, j: number) => v(`I[${Math.min(i, j)}][${Math.max(i, j)}]`);
      return { mass: v('m'), rcm: [1, 2, 3].map((i) => v(`r_cm[${i}]`)), inertia: [1, 2, 3].map((i) => [1, 2, 3].map((j) => I(i, j))) };
    };
    const out: Record<string, number> = {};
    for (const [j, I] of referenceInertias(all, this.world.frame_b, joints, body)) {
      Object.assign(out, j.limitDefaultsFor(I, j.hasFriction ? value(`${j.path}.friction`) : 0));
    }
    return out;
  }

  override describeStructure(): Topology | undefined {
    return this.topology;
  }

  /** the state joints' coordinates in declaration order (the order of the compiled states) */
  override generalizedCoordinates(): GeneralizedCoordinate[] {
    elaborate(this);
    return components(this).flatMap((c): GeneralizedCoordinate[] => {
      if (c instanceof FreeJoint || c instanceof BallJoint) return c.role === 'state' ? quaternionCoordinates(c) : [];
      return c instanceof Joint
        ? c.stateCoordinates().map((k) => ({ q: variableOf(k.q)!, qd: variableOf(k.qd)!, qdd: variableOf(k.qdd)!, tau: variableOf(k.tau)! }))
        : [];
    });
  }

  /**
   * A ground plane for contact: the half-space below `point` (default the
   * origin) with outward `normal` (default against gravity), fixed in the
   * world. Contact acts only in runs given a ContactScene (src/contact).
   */
  ground(options: GroundOptions = {}): Collider {
    const g = this.gravity;
    const normal = options.normal ?? (g.some((v) => v !== 0) ? (g.map((v) => -v) as [number, number, number]) : [0, 0, 1]);
    const { normal: _, point, ...rest } = options;
    const collider: Collider = { name: 'ground', ...rest, shape: { type: 'plane' }, offset: point ?? [0, 0, 0], orientation: zOnto(normal) };
    if (!(normal.length === 3 && normal.every(Number.isFinite) && Math.hypot(...normal) > 0)) {
      throw new UsageError(`ground: normal [${normal.join(', ')}] is not a direction`, { component: 'world', hint: 'give normal: [x, y, z], not zero' });
    }
    checkColliders([collider], 'world');
    this.worldCollision.push(collider);
    return collider;
  }

  /** a rigid body at frame_a: mass m, centre of mass rcm, inertia I about it (body.ts) */
  body(name: string, options: BodyOptions): Body {
    return this.add(new Body(name, { gravity: this.world.g, ...options }));
  }

  /** a solid cylinder from frame_a to frame_b (steel, diameter 0.05 m unless given) */
  bodyCylinder(name: string, options: BodyCylinderOptions): BodyCylinder {
    return this.add(new BodyCylinder(name, { gravity: this.world.g, ...options }));
  }

  /** a revolute joint about `axis` (1 dof): q, qd, input tau (revolute.ts) */
  revolute(name: string, options?: JointOptions): Revolute {
    return this.add(new Revolute(name, options));
  }

  /** a prismatic joint along `axis` (1 dof): q, qd, input tau, a force (prismatic.ts) */
  prismatic(name: string, options?: JointOptions): Prismatic {
    return this.add(new Prismatic(name, options));
  }

  /** a spherical joint as three revolute axes (Cardan angles; singular at gimbal lock: the ball joint is not) (spherical.ts) */
  spherical(name: string, options?: MultiAxisOptions): Spherical {
    return this.add(new Spherical(name, options));
  }

  /** a universal joint: two revolute axes (universal.ts) */
  universal(name: string, options?: UniversalOptions): Universal {
    return this.add(new Universal(name, options));
  }

  /** a quaternion ball joint (3 dof, no singular pose): Q[1..4], w[1..3], inputs tau[1..3] (ball-joint.ts) */
  ball(name: string, options?: BallJointOptions): BallJoint {
    return this.add(new BallJoint(name, options));
  }

  /** a free joint (6 dof), a floating root: r[1..3], Q[1..4], v[1..3], w[1..3], inputs f[1..3], tau[1..3] (free-joint.ts) */
  free(name: string, options?: FreeJointOptions): FreeJoint {
    return this.add(new FreeJoint(name, options));
  }

  /** a massless rigid bar: frame_b at r from frame_a, in frame_a coordinates (fixed-translation.ts) */
  bar(name: string, options: FixedTranslationOptions): FixedTranslation {
    return this.add(new FixedTranslation(name, options));
  }

  /** a fixed rotation (and offset) from frame_a to frame_b (fixed-rotation.ts) */
  rotation(name: string, options: FixedRotationOptions): FixedRotation {
    return this.add(new FixedRotation(name, options));
  }
}

/**
 * A free joint's three translations (r, v = der(r), vd, f along frame_a's
 * axes) and, for it and a ball joint, the three rotations about frame_b's
 * axes: qd = w[i], qdd = wd[i], tau = tau[i], positions the quaternion Q
 * (four numbers for three velocities, GeneralizedCoordinate.quaternion)
 */
function quaternionCoordinates(j: FreeJoint | BallJoint): GeneralizedCoordinate[] {
  const v = (e: Expr) => variableOf(e)!;
  const rot = j.rotation!,
    Q = rot.Q.map(v);
  const translations =
    j instanceof FreeJoint
      ? [0, 1, 2].map((i) => ({ q: v(j.translation!.r[i]), qd: v(j.translation!.v[i]), qdd: v(j.translation!.vd[i]), tau: v(j.translation!.f[i]) }))
      : [];
  const rotations = [0, 1, 2].map((axis) => ({ q: Q[axis + 1], qd: v(rot.w[axis]), qdd: v(rot.wd[axis]), tau: v(rot.tau[axis]), quaternion: { Q, axis } }));
  return [...translations, ...rotations];
}
