// An MJCF robot as a Mechanism, with MuJoCo's coordinates as its states.
// Each body is placed in its parent's frame (pos, quat: a FixedRotation or a
// bar), then moved by its joints in file order, each about its own point
// (MuJoCo's mj_kinematics: the body turns about the joint's pos):
//   hinge  bar(pos), rotation by -ref about the axis, Revolute, bar(-pos)
//   slide  bar(-ref axis), Prismatic
//   ball   bar(pos), BallJoint, bar(-pos)
//   free   a FreeJoint from the world (MuJoCo allows it only in a body of the
//          world, alone): its r, Q start at the body's pos, quat
// so that every coordinate is the number MuJoCo's qpos holds: the file's
// pose is q = ref for a hinge or slide (R(axis, -ref) R(axis, q) = R(axis,
// q - ref)), Q = (1, 0, 0, 0) for a ball, the body's pose for a free joint;
// qvel likewise (a ball's and a free joint's angular velocity in the body's
// axes, a free joint's linear velocity in the world's: ball-joint.ts,
// free-joint.ts). A body without joints is welded to its parent. The body's
// mass properties (mjcf-parse.ts) become a Body at the body's frame, its
// geoms that MuJoCo's viewer shows its shapes (geometriesOf); the world's
// plane the floor the viewer draws.
// Joint stiffness and springref are the joint's spring (c, q0), damping its
// damper, armature its armature (joint.ts: MuJoCo's dof_armature, on each
// axis of a ball or free joint), range (when limited) its limits,
// frictionloss its friction (limits.ts: a regularised Coulomb friction and
// spring-damper limits, where MuJoCo uses constraints). Not modelled, each a
// warning: a ball joint's stiffness, range and friction loss, a free joint's
// damping.
// Names (the contract of `kron compile robot.xml`): a joint's component is
// its MJCF name with every character outside [A-Za-z0-9_] replaced by _ (a
// leading _ before a digit), as for URDF; an unnamed free joint is
// <body>_free, other unnamed joints <body>_joint<k>, k from 0 within the
// body; an unnamed body is body<id> (MuJoCo's body number).
import { Mechanism } from '../library/multibody/mechanism.ts';
import type { Frame } from '../library/multibody/frame.ts';
import type { Floor, Geometry, Shape } from '../library/multibody/geometry.ts';
import { type Vec3, rgbaToCss } from './urdf-parse.ts';
import { Names } from './urdf.ts';
import { type MjcfBody, type MjcfGeom, type MjcfJoint, type MjcfRobot, listed } from './mjcf-parse.ts';
import { rotate, toAxisAngle } from './mjcf-frame.ts';
import { type Placed, closeEqualities, filePoses } from './mjcf-loops.ts';
import { addDrives } from './mjcf-drives.ts';
import { type JointStart, keyStart } from './mjcf-keyframe.ts';
import type { Joint } from '../library/multibody/joint.ts';
import { type MeshShape, addWorldColliders, collidersOf, meshShapes, planesOf } from './mjcf-collision.ts';
import { applyContactRules, collidedGeoms } from './mjcf-filter.ts';
import type { Collider } from '../contact/collider.ts';
import type { ReadFile } from './mjcf-xml.ts';

export { parseMjcf, type MjcfRobot } from './mjcf-parse.ts';

/** an MJCF robot as a mechanism */
export interface MjcfModel {
  /** the mechanism built */
  mechanism: Mechanism;
  /** what was read but not modelled: the parser's warnings, then the builder's */
  warnings: string[];
}

