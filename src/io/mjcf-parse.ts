// MJCF (MuJoCo's XML model format) read into plain, checked data: a tree of
// bodies placed in their parents' frames, each with its joints in file order,
// its mass properties (an <inertial>, or computed from its geoms as MuJoCo's
// compiler does: mjcf-inertia.ts) and its geoms; gravity; and warnings for
// what affects the dynamics but is not read. Defaults are resolved: an
// element takes the attributes of its class (its `class`, else the nearest
// enclosing body's `childclass`, else "main"), a nested <default> inheriting
// its parent's. <include file> is expanded (mjcf-xml.ts). Angles follow
// <compiler angle> (degrees unless it says radian), as MuJoCo does; joint
// values (ref, springref, range) are kept in qpos units (rad, m).
// Elements that do not affect the dynamics (lights, cameras, sites, sensors,
// textures, materials, visual, statistic) are read and ignored; <contact>
// and the filterparent flag by mjcf-contact.ts. Fixed tendons, actuators and keyframes are read by their own files
// (mjcf-tendons.ts, mjcf-actuators.ts, mjcf-keyframe.ts).
import { inertiaProblem, principalMoments } from '../library/multibody/body.ts';
import { IDENTITY, type Quat, axisAngle, euler, unit, xyAxes, zAxis } from './mjcf-frame.ts';
import { type MassProperties, combine, geomInertia } from './mjcf-inertia.ts';
import { type XmlNode, fail, readMjcfXml, where } from './mjcf-xml.ts';
import { readEqualities } from './mjcf-equality.ts';
import { DECIMAL, MAX_MAGNITUDE, type Vec3 } from './urdf-parse.ts';

import { type MjcfActuator, limitedRange, readActuators } from './mjcf-actuators.ts';
import { type MjcfTendon, readTendons } from './mjcf-tendons.ts';
import { type MjcfKey, readKeyframes } from './mjcf-keyframe.ts';
import { MeshMasses, type MjcfMesh, meshName, readMesh } from './mjcf-mesh.ts';
import { readContact } from './mjcf-contact.ts';

export type { MassProperties } from './mjcf-inertia.ts';
export type { MjcfActuator } from './mjcf-actuators.ts';
export type { MjcfTendon } from './mjcf-tendons.ts';
export type { MjcfKey } from './mjcf-keyframe.ts';
export type { Quat } from './mjcf-frame.ts';
export type { MjcfEquality } from './mjcf-equality.ts';
export type { MjcfMesh } from './mjcf-mesh.ts';

export type { MjcfBody, MjcfGeom, MjcfGeomType, MjcfJoint, MjcfJointType, MjcfParseOptions, MjcfRobot } from './mjcf-types.ts';
import type { MjcfBody, MjcfGeom, MjcfGeomType, MjcfJoint, MjcfJointType, MjcfParseOptions, MjcfRobot } from './mjcf-types.ts';

interface Compiler {
  degree: boolean;
  eulerseq: string;
  autolimits: boolean;
  inertiafromgeom: 'auto' | 'true' | 'false';
  /** geoms of groups outside [lo, hi] are not counted in inertia from geoms */
  groups: [number, number];
  /** the folder of mesh files (meshdir, else assetdir), relative to the main file's; '' when none */
  meshdir: string;
}

/** the attributes of a class, by element kind (joint, geom, ...) */
type ClassDefaults = Map<string, Record<string, string>>;

/** elements below <mujoco> that do not affect the dynamics, or are read elsewhere */
const IGNORED_TOP = new Set(['visual', 'statistic', 'asset', 'sensor', 'custom', 'extension', 'size']);
/** elements in a body that do not affect the dynamics */
const IGNORED_IN_BODY = new Set(['site', 'camera', 'light', 'plugin']);
/** elements that place bodies or add them in ways not read */
const UNSUPPORTED_IN_BODY = new Set(['frame', 'replicate', 'attach', 'composite', 'flexcomp']);

/** "3 tendons (a, b, c) are" / "1 tendon (a) is": at most 8 names shown */
export function listed(names: readonly string[], noun: string): string {
  const shown = names.length > 8 ? [...names.slice(0, 8), `... ${names.length - 8} more`] : names;
  return `${names.length} ${noun}${names.length === 1 ? '' : 's'} (${shown.join(', ')}) ${names.length === 1 ? 'is' : 'are'}`;
}

