// The fuzzer's description of one mechanism, plain data: the single source
// of truth from which both the Kron Mechanism (build.ts) and the oracle's
// description (describe.ts) are made, so that the two cannot drift apart.
//
// Link k (1-based names j<k>, b<k>, o<k>, r<k>) hangs from the world or from
// the frame_b of an earlier link's joint:
//   parent frame -> [bar o<k>] -> [rotation r<k>] -> joint j<k> -> [body b<k>]
// A link without a body is massless: its joint's frame_b carries only what
// hangs from it. A cut joint c<k> joins two such frames, each through an
// optional bar and rotation:
//   link a's frame_b -> [bar ca<k>] -> [rotation cra<k>] -> c<k>.frame_a
//   link b's frame_b -> [bar cb<k>] -> [rotation crb<k>] -> c<k>.frame_b
import type { V3 } from '../../test/oracles/rnea.ts';
import type { JointType } from '../../test/oracles/joint-tree.ts';
import type { CutType } from '../../test/oracles/loops.ts';
import type { Trajectory } from './singular.ts';
import type { ContactTree } from './contact-generate.ts';

/** a link's joint: the oracle tree's types, and the quaternion joints (the floating family: floating.ts) */
export type SpecJoint = JointType | 'ball' | 'free';
/** a cut's type: the loop oracle's, and a quaternion ball joint as a cut (three translations, as the spherical) */
export type SpecCut = CutType | 'ball';

export interface RotationSpec {
  axis: V3;
  angle: number;
  /** translation from frame_a to frame_b in frame_a coordinates */
  r: V3;
}

export interface BodySpec {
  m: number;
  rcm: V3;
  I: [number, number, number, number, number, number];
}

export interface LinkSpec {
  /** index of the parent link, -1 for the world */
  parent: number;
  bar?: V3;
  rotation?: RotationSpec;
  joint: SpecJoint;
  /** revolute, prismatic: [axis]; universal: [axis 1, axis 2]; spherical, ball, free: [] */
  axes: V3[];
  /** start values, one per position coordinate (ball: Q = w, x, y, z; free: r[1..3], Q): the assembled position for loops */
  q: number[];
  /** spring (revolute, prismatic only: the library has it only there) and damper, on every velocity coordinate (none on a free joint) */
  c: number;
  q0: number;
  d: number;
  body?: BodySpec;
  /** the user's mark (state: false = determined by its loop); default: the builder chooses */
  state?: boolean;
}

export interface SideSpec {
  /** link index, -1 for the world */
  link: number;
  bar?: V3;
  rotation?: RotationSpec;
}

export interface CutSpec {
  type: SpecCut;
  a: SideSpec;
  b: SideSpec;
  /** revolute, planar, prismatic: [axis]; planar-prismatic: [guide, the planes' normal]; universal: [axis 1, axis 2]; spherical: [] */
  axes: V3[];
  /** the drive's spring-damper on a cut revolute's relative angle or a cut prismatic's displacement */
  c: number;
  q0: number;
  d: number;
}

export interface MechanismSpec {
  seed: number;
  /** what the generator meant to make, for the report: "tree", "loop:spherical", ... */
  shape: string;
  gravity: V3;
  links: LinkSpec[];
  cuts: CutSpec[];
  /** the singular family (singular.ts): judged by this run, not at one state */
  trajectory?: Trajectory;
  /** the contact family (contact-generate.ts): a tree dropped on the ground, judged by its run (contact.ts); links and cuts empty */
  contact?: ContactTree;
}

/** names of link i's coordinates, e.g. j2 or j3|[1] .. j3|[3] (joints with one position per velocity) */
function linkCoordinates(l: LinkSpec, i: number): string[] {
  const n = l.joint === 'spherical' ? 3 : l.joint === 'universal' ? 2 : 1;
  return n === 1 ? [`j${i + 1}`] : Array.from({ length: n }, (_, k) => `j${i + 1}|[${k + 1}]`);
}

/** names of the coordinates of a mechanism without ball and free joints (coordinateSignals reads them) */
export function coordinateNames(spec: MechanismSpec): string[] {
  return spec.links.flatMap(linkCoordinates);
}

/** 'j3|[1]' => the signal names of q, qd, qdd and tau (joints with one position per velocity) */
export function coordinateSignals(c: string): { q: string; qd: string; qdd: string; tau: string } {
  const [joint, index = ''] = c.split('|');
  return { q: `${joint}.q${index}`, qd: `${joint}.qd${index}`, qdd: `${joint}.qdd${index}`, tau: `${joint}.tau${index}` };
}

export interface VelocitySignals {
  qd: string;
  qdd: string;
  tau: string;
  /** the position coordinate of the same number, if it has one (not on ball and free joints) */
  q?: string;
}

/**
 * the signals of every velocity coordinate of the tree, in link order: as
 * coordinateSignals for the joints with one position per velocity; a ball
 * joint's w[1..3] (der: wd, input tau), a free joint's v[1..3] (input f)
 * then w[1..3] (input tau). The order of the oracles' v (floating-tree.ts).
 */