/** how mjcfMechanism builds the mechanism */
export interface MjcfOptions {
  /**
   * false: joint limits and friction loss are left out, as MuJoCo's
   * disableflags "constraint" leaves them out (for comparing the smooth
   * dynamics); default true
   */
  limitsAndFriction?: boolean;
  /**
   * where a mesh file is on this machine (its real path), by the file name
   * the MJCF gives (meshdir/file, relative to the main file's folder);
   * undefined: not found. Without it (or when not found) a body's meshes are
   * not drawn and its collision solids stand in (geometriesOf)
   */
  meshFile?: (file: string) => string | undefined;
  /** start from this <keyframe> key (its name, or its number when unnamed): qpos, qvel and ctrl (mjcf-keyframe.ts) */
  keyframe?: string;
  /**
   * true: the geoms that may collide become the bodies' collision geometry, the
   * world's planes grounds and its other geoms world geometry
   * (mjcf-collision.ts), touching as the file says: contype and conaffinity,
   * the parent filter, <contact><exclude> and <pair> (mjcf-filter.ts), for
   * contact (kron simulate --contact); default false: drawn only
   */
  contact?: boolean;
  /** with contact: reads a mesh file (by the name meshFile takes), for mesh geoms collided as their vertices' convex hull; without it mesh geoms are a warning, not collided */
  readFile?: ReadFile;
}

const DEFAULT_COLOR = '#a0a4a8';
/** a mesh's size before its file loads in the page (the placeholder sphere's radius, m) */
const MESH_RADIUS = 0.05;

/** a body's name for components and messages */
const bodyName = (b: MjcfBody) => b.name ?? `body${b.id}`;

/** a joint's wanted name: its own, or the body's with _free / _joint<k> */
function jointName(b: MjcfBody, j: MjcfJoint, k: number): string {
  return j.name ?? (j.type === 'free' ? `${bodyName(b)}_free` : `${bodyName(b)}_joint${k}`);
}

/** (checked robot description, options) => mechanism and warnings */
export function mjcfMechanism(robot: MjcfRobot, options: MjcfOptions = {}): MjcfModel {
  const warnings = [...robot.warnings];
  const names = new Names(warnings);
  const m = new Mechanism(robot.name || 'robot', { gravity: robot.gravity });
  // joints take their names first: they are the contract, bodies and frames yield
  const all: MjcfBody[] = [];
  const collect = (b: MjcfBody) => (all.push(b), b.children.forEach(collect));
  robot.bodies.forEach(collect);
  const jointNames = new Map<MjcfJoint, string>();
  for (const b of all) b.joints.forEach((j, k) => jointNames.set(j, names.take(jointName(b, j, k), `joint ${jointName(b, j, k)}`)));
  const meshShape = (g: MjcfGeom): Shape | undefined => {
    const mesh = g.mesh === undefined ? undefined : robot.meshes[g.mesh];
    const file = mesh?.file === undefined ? undefined : options.meshFile?.(mesh.file);
    return mesh?.file !== undefined && file
      ? { type: 'mesh', filename: mesh.file, file, radius: MESH_RADIUS, ...(mesh.scale && { scale: mesh.scale }) }
      : undefined;
  };
  const key = options.keyframe === undefined ? undefined : keyStart(robot, options.keyframe);
  const build = new Builder(
    m,
    names,
    warnings,
    jointNames,
    options.limitsAndFriction ?? true,
    meshShape,
    key?.joints,
    options.contact ? collidedGeoms(robot) : undefined,
    planesOf(robot.worldGeoms),
    options.contact ? meshShapes(robot.meshes, options.readFile, warnings) : undefined,
  );
  if (build.collided)
    addWorldColliders(
      m,
      robot.worldGeoms.filter((g) => build.collided!.has(g)),
      build.left,
      build.meshCollider,
      build.geomOf,
    );
  const floor = floorOf(robot.worldGeoms);
  if (floor) m.world.floor = floor;
  // depth first with an explicit stack: the XML reader bounds nesting, but a loop needs no stack depth
  const stack: [MjcfBody, Frame][] = robot.bodies.map((b) => [b, m.world.frame_b] as [MjcfBody, Frame]).reverse();
  const poses = filePoses(robot),
    placed = new Map<string, Placed>();
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [b, parent] = item;
    const frame = build.body(b, parent);
    if (b.name !== undefined) placed.set(b.name, { frame, ...poses.get(b)! });
    for (let i = b.children.length - 1; i >= 0; i--) stack.push([b.children[i], frame]);
  }
  const named = new Map([...jointNames].filter(([j]) => j.name !== undefined).map(([joint, component]) => [joint.name!, { joint, component }]));
  if (build.collided) applyContactRules(m, robot, build.paths, build.geomOf, warnings);
  closeEqualities(m, robot, placed, named, names, warnings);
  addDrives(robot, { m, joints: build.built, names, ctrl: key?.ctrl, limits: options.limitsAndFriction ?? true, warnings });
  for (const [what, joints] of build.notModelled) warnings.push(`${what} is not modelled: ${listed(joints, 'joint').replace(/ (is|are)$/, '')}`);
  const n = build.meshes.missing;
  if (n)
    warnings.push(
      `${n} mesh geom${n === 1 ? ' is' : 's are'} not drawn (${options.meshFile ? 'their files are not found' : 'mesh files are not read'}): their bodies' collision geoms stand in`,
    );
  if (!options.contact && [...robot.worldGeoms, ...all.flatMap((b) => b.geoms)].some((g) => g.collides))
    warnings.push('geoms are drawn, not collided: contacts are not modelled (kron simulate --contact collides them)');
  const { left } = build;
  if (left.count)
    warnings.push(
      `${left.count} geom${left.count === 1 ? '' : 's'} that may collide (${[...left.types].join(', ')}) ${left.count === 1 ? 'has' : 'have'} no contact shape yet: not collided`,
    );
  return { mechanism: m, warnings };
}