export class Reader {
  readonly warnings: string[] = [];
  compiler: Compiler = { degree: true, eulerseq: 'xyz', autolimits: true, inertiafromgeom: 'auto', groups: [0, 5], meshdir: '' };
  readonly classes = new Map<string, ClassDefaults>([['main', new Map()]]);
  /** rgba of each <material> that gives one */
  readonly materials = new Map<string, number[]>();
  private bodyCount = 0;
  /** the mass of mesh geoms, once the assets are read */
  meshMasses = new MeshMasses({}, undefined, this.warnings);

  /** the element's attributes over its class's */
  attrs(e: XmlNode, childclass: string): Record<string, string> {
    const cls = e.attrs.class ?? childclass;
    const defaults = this.classes.get(cls);
    if (!defaults) {
      fail(e, `class "${cls}" is not defined`, `define it with <default class="${cls}"> or use one of: ${[...this.classes.keys()].join(', ')}`);
    }
    return { ...(defaults.get(e.tag) ?? {}), ...e.attrs };
  }

  /** `count` decimal numbers (at least `min` of them when fewer may be given, the rest from the fallback) */
  numbers(e: XmlNode, a: Record<string, string>, name: string, count: number, fallback?: readonly number[], min = count): number[] {
    const text = a[name];
    if (text === undefined) {
      if (fallback) return [...fallback];
      fail(e, `attribute ${name} is missing`, `give ${name}="${Array(count).fill('0').join(' ')}"`);
    }
    const words = text.trim().split(/\s+/).filter(Boolean);
    if (words.length < min || words.length > count || !words.every((w) => DECIMAL.test(w))) {
      fail(
        e,
        `${name}="${text.trim().slice(0, 40)}" is not ${min === count ? count : `${min} to ${count}`} decimal number${count > 1 ? 's' : ''}`,
        `e.g. ${name}="${Array(count).fill('0').join(' ')}"`,
      );
    }
    const v = words.map(Number);
    if (!v.every((x) => Math.abs(x) <= MAX_MAGNITUDE))
      fail(e, `${name}="${text.trim().slice(0, 40)}" is out of range: Kron reads magnitudes up to 1e9`, 'MJCF quantities are in SI units: check the units');
    return fallback ? [...v, ...fallback.slice(v.length)] : v;
  }

  number(e: XmlNode, a: Record<string, string>, name: string, fallback: number): number {
    return this.numbers(e, a, name, 1, [fallback])[0];
  }

  angle(x: number): number {
    return this.compiler.degree ? (x * Math.PI) / 180 : x;
  }

  /** the orientation an element gives with one of quat, axisangle, euler, xyaxes, zaxis */
  orientation(e: XmlNode, a: Record<string, string>, fallback: Quat = IDENTITY): Quat {
    const given = ['quat', 'axisangle', 'euler', 'xyaxes', 'zaxis'].filter((k) => a[k] !== undefined);
    if (given.length > 1) fail(e, `gives both ${given[0]} and ${given[1]}`, 'give one orientation: quat, axisangle, euler, xyaxes or zaxis');
    const too = (what: string): never => fail(e, what, 'give a non-zero direction');
    switch (given[0]) {
      case 'quat':
        return (unit(this.numbers(e, a, 'quat', 4)) as Quat | undefined) ?? too('quat has zero length');
      case 'axisangle': {
        const [x, y, z, angle] = this.numbers(e, a, 'axisangle', 4);
        return axisAngle(unit([x, y, z]) ?? too('the axis of axisangle has zero length'), this.angle(angle));
      }
      case 'euler': {
        const q = euler(
          this.numbers(e, a, 'euler', 3).map((x) => this.angle(x)),
          this.compiler.eulerseq,
        );
        return q ?? fail(e, `eulerseq "${this.compiler.eulerseq}" is not three of x, y, z, X, Y, Z`, 'e.g. <compiler eulerseq="xyz"/>');
      }
      case 'xyaxes': {
        const q = xyAxes(this.numbers(e, a, 'xyaxes', 6));
        return typeof q === 'string' ? too(`xyaxes: ${q}`) : q;
      }
      case 'zaxis':
        return zAxis(unit(this.numbers(e, a, 'zaxis', 3)) ?? too('zaxis has zero length'));
      default:
        return fallback;
    }
  }

  nextBodyId(): number {
    return ++this.bodyCount;
  }
}

