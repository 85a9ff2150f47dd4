// MJCF's <equality> constraints read into checked data (mjcf-loops.ts closes
// them in the mechanism, exactly):
//   connect  body1, body2 (default: the world), anchor (body1's frame): the
//            point anchor of body1 stays where that point of body2 was at
//            the file's pose (MuJoCo's qpos0)
//   weld     body1, body2: body2 keeps its pose relative to body1: relpose
//            (pos, then quat w x y z) when its quaternion is not all zeros,
//            else the relative pose at the file's pose, as MuJoCo does
//   joint    joint1 - ref1 = c0 + c1 (joint2 - ref2) + ... + c4 (joint2 - ref2)^4
//            (polycoef c0..c4, default 0 1 0 0 0); joint1 = ref1 + c0 without joint2
// Attributes come from the element's class (<default><equality .../>), as
// MuJoCo's defaults do for every kind of equality. An equality with
// active="false" is skipped, with a warning. solref and solimp are MuJoCo's
// softness of the constraint (a spring-damper that lets it drift): read and
// ignored, since Kron closes every loop exactly (cut joints, tearing paper).
// tendon and flex equalities, and the site1/site2 form of connect and weld,
// are warnings naming the element: not modelled.
import type { Vec3 } from './urdf-parse.ts';
import { type Quat, unit } from './mjcf-frame.ts';
import { type XmlNode, fail, where } from './mjcf-xml.ts';

export interface MjcfConnect {
  type: 'connect';
  name?: string;
  body1: string;
  /** undefined: the world */
  body2?: string;
  /** the point in body1's frame */
  anchor: Vec3;
  at: string;
}

export interface MjcfWeld {
  type: 'weld';
  name?: string;
  body1: string;
  body2?: string;
  /** body2's frame in body1's; undefined: as at the file's pose */
  relpose?: { pos: Vec3; quat: Quat };
  at: string;
}

export interface MjcfJointEquality {
  type: 'joint';
  /** the element, for errors the builder finds (a ball joint, a joint coupled twice) */
  node: XmlNode;
  name?: string;
  joint1: string;
  /** undefined: joint1 is held at ref1 + polycoef[0] */
  joint2?: string;
  /** c0..c4 */
  polycoef: number[];
  at: string;
}

export type MjcfEquality = MjcfConnect | MjcfWeld | MjcfJointEquality;

/** what the parser's reader gives this file: class defaults and checked numbers */
export interface EqualityReader {
  readonly warnings: string[];
  readonly classes: ReadonlyMap<string, ReadonlyMap<string, Record<string, string>>>;
  numbers(e: XmlNode, a: Record<string, string>, name: string, count: number, fallback?: readonly number[], min?: number): number[];
}

/** names the equalities may refer to */
export interface Known {
  bodies: ReadonlySet<string>;
  joints: ReadonlySet<string>;
}