class Builder {
  /** geoms that may collide but have no contact shape yet (contact option): counted for one warning */
  readonly left = { count: 0, types: new Set<string>() };

  constructor(
    private readonly m: Mechanism,
    private readonly names: Names,
    private readonly warnings: string[],
    private readonly jointNames: Map<MjcfJoint, string>,
    private readonly limitsAndFriction: boolean,
    private readonly meshShape: (g: MjcfGeom) => Shape | undefined,
    private readonly start: Map<MjcfJoint, JointStart> | undefined,
    /** with contact: the geoms that get a collider (mjcf-filter.ts) */
    readonly collided: ReadonlySet<MjcfGeom> | undefined,
    /** the world's planes that may collide (contact): whose parameters a geom's collider carries */
    readonly planes: readonly MjcfGeom[],
    /** with contact: mesh geoms' convex shapes */
    readonly meshCollider?: MeshShape,
  ) {}

  /** with contact: each collider's geom (its parameters for MuJoCo's mixing) and each body's path (for exclusions) */
  readonly geomOf = new Map<Collider, MjcfGeom>();
  readonly paths = new Map<MjcfBody, string>();

  /** the joints built, by MJCF name (what tendons and actuators name) */
  readonly built = new Map<string, Joint>();

  private record<J extends Joint>(j: MjcfJoint, joint: J): J {
    if (j.name !== undefined) this.built.set(j.name, joint);
    return joint;
  }

  /** the body placed under its parent's frame and moved by its joints; returns its frame */
  body(b: MjcfBody, parent: Frame): Frame {
    const name = bodyName(b);
    const free = b.joints.find((j) => j.type === 'free');
    let frame = free ? this.freeJoint(free, b) : this.place(parent, b.pos, b.quat, `${name}_pos`);
    for (const j of b.joints) if (j !== free) frame = this.joint(frame, j);
    const geometry = geometriesOf(b.geoms, this.meshes, this.meshShape);
    const collision = this.collided ? collidersOf(b.geoms, this.collided, this.planes, this.left, this.meshCollider, this.geomOf) : [];
    if (b.inertial || geometry.length || collision.length) {
      const { mass, com, inertia } = b.inertial ?? { mass: 0, com: [0, 0, 0] as Vec3, inertia: [0, 0, 0, 0, 0, 0] as const };
      const body = this.m.body(this.names.take(name, `body ${name}`), {
        m: mass,
        rcm: com,
        I: inertia,
        ...(geometry.length && { geometry }),
        ...(collision.length && { collision }),
      });
      this.m.connect(frame, body.frame_a);
      this.paths.set(b, body.path);
    }
    return frame;
  }