/** (MJCF text, file name for messages, include reader) => checked robot description */
export function parseMjcf(text: string, source = 'robot.xml', options: MjcfParseOptions = {}): MjcfRobot {
  const root = readMjcfXml(text, source, options.readFile);
  const r = new Reader();
  let gravity: Vec3 = [0, 0, -9.81];
  const worldbodies: XmlNode[] = [];
  const equalities: XmlNode[] = [];
  const tendons: MjcfTendon[] = [],
    actuators: MjcfActuator[] = [],
    keyframes: MjcfKey[] = [];
  // compiler and defaults first: they apply to the whole file wherever they are written
  for (const c of root.children) if (c.tag === 'compiler') r.compiler = readCompiler(r, c);
  for (const c of root.children) if (c.tag === 'default') readDefaults(r, c, undefined);
  // material colours and mesh files, for the geoms that name them (the viewer's colours and shapes)
  const meshes: Record<string, MjcfMesh> = {};
  for (const c of root.children.filter((x) => x.tag === 'asset').flatMap((x) => x.children)) {
    const named = c.attrs.name ?? (c.attrs.file === undefined ? undefined : meshName(c.attrs.file));
    if (c.tag === 'mesh' && named !== undefined) meshes[named] = readMesh(r, c);
    if (c.tag !== 'material' || c.attrs.name === undefined) continue;
    const a = r.attrs(c, 'main');
    if (a.rgba !== undefined) r.materials.set(c.attrs.name, r.numbers(c, a, 'rgba', 4));
  }
  r.meshMasses = new MeshMasses(meshes, options.readFile, r.warnings);
  for (const c of root.children) {
    if (c.tag === 'option') gravity = readOption(r, c);
    else if (c.tag === 'worldbody') worldbodies.push(c);
    else if (c.tag === 'equality') equalities.push(c);
    else if (c.tag === 'tendon') tendons.push(...readTendons(r, c));
    else if (c.tag === 'actuator') actuators.push(...readActuators(r, c));
    else if (c.tag === 'keyframe') keyframes.push(...readKeyframes(r, c));
    else if (c.tag === 'contact')
      continue; // readContact, below
    else if (c.tag !== 'compiler' && c.tag !== 'default' && !IGNORED_TOP.has(c.tag)) {
      r.warnings.push(`${where(c)}: not read`);
    }
  }
  const bodies: MjcfBody[] = [];
  const worldGeoms: MjcfGeom[] = [];
  for (const w of worldbodies) {
    for (const c of w.children) {
      if (c.tag === 'body') bodies.push(readBody(r, c, 'main', true));
      else if (c.tag === 'geom') worldGeoms.push(readGeom(r, c, 'main'));
      else bodyChild(r, c);
    }
  }
  const equality = readEqualities(r, equalities, namesIn(bodies));
  const contact = readContact(r, root);
  return {
    name: root.attrs.model ?? 'robot',
    gravity,
    bodies,
    worldGeoms,
    contact,
    equalities: equality,
    tendons,
    actuators,
    keyframes,
    warnings: r.warnings,
    meshes,
  };
}

/** the names of the bodies and joints, for the equalities that refer to them */
function namesIn(bodies: readonly MjcfBody[]): { bodies: Set<string>; joints: Set<string> } {
  const names = { bodies: new Set<string>(), joints: new Set<string>() };
  const stack = [...bodies];
  for (let b = stack.pop(); b; b = stack.pop()) {
    if (b.name !== undefined) names.bodies.add(b.name);
    for (const j of b.joints) if (j.name !== undefined) names.joints.add(j.name);
    stack.push(...b.children);
  }
  return names;
}

function readCompiler(r: Reader, c: XmlNode): Compiler {
  const a = c.attrs;
  const choice = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const v = a[name];
    if (v === undefined) return fallback;
    if (!allowed.includes(v as T)) fail(c, `${name}="${v}" is not one of ${allowed.join(', ')}`, `give ${name}="${allowed[0]}"`);
    return v as T;
  };
  if (a.coordinate === 'global') fail(c, 'coordinate="global" is not supported (MuJoCo 3 removed it)', 'write the bodies in local coordinates');
  for (const k of ['boundmass', 'boundinertia', 'settotalmass', 'balanceinertia']) if (a[k] !== undefined) r.warnings.push(`${where(c)}: ${k} is not applied`);
  const groups = r.numbers(c, a, 'inertiagrouprange', 2, [0, 5]);
  return {
    degree: choice('angle', ['degree', 'radian'], 'degree') === 'degree',
    eulerseq: a.eulerseq ?? 'xyz',
    autolimits: choice('autolimits', ['true', 'false'], 'true') === 'true',
    inertiafromgeom: choice('inertiafromgeom', ['auto', 'true', 'false'], 'auto'),
    groups: [groups[0], groups[1]],
    meshdir: a.meshdir ?? a.assetdir ?? '',
  };
}

