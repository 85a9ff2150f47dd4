// URDF (the ROS Unified Robot Description Format) read into plain, checked
// data: links with inertial and visual elements, joints with origin, axis and
// damping. Checks what makes a description unusable and names the element at
// fault: missing or undefined parent/child links, unknown joint types,
// negative mass, unphysical inertia, cycles, several roots, zero-length axes,
// numbers that are not decimal or out of range, and XML beyond the reader's
// limits (size, nesting, DOCTYPE entities).
// Joint position limits (<limit lower upper>) and <dynamics damping friction>
// are read; so is <collision> (a box, cylinder, sphere, mesh, or Drake's
// <capsule>), but leniently: a collision element it cannot read is kept as
// its error, raised only when contact is asked for (urdf-collision.ts), so a
// robot whose collision elements were never read before still loads.
// <limit effort velocity>, <transmission> and <gazebo> are not read.
import { ModelError } from '../errors.ts';
import { inertiaProblem } from '../library/multibody/body.ts';
import { type Element, readXml } from './urdf-xml.ts';

export type Vec3 = [number, number, number];

/** a pose: translation xyz, then roll-pitch-yaw rotation R = Rz(yaw) Ry(pitch) Rx(roll) */
export interface UrdfPose {
  xyz: Vec3;
  rpy: Vec3;
}

export type UrdfShape =
  | { type: 'box'; size: Vec3 }
  | { type: 'cylinder'; radius: number; length: number }
  | { type: 'sphere'; radius: number }
  | { type: 'mesh'; filename: string; scale?: Vec3 };

export type UrdfCapsule = { type: 'capsule'; radius: number; length: number };

/** a <collision> element: its pose and shape in the link frame, or the error reading it (raised only with contact) */
export type UrdfCollision = { name?: string; origin: UrdfPose; shape: UrdfShape | UrdfCapsule } | { name?: string; error: ModelError };

export interface UrdfVisual {
  origin: UrdfPose;
  shape: UrdfShape;
  /** CSS colour from <material><color rgba>, own or defined at the robot level */
  color?: string;
}

export interface UrdfInertial {
  /** centre of mass and the axes the inertia is given in, relative to the link frame */
  origin: UrdfPose;
  mass: number;
  /** about the centre of mass, in the inertial frame: [ixx, iyy, izz, ixy, ixz, iyz] */
  inertia: [number, number, number, number, number, number];
}

export interface UrdfLink {
  name: string;
  inertial?: UrdfInertial;
  visuals: UrdfVisual[];
  /** its <collision> elements, in order (parseUrdf always sets it; a robot made by hand may leave it out) */
  collisions?: UrdfCollision[];
}

export const JOINT_TYPES = ['revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar'] as const;
export type UrdfJointType = (typeof JOINT_TYPES)[number];

export interface UrdfJoint {
  name: string;
  type: UrdfJointType;
  parent: string;
  child: string;
  /** the child link frame relative to the parent link frame at q = 0 */
  origin: UrdfPose;
  /** in the child link frame (not normalised) */
  axis: Vec3;
  /** <dynamics damping>: viscous damping, N m s/rad or N s/m */
  damping: number;
  /** <dynamics friction>: Coulomb friction level, N m or N (regularised, limits.ts) */
  friction: number;
  /** <limit lower upper> (rad or m); undefined without a <limit>, or one with neither attribute */
  limits?: [number, number];
  mimic: boolean;
}

/** a URDF file read and checked: its links and joints, before any mechanism is built */
export interface UrdfRobot {
  /** the robot's name */
  name: string;
  /** its links */
  links: UrdfLink[];
  /** in the order of the tree from the root: every joint's parent comes before it */
  joints: UrdfJoint[];
  /** the link no joint moves: the tree's root */
  root: string;
}

/**
 * A URDF number is decimal floating point, as urdfdom reads it
 * (boost::lexical_cast<double>): a sign, digits with an optional point, an
 * optional exponent: -1.5e-3, +2, .5, 3. Not hex, binary or octal (0x10,
 * which JavaScript's Number() would take), digit separators (1_000),
 * Infinity, NaN, or nothing at all (value="", which Number() takes as 0).
 */