// (the <equality> elements, the reader, the names of bodies and joints) => checked equalities; warnings for what is skipped
export function readEqualities(r: EqualityReader, sections: readonly XmlNode[], known: Known): MjcfEquality[] {
  const out: MjcfEquality[] = [];
  for (const e of sections.flatMap((s) => s.children)) {
    const a = attributes(r, e);
    if (a.active === 'false') {
      r.warnings.push(`${where(e)}: active="false": skipped (an inactive equality constrains nothing at the start)`);
      continue;
    }
    if (e.tag === 'tendon' || e.tag === 'flex') {
      r.warnings.push(`${where(e)}: ${e.tag} equality is not modelled`);
      continue;
    }
    if (e.tag !== 'connect' && e.tag !== 'weld' && e.tag !== 'joint') {
      r.warnings.push(`${where(e)}: not read`);
      continue;
    }
    if (e.tag !== 'joint' && (a.site1 !== undefined || a.site2 !== undefined)) {
      r.warnings.push(`${where(e)}: the site1/site2 form is not modelled (give body1, body2 and anchor)`);
      continue;
    }
    const name = a.name !== undefined ? { name: a.name } : {};
    if (e.tag === 'joint') {
      const joint1 = jointOf(e, a, 'joint1', known, true)!;
      const joint2 = jointOf(e, a, 'joint2', known, false);
      const polycoef = r.numbers(e, a, 'polycoef', 5, [0, 1, 0, 0, 0], 1);
      if (joint2 === joint1) fail(e, `couples joint ${joint1} to itself`, 'name two different joints in joint1 and joint2');
      out.push({ type: 'joint', node: e, ...name, joint1, ...(joint2 !== undefined && { joint2 }), polycoef, at: where(e) });
      continue;
    }
    const body1 = bodyOf(e, a, 'body1', known, true)!;
    const body2 = bodyOf(e, a, 'body2', known, false);
    if (body1 === (body2 ?? 'world')) fail(e, `constrains body ${body1} to itself`, 'name two different bodies in body1 and body2');
    if (e.tag === 'connect') {
      out.push({ type: 'connect', ...name, body1, ...(body2 !== undefined && { body2 }), anchor: r.numbers(e, a, 'anchor', 3) as Vec3, at: where(e) });
    } else {
      out.push({ type: 'weld', ...name, body1, ...(body2 !== undefined && { body2 }), ...relpose(r, e, a), at: where(e) });
    }
  }
  return out;
}

/** the element's attributes over its class's <equality> defaults (equalities are outside bodies: no childclass) */
function attributes(r: EqualityReader, e: XmlNode): Record<string, string> {
  const cls = e.attrs.class ?? 'main';
  const defaults = r.classes.get(cls);
  if (!defaults) fail(e, `class "${cls}" is not defined`, `define it with <default class="${cls}"> or use one of: ${[...r.classes.keys()].join(', ')}`);
  return { ...(defaults.get('equality') ?? {}), ...e.attrs };
}

function bodyOf(e: XmlNode, a: Record<string, string>, key: string, known: Known, required: boolean): string | undefined {
  const name = a[key];
  if (name === undefined) {
    if (required) fail(e, `attribute ${key} is missing`, `name the body: ${key}="..."`);
    return undefined;
  }
  if (name !== 'world' && !known.bodies.has(name)) fail(e, `${key}="${name}" is not a body of the file`, `bodies: ${shortList([...known.bodies])}`);
  return name;
}

function jointOf(e: XmlNode, a: Record<string, string>, key: string, known: Known, required: boolean): string | undefined {
  const name = a[key];
  if (name === undefined) {
    if (required) fail(e, `attribute ${key} is missing`, `name the joint: ${key}="..."`);
    return undefined;
  }
  if (!known.joints.has(name)) fail(e, `${key}="${name}" is not a named joint of the file`, `joints: ${shortList([...known.joints])}`);
  return name;
}

/** relpose when its quaternion is not all zeros (MuJoCo's default "0 1 0 0 0 0 0" has a zero one: the pose at the file's pose); the anchor and torquescale of a weld shape only its soft constraint force */
function relpose(r: EqualityReader, e: XmlNode, a: Record<string, string>): { relpose?: { pos: Vec3; quat: Quat } } {
  if (a.relpose === undefined) return {};
  const v = r.numbers(e, a, 'relpose', 7);
  if (v.slice(3).every((x) => x === 0)) return {};
  const quat = unit(v.slice(3)) as Quat | undefined;
  if (!quat)
    fail(
      e,
      `relpose="${a.relpose}" has a quaternion too short to normalise`,
      'give relpose="x y z w qx qy qz" with a unit quaternion, or all-zero quaternion for the file\'s pose',
    );
  return { relpose: { pos: [v[0], v[1], v[2]], quat } };
}

const shortList = (names: string[]): string =>
  names.length > 12 ? `${names.slice(0, 12).join(', ')}, ... ${names.length - 12} more` : names.join(', ') || 'none';