  /** frame_b of a FixedRotation (or bar) at pos, turned by quat; the frame itself when both are zero */
  private place(from: Frame, pos: readonly number[], quat: readonly number[], wanted: string): Frame {
    const rotation = toAxisAngle(quat);
    if (rotation) {
      const c = this.m.rotation(this.names.take(wanted, wanted), { ...rotation, r: [...pos] as Vec3 });
      this.m.connect(from, c.frame_a);
      return c.frame_b;
    }
    if (pos.some((v) => v !== 0)) {
      const c = this.m.bar(this.names.take(wanted, wanted), { r: [...pos] as Vec3 });
      this.m.connect(from, c.frame_a);
      return c.frame_b;
    }
    return from;
  }

  private freeJoint(j: MjcfJoint, b: MjcfBody): Frame {
    const name = this.jointNames.get(j)!;
    this.unmodelled(j, name, ['damping', 'stiffness', 'frictionloss']);
    const key = this.start?.get(j);
    const pose = key?.qpos.length ? { r: key.qpos.slice(0, 3), Q: key.qpos.slice(3, 7) } : { r: b.pos, Q: b.quat };
    const joint = this.record(
      j,
      this.m.free(name, { ...pose, armature: j.armature || undefined, ...(key && { v: key.qvel.slice(0, 3), w: key.qvel.slice(3, 6) }) }),
    );
    this.m.connect(this.m.world.frame_b, joint.frame_a);
    return joint.frame_b;
  }

  private joint(from: Frame, j: MjcfJoint): Frame {
    const name = this.jointNames.get(j)!;
    const { axis, pos } = j;
    const back = pos.map((v) => -v);
    if (j.type === 'ball') {
      this.unmodelled(j, name, ['stiffness', 'frictionloss']);
      if (j.range) this.notModelled.set('ball range', [...(this.notModelled.get('ball range') ?? []), name]);
      const at = this.place(from, pos, [1, 0, 0, 0], `${name}_pos`);
      const key = this.start?.get(j);
      const joint = this.record(
        j,
        this.m.ball(name, { d: j.damping || undefined, armature: j.armature || undefined, ...(key && { Q: key.qpos, w: key.qvel }) }),
      );
      this.m.connect(at, joint.frame_a);
      return this.place(joint.frame_b, back, [1, 0, 0, 0], `${name}_back`);
    }
    const key = this.start?.get(j);
    const options = {
      axis,
      q: key?.qpos[0] ?? j.ref,
      qd: key?.qvel[0],
      c: j.stiffness || undefined,
      q0: j.stiffness ? j.springref : undefined,
      d: j.damping || undefined,
      armature: j.armature || undefined,
      ...(this.limitsAndFriction && { limits: j.range, friction: j.frictionloss || undefined }),
    };
    if (j.type === 'slide') {
      const at = this.place(
        from,
        axis.map((v) => -j.ref * v),
        [1, 0, 0, 0],
        `${name}_ref`,
      );
      const joint = this.record(j, this.m.prismatic(name, options));
      this.m.connect(at, joint.frame_a);
      return joint.frame_b;
    }
    let at = this.place(from, pos, [1, 0, 0, 0], `${name}_pos`);
    if (j.ref !== 0) {
      const c = this.m.rotation(this.names.take(`${name}_ref`, `${name}_ref`), { axis, angle: -j.ref });
      this.m.connect(at, c.frame_a);
      at = c.frame_b;
    }
    const joint = this.record(j, this.m.revolute(name, options));
    this.m.connect(at, joint.frame_a);
    return this.place(joint.frame_b, back, [1, 0, 0, 0], `${name}_back`);
  }

  /** shown mesh geoms whose files are not there (collision solids stand in), for one note */
  readonly meshes = { missing: 0 };

  /** what a joint gives and the library's joint does not model: by attribute, joint names with their values */
  readonly notModelled = new Map<string, string[]>();

