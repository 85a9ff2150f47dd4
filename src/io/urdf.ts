// A URDF robot as a Mechanism: the root link fixed to the world (or, with
// `floating`, on a FreeJoint named <root link>_free: the robot moves in the
// world), each joint placed by its origin (a FixedTranslation, or a
// FixedRotation whose offset is the origin's xyz), revolute and continuous
// joints as Revolute, prismatic as Prismatic, floating as a FreeJoint, planar
// as two Prismatic joints along the plane (<name>_x, <name>_y: the axis's
// normals) and a Revolute about the axis (<name>_yaw), fixed joints as the
// origin alone; each link with an inertial or
// a visual (or, with contact, a collision) becomes a Body at the link frame, its centre of mass and inertia
// carried from the inertial frame into the link frame (I_link = R I R^T).
// Joint damping becomes the joint's damper d, <limit lower upper> the joint's
// limits and <dynamics friction> its friction (limits.ts: defaults sized by
// the bodies beyond the joint); gravity is URDF's usual (0, 0, -9.80665). With
// `contact`, <collision> elements become the bodies' collision geometry and a
// ground plane is added (urdf-collision.ts); without, nothing of them. Reading
// a .urdf file from disk is src/node/urdf-file.ts (this file runs in browsers).
import { ENERGY, Mechanism } from '../library/multibody/mechanism.ts';
import { COM, MOMENTUM } from '../library/multibody/momentum.ts';
import { STANDARD_GRAVITY } from '../library/multibody/world.ts';
import type { Frame } from '../library/multibody/frame.ts';
import type { Geometry } from '../library/multibody/geometry.ts';
import { type UrdfJoint, type UrdfLink, type UrdfPose, type UrdfRobot, type Vec3 } from './urdf-parse.ts';
import { type Mat, rpyMatrix, rpyQuaternion } from './rpy.ts';
import type { ContactMaterial } from '../contact/material.ts';
import { type MeshCollider, type UrdfGround, addUrdfGround, urdfColliders } from './urdf-collision.ts';

export { rpyMatrix, rpyQuaternion };

export { parseUrdf, type UrdfRobot } from './urdf-parse.ts';

/** a URDF robot as a mechanism */
export interface UrdfModel {
  /** the mechanism built */
  mechanism: Mechanism;
  /** what was read but not modelled, or drawn as a placeholder */
  warnings: string[];
}

/** how urdfMechanism builds the mechanism */
export interface UrdfOptions {
  /** world-resolved gravity; default (0, 0, -9.80665) */
  gravity?: readonly [number, number, number];
  /**
   * where a <mesh filename> is on this machine; undefined when it is not
   * there, or why it is not read (src/node/urdf-mesh.ts looks under the
   * URDF's package root)
   */
  meshFile?: (filename: string) => string | MeshNotRead | undefined;
  /** the root link on a free joint named <root link>_free (MuJoCo's freejoint): the robot is not fixed to the world */
  floating?: boolean;
  /**
   * each link's <collision> elements (box, cylinder, sphere, capsule) as its
   * body's collision geometry, and a ground plane, for contact (kron simulate
   * --contact); default false: not read. The robot touches the ground, not
   * itself unless selfContact; a <mesh> is its vertices' convex hull when meshCollider reads it,
   * else a warning (urdf-collision.ts)
   */
  contact?: boolean;
  /** with contact: links touch each other too, but for a parent and its child (kron simulate --self-contact; default false: the ground only) */
  selfContact?: boolean;
  /** with contact: a <collision> mesh's convex shape (src/node/urdf-file.ts reads OBJ and STL files), or why not; without it meshes are not collided */
  meshCollider?: MeshCollider;
  /** with contact: every collision element's parameters (default MuJoCo's: timeConstant 0.02 s, dampingRatio 1, friction 1) */
  contactMaterial?: ContactMaterial;
  /** with contact: where the ground plane is (default through the origin, normal against gravity) */
  ground?: UrdfGround;
}

/** a mesh the loader did not read, and why: the warning says "link L: mesh "F" <why>" */
export interface MeshNotRead {
  why: string;
}

const DEFAULT_COLOR = '#a0a4a8';
const PLACEHOLDER_RADIUS = 0.05;

/**
 * The rotation of roll-pitch-yaw angles as axis and angle (for FixedRotation).
 * A single non-zero angle keeps its axis and angle exactly; otherwise the
 * quaternion q = qz(yaw) qy(pitch) qx(roll) gives them.
 */
export function rpyAxisAngle([r, p, y]: Vec3): { axis: Vec3; angle: number } | undefined {
  const nonzero = [r, p, y].filter((a) => a !== 0).length;
  if (nonzero === 0) return undefined;
  if (nonzero === 1) return r ? { axis: [1, 0, 0], angle: r } : p ? { axis: [0, 1, 0], angle: p } : { axis: [0, 0, 1], angle: y };
  const [cr, sr, cp, sp, cy, sy] = [Math.cos(r / 2), Math.sin(r / 2), Math.cos(p / 2), Math.sin(p / 2), Math.cos(y / 2), Math.sin(y / 2)];
  const w = cr * cp * cy + sr * sp * sy;
  const v: Vec3 = [sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy];
  const s = Math.hypot(...v);
  if (s < 1e-15) return undefined;
  return { axis: [v[0] / s, v[1] / s, v[2] / s], angle: 2 * Math.atan2(s, w) };
}