/** a <default> and its nested ones: each class starts from its parent's attributes */
function readDefaults(r: Reader, d: XmlNode, parent: ClassDefaults | undefined): void {
  const name = parent ? d.attrs.class : (d.attrs.class ?? 'main');
  if (name === undefined) fail(d, 'a nested <default> has no class attribute', 'give <default class="name">');
  if (parent && r.classes.has(name)) fail(d, `class "${name}" is defined twice`, 'class names must be unique');
  const own: ClassDefaults = new Map([...(parent ?? new Map<string, Record<string, string>>())].map(([k, v]) => [k, { ...v }]));
  if (!parent) for (const [k, v] of r.classes.get('main') ?? []) own.set(k, { ...v });
  for (const c of d.children) {
    if (c.tag === 'default') continue;
    own.set(c.tag, { ...(own.get(c.tag) ?? {}), ...c.attrs });
  }
  r.classes.set(name, own);
  for (const c of d.children) if (c.tag === 'default') readDefaults(r, c, own);
}

function readOption(r: Reader, o: XmlNode): Vec3 {
  let g = r.numbers(o, o.attrs, 'gravity', 3, [0, 0, -9.81]) as Vec3;
  for (const k of ['density', 'viscosity']) if (r.number(o, o.attrs, k, 0) !== 0) r.warnings.push(`${where(o)}: ${k} (fluid forces) is not modelled`);
  for (const f of o.children) {
    if (f.tag !== 'flag') continue;
    if (f.attrs.gravity === 'disable') g = [0, 0, 0];
  }
  return g;
}

/** what a body (or the world body) holds besides bodies, joints, geoms and inertials */
function bodyChild(r: Reader, c: XmlNode): void {
  if (IGNORED_IN_BODY.has(c.tag)) return;
  if (UNSUPPORTED_IN_BODY.has(c.tag))
    fail(c, `<${c.tag}> is not supported`, `write the bodies it ${c.tag === 'frame' ? 'places' : 'makes'} out as <body> elements`);
  r.warnings.push(`${where(c)}: not read`);
}

function readBody(r: Reader, e: XmlNode, childclass: string, top: boolean): MjcfBody {
  const a = e.attrs;
  const cls = a.childclass ?? childclass;
  if (a.childclass !== undefined && !r.classes.has(a.childclass))
    fail(e, `childclass "${a.childclass}" is not defined`, `define it with <default class="${a.childclass}">`);
  if (a.mocap === 'true') fail(e, 'mocap bodies are not supported', 'a mocap body is moved by the program, not by the dynamics');
  if (a.gravcomp !== undefined && Number(a.gravcomp) !== 0) r.warnings.push(`${where(e)}: gravcomp is not modelled`);
  const body: MjcfBody = {
    ...(a.name !== undefined && { name: a.name }),
    id: r.nextBodyId(),
    pos: r.numbers(e, a, 'pos', 3, [0, 0, 0]) as Vec3,
    quat: r.orientation(e, a),
    joints: [],
    geoms: [],
    children: [],
    at: where(e),
  };
  let inertialNode: XmlNode | undefined;
  for (const c of e.children) {
    if (c.tag === 'body') body.children.push(readBody(r, c, cls, false));
    else if (c.tag === 'joint' || c.tag === 'freejoint') body.joints.push(readJoint(r, c, cls));
    else if (c.tag === 'geom') body.geoms.push(readGeom(r, c, cls));
    else if (c.tag === 'inertial') {
      if (inertialNode) fail(c, 'is the second <inertial> of the body', 'give at most one <inertial>');
      inertialNode = c;
    } else bodyChild(r, c);
  }
  const free = body.joints.findIndex((j) => j.type === 'free');
  if (free >= 0 && (!top || body.joints.length > 1)) {
    fail(
      e,
      top ? 'has a free joint and other joints' : 'has a free joint but is not a body of the world',
      'a free joint moves a body of <worldbody> on its own',
    );
  }
  const fromGeoms = r.compiler.inertiafromgeom === 'true' || (r.compiler.inertiafromgeom === 'auto' && !inertialNode);
  body.inertial = fromGeoms ? geomInertia(r, e, body.geoms, groupsOf(r, e, cls)) : inertialNode && readInertial(r, inertialNode);
  return body;
}