  private unmodelled(j: MjcfJoint, name: string, keys: readonly ('damping' | 'stiffness' | 'armature' | 'frictionloss')[]): void {
    for (const k of keys) if (j[k] !== 0) this.notModelled.set(k, [...(this.notModelled.get(k) ?? []), `${name} ${j[k]}`]);
  }
}

/** MuJoCo's viewer shows geom groups 0, 1 and 2 by default: menagerie files put collision geoms in 3 */
const SHOWN_GROUPS = 3;
const SOLID: readonly string[] = ['sphere', 'capsule', 'cylinder', 'box', 'ellipsoid'];

/**
 * What the viewer draws of a body: its geoms of the groups MuJoCo shows
 * (not transparent ones, rgba alpha 0), each a primitive or its mesh file
 * (meshShape: undefined when the file is not there) with its colour. When a
 * shown mesh's file is not there, the body's other solids (its collision
 * geoms) stand in, in that mesh's colour unless they have their own, so that
 * the robot is seen much as it looks; `meshes` counts such meshes for one
 * note.
 */
function geometriesOf(geoms: readonly MjcfGeom[], meshes: { missing: number }, meshShape: (g: MjcfGeom) => Shape | undefined = () => undefined): Geometry[] {
  const shown = geoms.filter((g) => g.group < SHOWN_GROUPS && !(g.rgba && g.rgba[3] === 0));
  const drawn: Geometry[] = [];
  let missing: MjcfGeom | undefined;
  for (const g of shown) {
    if (SOLID.includes(g.type)) drawn.push(geometryOf(g));
    if (g.type !== 'mesh') continue;
    const shape = meshShape(g);
    if (shape) {
      drawn.push({ shape, ...placed(g) });
    } else {
      missing ??= g;
      meshes.missing++;
    }
  }
  if (missing) {
    const standIns = geoms.filter((g) => g.group >= SHOWN_GROUPS && SOLID.includes(g.type));
    drawn.push(...standIns.map((g) => geometryOf(g.rgba || !missing.rgba ? g : { ...g, rgba: missing.rgba })));
  }
  return drawn;
}

/** a geom's colour and placement in the body's frame */
function placed(g: MjcfGeom): Omit<Geometry, 'shape'> {
  const [w, x, y, z] = g.quat;
  return {
    color: g.rgba ? rgbaToCss(g.rgba) : DEFAULT_COLOR,
    offset: g.pos,
    ...(w !== 1 && { orientation: [x, y, z, w] as [number, number, number, number] }),
  };
}

/** one solid geom with its colour, in the body's frame */
function geometryOf(g: MjcfGeom): Geometry {
  const at = placed(g);
  const s = g.size;
  // a capsule's and a cylinder's axis is the geom's z, as the viewer's own axis
  const along = { color: at.color, offset: g.pos, axis: rotate(g.quat, [0, 0, 1]) };
  switch (g.type) {
    case 'sphere':
      return { shape: { type: 'sphere', radius: s[0] }, ...at };
    case 'capsule':
      return { shape: { type: 'capsule', radius: s[0], length: 2 * s[1] }, ...along };
    case 'cylinder':
      return { shape: { type: 'cylinder', radius: s[0], length: 2 * s[1] }, ...along };
    case 'ellipsoid':
      return { shape: { type: 'ellipsoid', radii: [s[0], s[1], s[2]] }, ...at };
    default:
      return { shape: { type: 'box', size: [2 * s[0], 2 * s[1], 2 * s[2]] }, ...at };
  }
}

/** the world's first plane geom as the floor the viewer draws */
function floorOf(geoms: readonly MjcfGeom[]): Floor | undefined {
  const plane = geoms.find((g) => g.type === 'plane' && g.group < SHOWN_GROUPS);
  if (!plane) return undefined;
  return { point: plane.pos, normal: rotate(plane.quat, [0, 0, 1]) as Vec3, color: plane.rgba ? rgbaToCss(plane.rgba) : DEFAULT_COLOR };
}