export const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The largest magnitude of any number read, in SI units. Real robots stay
 * far below it: lengths ~1e2 m, masses ~1e5 kg, inertias ~1e6 kg m^2,
 * damping ~1e6 N m s/rad, angles a few rad, colours 0..1. The bound is not
 * a plausibility check but keeps what the equations form from these numbers
 * finite: with every input <= 1e9, m r^2 <= 1e27 and a determinant of a 6x6
 * block of such entries <= 1e162, far below the largest double, 1.8e308; so
 * one bound serves every quantity (1e308 as a mass overflows in the first
 * product and made NaN far from the file).
 */
export const MAX_MAGNITUDE = 1e9;

const NO_POSE: UrdfPose = { xyz: [0, 0, 0], rpy: [0, 0, 0] };

/** where an error is: `<joint name="j2">` etc. */
const tag = (kind: string, name?: string) => (name === undefined ? `<${kind}>` : `<${kind} name="${name}">`);

export class UrdfReader {
  constructor(private readonly source: string) {}

  fail(where: string, what: string, hint: string): never {
    throw new ModelError(`URDF ${this.source}: ${where}: ${what}`, { hint });
  }

  /** child elements of one kind; every element is parsed as an array */
  children(e: Element, kind: string): Element[] {
    const list = (e[kind] ?? []) as unknown[];
    return list.map((c) => (typeof c === 'object' && c !== null ? (c as Element) : {}));
  }

  only(e: Element, kind: string, where: string): Element | undefined {
    const list = this.children(e, kind);
    if (list.length > 1) this.fail(where, `has ${list.length} <${kind}> elements`, `give at most one <${kind}>`);
    return list[0];
  }

  attribute(e: Element, name: string): string | undefined {
    const v = e[`@_${name}`];
    return v === undefined ? undefined : String(v);
  }

  /** count decimal numbers of magnitude <= MAX_MAGNITUDE, separated by white space; the fallback when the attribute is absent */
  numbers(e: Element | undefined, name: string, count: number, where: string, fallback?: number[]): number[] {
    const text = e && this.attribute(e, name);
    const example = `${name}="${Array(count).fill('0').join(' ')}"`;
    if (text === undefined) {
      if (fallback) return fallback;
      this.fail(where, `attribute ${name} is missing`, `give ${example}`);
    }
    const words = text.trim().split(/\s+/);
    if (words.length !== count || !words.every((w) => DECIMAL.test(w))) {
      this.fail(where, `${name}="${shorten(text)}" is not ${count === 1 ? 'a decimal number' : `${count} decimal numbers`}`, `e.g. ${example}`);
    }
    const v = words.map(Number);
    if (!v.every((x) => Math.abs(x) <= MAX_MAGNITUDE)) {
      this.fail(
        where,
        `${name}="${shorten(text)}" is out of range: Kron reads magnitudes up to ${MAX_MAGNITUDE.toExponential().replace('+', '')}`,
        'URDF quantities are in SI units (m, kg, kg m^2, rad): check the units',
      );
    }
    return v;
  }

  pose(e: Element | undefined, where: string): UrdfPose {
    if (!e) return NO_POSE;
    const w = `${where} <origin>`;
    return { xyz: this.numbers(e, 'xyz', 3, w, [0, 0, 0]) as Vec3, rpy: this.numbers(e, 'rpy', 3, w, [0, 0, 0]) as Vec3 };
  }
}

/** an attribute value as quoted in a message: one line, at most 40 characters */
const shorten = (text: string) => {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 40 ? `${line.slice(0, 40)}...` : line;
};