const apply = (R: Mat, v: readonly number[]): Vec3 => R.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]) as Vec3;

/** R I R^T for I = [xx, yy, zz, xy, xz, yz], as the same six entries */
function rotateInertia(R: Mat, [xx, yy, zz, xy, xz, yz]: readonly number[]): [number, number, number, number, number, number] {
  const I = [
    [xx, xy, xz],
    [xy, yy, yz],
    [xz, yz, zz],
  ];
  const RI = R.map((row) => [0, 1, 2].map((j) => row[0] * I[0][j] + row[1] * I[1][j] + row[2] * I[2][j]));
  const e = (i: number, j: number) => RI[i][0] * R[j][0] + RI[i][1] * R[j][1] + RI[i][2] * R[j][2];
  return [e(0, 0), e(1, 1), e(2, 2), e(0, 1), e(0, 2), e(1, 2)];
}

/** component names: letters, digits and underscores, unique in the mechanism */
export class Names {
  private readonly used = new Set<string>(['world', ENERGY, MOMENTUM, COM]);
  constructor(private readonly warnings: string[]) {}
  /** the name with every character outside [A-Za-z0-9_] replaced by _, a leading _ before a digit */
  sanitise(wanted: string): string {
    const base = wanted.replace(/[^A-Za-z0-9_]/g, '_');
    return /^[A-Za-z_]/.test(base) ? base : `_${base}`;
  }

  take(wanted: string, what: string): string {
    const base = this.sanitise(wanted);
    let name = base;
    for (let k = 2; this.used.has(name); k++) name = `${base}_${k}`;
    if (name !== wanted) this.warnings.push(`${what} is the component ${name}`);
    this.used.add(name);
    return name;
  }
}

function geometryOf(link: UrdfLink, warnings: string[], meshFile: UrdfOptions['meshFile']): Geometry | undefined {
  const [visual, ...more] = link.visuals;
  if (!visual) return undefined;
  if (more.length) warnings.push(`link ${link.name}: ${link.visuals.length} <visual> elements, only the first is drawn`);
  const color = visual.color ?? DEFAULT_COLOR;
  const offset = [...visual.origin.xyz] as Vec3;
  const R = rpyMatrix(visual.origin.rpy);
  const rotated = visual.origin.rpy.some((a) => a !== 0) ? { orientation: rpyQuaternion(visual.origin.rpy) } : {};
  const s = visual.shape;
  switch (s.type) {
    case 'sphere':
      return { shape: { type: 'sphere', radius: s.radius }, color, offset };
    case 'cylinder':
      return { shape: { type: 'cylinder', radius: s.radius, length: s.length }, color, offset, axis: apply(R, [0, 0, 1]) };
    case 'box': {
      // a box rotated by right angles is an axis-aligned box of permuted size (exact, and what tools compare); others carry their rotation
      const quarterTurns = R.every((row) => row.every((v) => v === 0 || Math.abs(v) === 1));
      if (!quarterTurns) return { shape: { type: 'box', size: s.size }, color, offset, ...rotated };
      const size = R.map((row) => Math.abs(row[0]) * s.size[0] + Math.abs(row[1]) * s.size[1] + Math.abs(row[2]) * s.size[2]) as Vec3;
      return { shape: { type: 'box', size }, color, offset };
    }
    case 'mesh': {
      const found = meshFile?.(s.filename);
      const file = typeof found === 'string' ? found : undefined;
      const why = typeof found === 'object' ? found.why : 'is not found next to the URDF';
      if (!file) warnings.push(`link ${link.name}: mesh "${s.filename}" ${why}, drawn as a placeholder sphere`);
      const shape = { type: 'mesh' as const, filename: s.filename, ...(file && { file }), ...(s.scale && { scale: s.scale }), radius: PLACEHOLDER_RADIUS };
      return { shape, color, offset, ...rotated };
    }
  }
}

/** the frame a joint's origin leads to from the parent frame */
function place(m: Mechanism, from: Frame, origin: UrdfPose, name: string): Frame {
  const rotation = rpyAxisAngle(origin.rpy);
  if (rotation) {
    const c = m.rotation(name, { ...rotation, r: origin.xyz });
    m.connect(from, c.frame_a);
    return c.frame_b;
  }
  if (origin.xyz.some((v) => v !== 0)) {
    const c = m.bar(name, { r: origin.xyz });
    m.connect(from, c.frame_a);
    return c.frame_b;
  }
  return from;
}