/** the groups of the body's geoms, by geom, for inertiagrouprange */
function groupsOf(r: Reader, e: XmlNode, cls: string): number[] {
  return e.children.filter((c) => c.tag === 'geom').map((c) => r.number(c, r.attrs(c, cls), 'group', 0));
}

function readInertial(r: Reader, e: XmlNode): MassProperties | undefined {
  const a = e.attrs;
  const mass = r.number(e, a, 'mass', NaN);
  if (Number.isNaN(mass)) fail(e, 'has no mass', 'give <inertial mass="..." pos="..." diaginertia="..."/>');
  if (mass < 0) fail(e, `mass ${mass} is negative`, 'give a mass in kg, 0 or more');
  const com = r.numbers(e, a, 'pos', 3) as Vec3;
  let inertia: MassProperties['inertia'];
  if (a.fullinertia !== undefined) {
    const [xx, yy, zz, xy, xz, yz] = r.numbers(e, a, 'fullinertia', 6);
    inertia = [xx, yy, zz, xy, xz, yz];
    const [least] = principalMoments(inertia);
    if (!(least > 1e-14))
      fail(
        e,
        `fullinertia="${a.fullinertia}" is not positive definite: its least principal moment is ${Number(least.toPrecision(6))}`,
        'give the inertia about the centre of mass in kg m^2, positive definite (as MuJoCo requires)',
      );
  } else {
    const d = r.numbers(e, a, 'diaginertia', 3);
    const q = r.orientation(e, a);
    inertia = combine([{ mass: 0, pos: [0, 0, 0], quat: q, moments: d as Vec3 }]).inertia;
  }
  const problem = inertiaProblem(mass, inertia);
  if (problem) fail(e, problem.what, problem.hint);
  return mass > 0 || inertia.some((x) => x !== 0) ? { mass, com, inertia } : undefined;
}

const SOLIDS: readonly string[] = ['sphere', 'capsule', 'cylinder', 'ellipsoid', 'box'];
const GEOM_TYPES: readonly string[] = [...SOLIDS, 'plane', 'mesh', 'hfield', 'sdf'];

function readGeom(r: Reader, e: XmlNode, cls: string): MjcfGeom {
  const a = r.attrs(e, cls);
  const type = (a.type ?? 'sphere') as MjcfGeomType;
  if (!GEOM_TYPES.includes(type)) fail(e, `unknown geom type "${type}"`, `MJCF geom types: ${GEOM_TYPES.join(', ')}`);
  const size = r.numbers(e, a, 'size', 3, [0, 0, 0], 1);
  let pos = r.numbers(e, a, 'pos', 3, [0, 0, 0]) as Vec3;
  let quat = r.orientation(e, a);
  if (a.fromto !== undefined && ['capsule', 'cylinder', 'box', 'ellipsoid'].includes(type)) {
    // the segment's midpoint, z along it, half its length as the size along z
    const f = r.numbers(e, a, 'fromto', 6);
    const d = [f[3] - f[0], f[4] - f[1], f[5] - f[2]];
    const length = Math.hypot(...d);
    if (!(length > 1e-14)) fail(e, `fromto="${a.fromto}" has zero length`, 'give two different points');
    pos = [(f[0] + f[3]) / 2, (f[1] + f[4]) / 2, (f[2] + f[5]) / 2];
    quat = zAxis(d);
    size[type === 'capsule' || type === 'cylinder' ? 1 : 2] = length / 2;
  }
  const massGiven = a.mass === undefined ? undefined : r.number(e, a, 'mass', 0);
  const density = r.number(e, a, 'density', 1000);
  if ((massGiven ?? 0) < 0 || density < 0)
    fail(
      e,
      `${massGiven !== undefined && massGiven < 0 ? `mass ${massGiven}` : `density ${density}`} is negative`,
      'give a mass (kg) or density (kg/m^3) of 0 or more',
    );
  if (SOLIDS.includes(type)) {
    const needed = type === 'sphere' ? 1 : type === 'capsule' || type === 'cylinder' ? 2 : 3;
    if (!size.slice(0, needed).every((s) => s > 0))
      fail(e, `a ${type} needs ${needed} positive size${needed > 1 ? 's' : ''}, got size="${size.slice(0, needed).join(' ')}"`, 'give the half sizes in m');
  }
  // the geom's own colour, else its material's
  const rgba = a.rgba === undefined ? (a.material === undefined ? undefined : r.materials.get(a.material)) : r.numbers(e, a, 'rgba', 4);
  const contype = r.number(e, a, 'contype', 1),
    conaffinity = r.number(e, a, 'conaffinity', 1);
  const collides = contype !== 0 || conaffinity !== 0;
  const friction = r.numbers(e, a, 'friction', 3, [1, 0.005, 0.0001], 1)[0];
  const shell = a.shellinertia ?? 'false';
  if (shell !== 'true' && shell !== 'false') fail(e, `shellinertia="${shell}" is not true or false`, 'give shellinertia="true" for a hollow geom');
  const solref = a.solref === undefined ? undefined : r.numbers(e, a, 'solref', 2);
  const solimp = a.solimp === undefined ? undefined : r.numbers(e, a, 'solimp', 5, [0.9, 0.95, 0.001, 0.5, 2], 1);
  return {
    ...(a.name !== undefined && { name: a.name }),
    type,
    size,
    pos,
    quat,
    ...(rgba && { rgba }),
    ...(a.mesh !== undefined && { mesh: a.mesh }),
    collides,
    contype,
    conaffinity,
    friction,
    ...(solref && solref.every((x) => x > 0) && { solref: [solref[0], solref[1]] as [number, number] }),
    ...(solimp && { solimp }),
    condim: r.number(e, a, 'condim', 3),
    priority: r.number(e, a, 'priority', 0),
    group: r.number(e, a, 'group', 0),
    density,
    ...(massGiven !== undefined && { mass: massGiven }),
    ...(shell === 'true' && { shell: true }),
  };
}