/** a colour's red, green, blue in 0..1 as CSS #rrggbb (alpha dropped) */
export const rgbaToCss = (rgba: number[]) =>
  '#' +
  rgba
    .slice(0, 3)
    .map((c) =>
      Math.round(Math.min(1, Math.max(0, c)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');

/** (URDF text, file name for messages) => checked robot description */
export function parseUrdf(text: string, source = 'robot.urdf'): UrdfRobot {
  const r = new UrdfReader(source);
  const doc = readXml(text, source);
  const robots = r.children(doc, 'robot');
  if (robots.length !== 1)
    r.fail(
      '<robot>',
      robots.length ? 'there is more than one <robot> element' : 'there is no <robot> element',
      'a URDF file holds one <robot name="..."> element',
    );
  const robot = robots[0];
  const materials = new Map<string, string>();
  for (const m of r.children(robot, 'material')) {
    const name = r.attribute(m, 'name');
    const color = r.only(m, 'color', tag('material', name));
    if (name && color) materials.set(name, rgbaToCss(r.numbers(color, 'rgba', 4, `${tag('material', name)} <color>`)));
  }
  const links = r.children(robot, 'link').map((e) => readLink(r, e, materials));
  const joints = r.children(robot, 'joint').map((e) => readJoint(r, e));
  unique(
    r,
    'link',
    links.map((l) => l.name),
  );
  unique(
    r,
    'joint',
    joints.map((j) => j.name),
  );
  const { root, ordered } = tree(r, links, joints);
  return { name: r.attribute(robot, 'name') ?? 'robot', links, joints: ordered, root };
}

function named(r: UrdfReader, e: Element, kind: string): string {
  const name = r.attribute(e, 'name');
  if (!name) r.fail(tag(kind), 'has no name attribute', `every <${kind}> needs a unique name`);
  return name;
}

function unique(r: UrdfReader, kind: string, names: string[]): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) r.fail(tag(kind, n), `two <${kind}> elements are named "${n}"`, `${kind} names must be unique`);
    seen.add(n);
  }
}

const INERTIA_ATTRIBUTES = ['ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz'];
const INERTIA_EXAMPLE = '<inertia ixx="..." iyy="..." izz="..." ixy="0" ixz="0" iyz="0"/>';

function readLink(r: UrdfReader, e: Element, materials: Map<string, string>): UrdfLink {
  const name = named(r, e, 'link');
  const where = tag('link', name);
  const inertialElement = r.only(e, 'inertial', where);
  let inertial: UrdfInertial | undefined;
  if (inertialElement) {
    const w = `${where} <inertial>`;
    // as urdfdom: <mass value> and <inertia> with all six attributes are required
    const massElement = r.only(inertialElement, 'mass', w);
    if (!massElement) r.fail(w, 'has no <mass>', 'give <mass value="..."/> in kg');
    const mass = r.numbers(massElement, 'value', 1, `${w} <mass>`)[0];
    const ie = r.only(inertialElement, 'inertia', w);
    if (!ie) r.fail(w, 'has no <inertia>', `give ${INERTIA_EXAMPLE} in kg m^2`);
    const missing = INERTIA_ATTRIBUTES.filter((k) => r.attribute(ie, k) === undefined);
    if (missing.length)
      r.fail(
        `${w} <inertia>`,
        `attribute${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`,
        `URDF gives all six: ${INERTIA_EXAMPLE}`,
      );
    const get = (k: string) => r.numbers(ie, k, 1, `${w} <inertia>`)[0];
    const inertia: UrdfInertial['inertia'] = [get('ixx'), get('iyy'), get('izz'), get('ixy'), get('ixz'), get('iyz')];
    const problem = inertiaProblem(mass, inertia);
    if (problem) r.fail(w, problem.what, problem.hint);
    inertial = { origin: r.pose(r.only(inertialElement, 'origin', w), w), mass, inertia };
  }
  const visuals = r.children(e, 'visual').map((v, i) => readVisual(r, v, `${where} <visual> ${i + 1}`, materials));
  const collisions = r.children(e, 'collision').map((c, i) => readCollision(r, c, `${where} <collision> ${i + 1}`));
  return { name, inertial, visuals, collisions };
}

function readCollision(r: UrdfReader, e: Element, where: string): UrdfCollision {
  const name = r.attribute(e, 'name');
  try {
    const g = r.only(e, 'geometry', where);
    const c = g && r.children(g, 'capsule')[0];
    const shape = c ? readCapsule(r, c, `${where} <geometry> <capsule>`) : readShape(r, e, where, ['capsule']);
    return { ...(name && { name }), origin: r.pose(r.only(e, 'origin', where), where), shape };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return { ...(name && { name }), error };
  }
}

/** Drake's and PyBullet's <capsule radius length>: length between the caps' centres, axis z (Kron's capsule) */
function readCapsule(r: UrdfReader, c: Element, where: string): UrdfCapsule {
  const [radius, length] = ['radius', 'length'].map((k) => r.numbers(c, k, 1, where)[0]);
  if (!(radius > 0 && length >= 0)) r.fail(where, `radius ${radius} must be > 0 and length ${length} >= 0`, 'give them in m');
  return { type: 'capsule', radius, length };
}

