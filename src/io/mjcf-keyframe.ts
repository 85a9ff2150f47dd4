// MJCF <keyframe><key name qpos qvel ctrl> read into plain data: start states
// (mjcfMechanism(robot, { keyframe }), `--keyframe name`). The numbers are
// MuJoCo's qpos, qvel and ctrl vectors; their lengths are checked against the
// model when a key is used (keyStart below). act, mpos, mquat and time are not
// read (a warning when given).
import { ModelError, UsageError } from '../errors.ts';
import { didYouMean } from '../suggest.ts';
import { type XmlNode, where } from './mjcf-xml.ts';
import type { MjcfBody, MjcfJoint, MjcfRobot, Reader } from './mjcf-parse.ts';

export interface MjcfKey {
  /** the MJCF name; undefined when the file gives none (then it is known by its number) */
  name?: string;
  qpos?: number[];
  qvel?: number[];
  ctrl?: number[];
  at: string;
}

/** a vector attribute: any count of decimal numbers */
function vector(r: Reader, e: XmlNode, name: string): number[] | undefined {
  const text = e.attrs[name];
  if (text === undefined) return undefined;
  const count = text.trim().split(/\s+/).filter(Boolean).length;
  return r.numbers(e, e.attrs, name, count);
}

// (reader, <keyframe> element) => its keys in file order
export function readKeyframes(r: Reader, section: XmlNode): MjcfKey[] {
  const out: MjcfKey[] = [];
  for (const e of section.children) {
    if (e.tag !== 'key') {
      r.warnings.push(`${where(e)}: not read`);
      continue;
    }
    const ignored = ['act', 'mpos', 'mquat'].filter((k) => e.attrs[k] !== undefined);
    if (ignored.length) r.warnings.push(`${where(e)}: ${ignored.join(', ')} ${ignored.length > 1 ? 'are' : 'is'} not read`);
    const [qpos, qvel, ctrl] = ['qpos', 'qvel', 'ctrl'].map((k) => vector(r, e, k));
    out.push({ ...(e.attrs.name !== undefined && { name: e.attrs.name }), ...(qpos && { qpos }), ...(qvel && { qvel }), ...(ctrl && { ctrl }), at: where(e) });
  }
  return out;
}

/** the robot's joints in MuJoCo's order: depth first, in file order within a body */
export function jointsInOrder(robot: MjcfRobot): MjcfJoint[] {
  const out: MjcfJoint[] = [];
  const walk = (b: MjcfBody) => (out.push(...b.joints), b.children.forEach(walk));
  robot.bodies.forEach(walk);
  return out;
}

/** a joint's slice of qpos and qvel */
export interface JointStart {
  qpos: number[];
  qvel: number[];
}

const WIDTH = { free: [7, 6], ball: [4, 3], hinge: [1, 1], slide: [1, 1] } as const;

/** a key's name for messages and lists: its name, or its number */
const keyName = (k: MjcfKey, i: number) => k.name ?? String(i);

// (robot, the key's name or number) => each joint's qpos and qvel slices (MuJoCo's order), and ctrl by actuator number
export function keyStart(robot: MjcfRobot, wanted: string): { joints: Map<MjcfJoint, JointStart>; ctrl: number[] | undefined } {
  const keys = robot.keyframes;
  const i = keys.findIndex((k, n) => keyName(k, n) === wanted);
  if (i < 0) {
    const names = keys.map(keyName);
    throw new UsageError(`keyframe "${wanted}" is not in ${robot.name}`, {
      hint: names.length
        ? `${didYouMean(wanted, names)}its keyframes: ${names.join(', ')} (an unnamed key by its number)`
        : 'the file has no <keyframe>: leave out --keyframe',
    });
  }
  const key = keys[i];
  const joints = jointsInOrder(robot);
  const [nq, nv] = joints.reduce(([q, v], j) => [q + WIDTH[j.type][0], v + WIDTH[j.type][1]], [0, 0]);
  const check = (what: string, v: number[] | undefined, n: number) => {
    if (v && v.length !== n)
      throw new ModelError(`MJCF ${key.at}: ${what} has ${v.length} numbers, the model's ${what} ${n}`, {
        hint: `give ${n} numbers, in MuJoCo's order (joints depth first, in file order)`,
      });
  };
  check('qpos', key.qpos, nq);
  check('qvel', key.qvel, nv);
  const out = new Map<MjcfJoint, JointStart>();
  let p = 0,
    v = 0;
  for (const j of joints) {
    const [wq, wv] = WIDTH[j.type];
    // without qpos, MuJoCo's qpos0: the file's pose (ref; the body's pose for a free joint, left to the builder)
    const qpos = key.qpos ? key.qpos.slice(p, p + wq) : j.type === 'ball' ? [1, 0, 0, 0] : j.type === 'free' ? [] : [j.ref];
    out.set(j, { qpos, qvel: key.qvel ? key.qvel.slice(v, v + wv) : Array<number>(wv).fill(0) });
    p += wq;
    v += wv;
  }
  return { joints: out, ctrl: key.ctrl };
}