const JOINT_TYPES: readonly string[] = ['hinge', 'slide', 'ball', 'free'];

function readJoint(r: Reader, e: XmlNode, cls: string): MjcfJoint {
  // <freejoint> takes no class attributes of <joint>
  const a = e.tag === 'freejoint' ? { ...e.attrs, type: 'free' } : r.attrs(e, cls);
  const type = (a.type ?? 'hinge') as MjcfJointType;
  if (!JOINT_TYPES.includes(type)) fail(e, `unknown joint type "${type}"`, `MJCF joint types: ${JOINT_TYPES.join(', ')}`);
  const axis = unit(r.numbers(e, a, 'axis', 3, [0, 0, 1]));
  if (!axis && (type === 'hinge' || type === 'slide'))
    fail(e, `axis="${a.axis}" has zero length`, 'give a non-zero direction in the body frame, e.g. axis="0 0 1"');
  // hinge angles in the compiler's unit; a slide's are lengths
  const value = (k: string) => (type === 'hinge' ? r.angle(r.number(e, a, k, 0)) : r.number(e, a, k, 0));
  const nonNegative = (k: string) => {
    const v = r.number(e, a, k, 0);
    if (v < 0) fail(e, `${k} ${v} is negative`, `give a ${k} of 0 or more`);
    return v;
  };
  const range = a.range === undefined ? undefined : r.numbers(e, a, 'range', 2).map((x) => (type === 'hinge' || type === 'ball' ? r.angle(x) : x));
  const limited = a.limited ?? 'auto';
  if (!['true', 'false', 'auto'].includes(limited)) fail(e, `limited="${limited}" is not true, false or auto`, 'give limited="true"');
  if (limited === 'auto' && range && !r.compiler.autolimits)
    fail(e, 'has a range but not limited', 'set <compiler autolimits="true"/>, or give limited="true" or "false"');
  const isLimited = limited === 'true' || (limited === 'auto' && range !== undefined);
  if (range && range[0] > range[1] && isLimited) fail(e, `range lower ${range[0]} is above upper ${range[1]}`, 'give range="lower upper"');
  return {
    ...(a.name !== undefined && { name: a.name }),
    type,
    pos: r.numbers(e, a, 'pos', 3, [0, 0, 0]) as Vec3,
    axis: (axis ?? [0, 0, 1]) as Vec3,
    ref: value('ref'),
    springref: value('springref'),
    stiffness: nonNegative('stiffness'),
    damping: nonNegative('damping'),
    armature: nonNegative('armature'),
    frictionloss: nonNegative('frictionloss'),
    ...limitedRange(r, e, a, 'actuatorfrc'),
    ...(isLimited && range && { range: [range[0], range[1]] as [number, number] }),
    at: where(e),
  };
}