function readVisual(r: UrdfReader, e: Element, where: string, materials: Map<string, string>): UrdfVisual {
  const shape = readShape(r, e, where);
  const material = r.only(e, 'material', where);
  let color: string | undefined;
  if (material) {
    const c = r.only(material, 'color', `${where} <material>`);
    color = c ? rgbaToCss(r.numbers(c, 'rgba', 4, `${where} <material> <color>`)) : materials.get(r.attribute(material, 'name') ?? '');
  }
  return { origin: r.pose(r.only(e, 'origin', where), where), shape, color };
}

/** the shape of a <visual> or <collision>'s <geometry> (`more`: further shapes its caller reads, named in the hint) */
function readShape(r: UrdfReader, e: Element, where: string, more: string[] = []): UrdfShape {
  const names = [...['box', 'cylinder', 'sphere'], ...more].map((k) => `<${k}>`).join(', ') + ' or <mesh>';
  const g = r.only(e, 'geometry', where);
  if (!g) r.fail(where, 'has no <geometry>', `give <geometry> with a ${names}`);
  const w = `${where} <geometry>`;
  const [kind] = ['box', 'cylinder', 'sphere', 'mesh'].filter((k) => r.children(g, k).length);
  const s = kind ? r.children(g, kind)[0] : undefined;
  const positive = (v: number[], k: string) => {
    if (!v.every((x) => x > 0)) r.fail(`${w} <${kind}>`, `${k} must be > 0, got ${v.join(' ')}`, 'give the size in m');
    return v;
  };
  let shape: UrdfShape;
  if (kind === 'box') shape = { type: 'box', size: positive(r.numbers(s, 'size', 3, `${w} <box>`), 'size') as Vec3 };
  else if (kind === 'cylinder') {
    const [radius] = positive(r.numbers(s, 'radius', 1, `${w} <cylinder>`), 'radius');
    const [length] = positive(r.numbers(s, 'length', 1, `${w} <cylinder>`), 'length');
    shape = { type: 'cylinder', radius, length };
  } else if (kind === 'sphere') shape = { type: 'sphere', radius: positive(r.numbers(s, 'radius', 1, `${w} <sphere>`), 'radius')[0] };
  else if (kind === 'mesh') {
    const scale = r.attribute(s!, 'scale') === undefined ? undefined : (positive(r.numbers(s, 'scale', 3, `${w} <mesh>`), 'scale') as Vec3);
    shape = { type: 'mesh', filename: r.attribute(s!, 'filename') ?? '', ...(scale && { scale }) };
  } else r.fail(w, `has no ${names}`, 'give one of them');
  return shape;
}

function readJoint(r: UrdfReader, e: Element): UrdfJoint {
  const name = named(r, e, 'joint');
  const where = tag('joint', name);
  const type = r.attribute(e, 'type');
  if (!JOINT_TYPES.includes(type as UrdfJointType)) {
    r.fail(where, type === undefined ? 'has no type' : `unknown joint type "${type}"`, `supported types: ${JOINT_TYPES.join(', ')}`);
  }
  const link = (kind: 'parent' | 'child') => {
    const l = r.only(e, kind, where);
    const name = l && r.attribute(l, 'link');
    if (!name) r.fail(where, `has no <${kind} link="...">`, `name the ${kind} link of the joint: <${kind} link="..."/>`);
    return name;
  };
  const axis = r.numbers(r.only(e, 'axis', where), 'xyz', 3, `${where} <axis>`, [1, 0, 0]) as Vec3;
  if (type !== 'fixed' && type !== 'floating' && !(Math.hypot(...axis) > 1e-12))
    r.fail(`${where} <axis>`, `axis xyz="${axis.join(' ')}" has zero length`, 'give a non-zero direction in the child link frame, e.g. xyz="0 0 1"');
  const dynamics = r.only(e, 'dynamics', where);
  const [damping, friction] = ['damping', 'friction'].map((k) => r.numbers(dynamics, k, 1, `${where} <dynamics>`, [0])[0]);
  if (damping < 0) r.fail(`${where} <dynamics>`, `damping ${damping} is negative`, 'give a damping >= 0');
  if (friction < 0) r.fail(`${where} <dynamics>`, `friction ${friction} is negative`, 'give a friction >= 0 (N m, or N for a prismatic joint)');
  return {
    name,
    type: type as UrdfJointType,
    parent: link('parent'),
    child: link('child'),
    origin: r.pose(r.only(e, 'origin', where), where),
    axis,
    damping,
    friction,
    limits: readLimits(r, r.only(e, 'limit', where), where),
    mimic: r.children(e, 'mimic').length > 0,
  };
}