/** (checked robot description, options) => mechanism and warnings */
export function urdfMechanism(robot: UrdfRobot, options: UrdfOptions = {}): UrdfModel {
  const warnings: string[] = [];
  const names = new Names(warnings);
  const m = new Mechanism(robot.name || 'robot', { gravity: options.gravity ?? [0, 0, -STANDARD_GRAVITY] });
  const jointNames = new Map(robot.joints.map((j) => [j, names.take(j.name, `joint ${j.name}`)]));
  const links = new Map(robot.links.map((l) => [l.name, l]));
  let collided = false;
  const attach = (link: UrdfLink, frame: Frame) => {
    const geometry = geometryOf(link, warnings, options.meshFile);
    const collision = options.contact ? urdfColliders(link, options.contactMaterial, warnings, options.meshCollider, options.selfContact) : [];
    // a link with collision geometry alone (A1's thigh shoulders) is a massless body, as one with a visual alone
    if (!link.inertial && !geometry && !collision.length) return;
    collided ||= collision.length > 0;
    const inertial = link.inertial ?? { origin: { xyz: [0, 0, 0], rpy: [0, 0, 0] }, mass: 0, inertia: [0, 0, 0, 0, 0, 0] };
    const body = m.body(names.take(link.name, `link ${link.name}`), {
      m: inertial.mass,
      rcm: inertial.origin.xyz,
      I: rotateInertia(rpyMatrix(inertial.origin.rpy), inertial.inertia),
      geometry,
      ...(collision.length && { collision }),
    });
    m.connect(frame, body.frame_a);
  };
  const rootFrame = options.floating ? freeRoot(m, names.take(`${robot.root}_free`, `the free joint of root link ${robot.root}`)) : m.world.frame_b;
  const frames = new Map<string, Frame>([[robot.root, rootFrame]]);
  attach(links.get(robot.root)!, rootFrame);
  for (const j of robot.joints) {
    const name = jointNames.get(j)!;
    warnings.push(...jointWarnings(j));
    const at = place(m, frames.get(j.parent)!, j.origin, names.take(`${name}_origin`, `the origin of joint ${j.name}`));
    let frame = at;
    if (j.type === 'floating') {
      const joint = m.free(name);
      m.connect(at, joint.frame_a);
      frame = joint.frame_b;
    } else if (j.type === 'planar') {
      frame = planar(m, at, j, name, names);
    } else if (j.type !== 'fixed') {
      const limits = j.type === 'continuous' ? undefined : j.limits;
      const options = { axis: j.axis, d: j.damping || undefined, limits, friction: j.friction || undefined };
      const joint = j.type === 'prismatic' ? m.prismatic(name, options) : m.revolute(name, options);
      m.connect(at, joint.frame_a);
      frame = joint.frame_b;
    }
    frames.set(j.child, frame);
    attach(links.get(j.child)!, frame);
  }
  if (options.contact) {
    addUrdfGround(m, options.ground ?? {});
    // said, not silent: --contact on a robot without collision elements (puma560.urdf) changes nothing
    if (!collided) warnings.push('contact: no link has a <collision> box, cylinder, sphere, capsule or readable mesh, so nothing touches the ground');
  }
  return { mechanism: m, warnings };
}

/** the root link's free joint from the world: its frame_b */
function freeRoot(m: Mechanism, name: string): Frame {
  const joint = m.free(name);
  m.connect(m.world.frame_b, joint.frame_a);
  return joint.frame_b;
}

/**
 * A planar joint (motion in the plane normal to its axis): slides along two
 * normals of the axis, <name>_x and <name>_y, then a turn about the axis,
 * <name>_yaw; damping on each
 */
function planar(m: Mechanism, at: Frame, j: UrdfJoint, name: string, names: Names): Frame {
  const n = j.axis.map((v) => v / Math.hypot(...j.axis)) as Vec3;
  const a: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
  const u = a.map((v, i) => v - d * n[i]),
    k = Math.hypot(...u);
  const u1 = u.map((v) => v / k) as Vec3;
  const u2: Vec3 = [n[1] * u1[2] - n[2] * u1[1], n[2] * u1[0] - n[0] * u1[2], n[0] * u1[1] - n[1] * u1[0]];
  const damping = j.damping || undefined;
  let frame = at;
  for (const [suffix, joint] of [
    ['x', (s: string) => m.prismatic(s, { axis: u1, d: damping })],
    ['y', (s: string) => m.prismatic(s, { axis: u2, d: damping })],
    ['yaw', (s: string) => m.revolute(s, { axis: n, d: damping })],
  ] as const) {
    const c = joint(names.take(`${name}_${suffix}`, `the ${suffix} coordinate of planar joint ${j.name}`));
    m.connect(frame, c.frame_a);
    frame = c.frame_b;
  }
  return frame;
}

function jointWarnings(j: UrdfJoint): string[] {
  const w: string[] = [];
  if (j.type === 'continuous' && j.limits) w.push(`joint ${j.name}: a continuous joint has no position limits, <limit lower upper> is not modelled`);
  if (j.mimic) w.push(`joint ${j.name}: <mimic> is not modelled, the joint moves freely`);
  return w;
}