export function velocitySignals(spec: MechanismSpec): VelocitySignals[] {
  return spec.links.flatMap((l, i): VelocitySignals[] => {
    const j = `j${i + 1}`,
      three = [1, 2, 3];
    const angular = three.map((k) => ({ qd: `${j}.w[${k}]`, qdd: `${j}.wd[${k}]`, tau: `${j}.tau[${k}]` }));
    if (l.joint === 'ball') return angular;
    if (l.joint === 'free') return [...three.map((k) => ({ qd: `${j}.v[${k}]`, qdd: `${j}.vd[${k}]`, tau: `${j}.f[${k}]` })), ...angular];
    return linkCoordinates(l, i).map(coordinateSignals);
  });
}

/** the signals of every position coordinate of the tree, in link order (ball: Q[1..4]; free: r[1..3], Q[1..4]) */
export function positionSignals(spec: MechanismSpec): string[] {
  return spec.links.flatMap((l, i) => {
    const j = `j${i + 1}`,
      Q = [1, 2, 3, 4].map((k) => `${j}.Q[${k}]`);
    if (l.joint === 'ball') return Q;
    if (l.joint === 'free') return [...[1, 2, 3].map((k) => `${j}.r[${k}]`), ...Q];
    return linkCoordinates(l, i).map((c) => coordinateSignals(c).q);
  });
}

const v3 = (v: readonly number[]) => `[${v.map((x) => +x.toFixed(4)).join(', ')}]`;

/** a readable listing of the mechanism (--verbose) */
export function describeSpec(spec: MechanismSpec): string {
  const lines = [`mechanism seed ${spec.seed} (${spec.shape}), gravity ${v3(spec.gravity)}`];
  spec.links.forEach((l, i) => {
    const parts = [`  j${i + 1}: ${l.joint}`, `on ${l.parent < 0 ? 'world' : `j${l.parent + 1}`}`];
    if (l.axes.length) parts.push(`axes ${l.axes.map(v3).join(' ')}`);
    if (l.bar) parts.push(`bar ${v3(l.bar)}`);
    if (l.rotation) parts.push(`rotation ${v3(l.rotation.axis)} ${l.rotation.angle.toFixed(3)} r ${v3(l.rotation.r)}`);
    parts.push(`q ${v3(l.q)}`);
    if (l.state !== undefined) parts.push(`state: ${l.state}`);
    if (l.c || l.d) parts.push(`c ${l.c.toFixed(2)} q0 ${l.q0.toFixed(2)} d ${l.d.toFixed(2)}`);
    const b = l.body;
    parts.push(!b ? 'MASSLESS' : `m ${b.m.toPrecision(3)} rcm ${v3(b.rcm)} ${b.I.every((x) => x === 0) ? 'POINT MASS' : `I ${v3(b.I)}`}`);
    lines.push(parts.join(', '));
  });
  spec.cuts.forEach((c, i) => {
    const side = (s: SideSpec) =>
      `${s.link < 0 ? 'world' : `j${s.link + 1}`}${s.bar ? ` bar ${v3(s.bar)}` : ''}${s.rotation ? ` rotation ${v3(s.rotation.axis)} ${s.rotation.angle.toFixed(3)}` : ''}`;
    lines.push(
      `  c${i + 1}: ${c.type} cut${c.axes.length ? ` axes ${c.axes.map(v3).join(' ')}` : ''}, a: ${side(c.a)}; b: ${side(c.b)}${c.c || c.d ? `, c ${c.c.toFixed(2)} d ${c.d.toFixed(2)}` : ''}`,
    );
  });
  return lines.join('\n');
}

/** one line of what the mechanism contains, for the failure census: joints, massless links, point masses, heavy bodies, cuts */
export function features(spec: MechanismSpec): string {
  const letter = { revolute: 'R', prismatic: 'P', spherical: 'S', universal: 'U', ball: 'B', free: 'F' } as const;
  const joints = spec.links.map((l) => letter[l.joint]).join('');
  const massless = spec.links.filter((l) => !l.body).length;
  const points = spec.links.filter((l) => l.body && l.body.I.every((x) => x === 0));
  const centred = points.filter((l) => l.body!.rcm.every((x) => x === 0)).length;
  const heavy = spec.links.filter((l) => (l.body?.m ?? 0) > 1e5).length;
  const parts = [`joints ${joints}`];
  if (massless) parts.push(`${massless} massless`);
  if (points.length) parts.push(`${points.length} point mass${points.length > 1 ? 'es' : ''}${centred ? ` (${centred} at the joint)` : ''}`);
  if (heavy) parts.push(`${heavy} heavy (>1e5 kg)`);
  if (spec.cuts.length) parts.push(`cuts ${spec.cuts.map((c) => c.type).join('+')}`);
  return parts.join(', ');
}