/** <limit lower upper>: a missing one of the two is 0 (the URDF specification's default); neither: no position limits */
function readLimits(r: UrdfReader, e: Element | undefined, where: string): [number, number] | undefined {
  if (!e || (r.attribute(e, 'lower') === undefined && r.attribute(e, 'upper') === undefined)) return undefined;
  const [lower, upper] = ['lower', 'upper'].map((k) => r.numbers(e, k, 1, `${where} <limit>`, [0])[0]);
  if (lower > upper) r.fail(`${where} <limit>`, `lower="${lower}" is above upper="${upper}"`, 'give lower <= upper (rad, or m for a prismatic joint)');
  return [lower, upper];
}

/** the root link and the joints ordered from it; a tree, or an error naming what is wrong */
function tree(r: UrdfReader, links: UrdfLink[], joints: UrdfJoint[]): { root: string; ordered: UrdfJoint[] } {
  const names = new Set(links.map((l) => l.name));
  const parentJoint = new Map<string, UrdfJoint>();
  for (const j of joints) {
    for (const kind of ['parent', 'child'] as const) {
      if (!names.has(j[kind])) r.fail(tag('joint', j.name), `${kind} link "${j[kind]}" is not defined`, `add <link name="${j[kind]}"> or correct the name`);
    }
    if (j.parent === j.child) r.fail(tag('joint', j.name), `link "${j.child}" is its own parent`, 'a joint connects two different links');
    const other = parentJoint.get(j.child);
    if (other) {
      r.fail(
        tag('link', j.child),
        `is the child of two joints, "${other.name}" and "${j.name}", which closes a kinematic loop`,
        'URDF describes trees: every link but the root is the child of exactly one joint',
      );
    }
    parentJoint.set(j.child, j);
  }
  if (links.length === 0) r.fail('<robot>', 'has no links', 'describe at least one <link>');
  const roots = links.filter((l) => !parentJoint.has(l.name)).map((l) => l.name);
  if (roots.length === 0) {
    r.fail(
      '<robot>',
      `the joints form a cycle: ${cycleFrom(links[0].name, parentJoint).join(' -> ')}`,
      'URDF describes trees: one root link that is the child of no joint',
    );
  }
  if (roots.length > 1) {
    r.fail(
      '<robot>',
      `there are ${roots.length} root links (links that are the child of no joint): ${roots.map((n) => `"${n}"`).join(', ')}`,
      'connect every link but one to a parent with a <joint>',
    );
  }
  // depth first from the root, children in file order; a loop, not recursion, so that a chain of any length is read
  const children = new Map<string, UrdfJoint[]>(links.map((l) => [l.name, []]));
  for (const j of joints) children.get(j.parent)!.push(j);
  const ordered: UrdfJoint[] = [];
  const stack: UrdfJoint[] = [];
  const pushChildren = (link: string) => {
    const kids = children.get(link)!;
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  };
  pushChildren(roots[0]);
  for (let j = stack.pop(); j; j = stack.pop()) (ordered.push(j), pushChildren(j.child));
  if (ordered.length < joints.length) {
    const reached = new Set(ordered);
    const stray = joints.find((j) => !reached.has(j))!;
    r.fail(
      '<robot>',
      `the joints form a cycle: ${cycleFrom(stray.child, parentJoint).join(' -> ')}`,
      'URDF describes trees: every link must be reachable from the root link',
    );
  }
  return { root: roots[0], ordered };
}

/** link names around the cycle reached by following parents from a link */
function cycleFrom(start: string, parentJoint: Map<string, UrdfJoint>): string[] {
  const path: string[] = [];
  let link: string | undefined = start;
  while (link !== undefined && !path.includes(link)) (path.push(link), (link = parentJoint.get(link)?.parent));
  const loop = path.slice(path.indexOf(link!));
  return [...loop.reverse(), loop[0]];
}
