// src/bench/mjcf: a MuJoCo model (MJCF XML) of a Kron mechanism, for the peer
// column of `kron bench`: the same joints (axes, spring-dampers), the same
// bodies (mass, centre of mass, inertia) at the same places, the same gravity;
// no geometry, contacts or constraints, so MuJoCo's mj_forward computes the
// plain forward dynamics qacc = M(q)^-1 (tau - c(q, qd)) of the same tree.
//
//   (mechanism, values at the reference configuration) => { xml, bodies, joints }
//   bodies  the same model as plain data (MjcfBody), for loading through
//           MuJoCo's mjSpec API: its XML reader recurses per nesting level and
//           overflows the WebAssembly stack between 160 and 200 levels deep
//
// MJCF places each body relative to its parent at the reference configuration
// qpos = 0, where a Kron joint's frame_b coincides with its frame_a. So every
// Kron joint becomes an MJCF body at the pose of the joint's frame_a, holding
// the joint; the Kron Bodies rigidly attached to it (through bars and fixed
// rotations) become that MJCF body's one inertial: total mass, centre of mass
// and inertia about it by the parallel-axis theorem (combined here rather than
// as jointless child bodies, which MuJoCo 3.14's WebAssembly build fails to
// load 128 levels deep: "memory access out of bounds"). Bodies fixed to the
// world do not move and are left out. The poses (and the parameter values)
// come from Kron itself, evaluated at q = 0: whatever a rigid element does,
// the MJCF inherits it, and the tests compare qacc with Kron's at random
// states, and PUMA's MuJoCo kinematics with the Denavit-Hartenberg product.
// Trees only: a kinematic loop or an unknown element is a ModelError.
// A FreeJoint becomes MuJoCo's <freejoint/> and a quaternion BallJoint a
// ball joint; their states map onto qpos and qvel as mjcf-state.ts says
// (MuJoCo allows a free joint only in a body of the world: one under another
// joint is a ModelError). At the reference configuration a quaternion is
// (1, 0, 0, 0), the rotation of "all coordinates 0".
// MuJoCo rejects moving bodies without mass or inertia (PUMA's link 1 has mass
// 0, the tree's carriage is a point mass): boundmass and boundinertia raise
// those to 1e-14, which changes qacc by about that much relative to the rest.
import type { CompiledModel } from '../codegen/compiled.ts';
import { ModelError } from '../errors.ts';
import type { Expr } from '../expr/index.ts';
import { BallJoint, Body, FixedRotation, FixedTranslation, Frame, FreeJoint, Prismatic, Revolute, World, type Mechanism } from '../library/multibody/index.ts';
import type { Component, Connector } from '../model/index.ts';

/** a signal's value (by hierarchical name) at the reference configuration, all states 0 */
export type ReferenceValue = (name: string) => number;

export interface Mjcf {
  model: string;
  xml: string;
  /** world-resolved gravity */
  gravity: number[];
  /** the bodies under the world, each with its joint: what the XML says, as data */
  bodies: MjcfBody[];
  /** Kron joint names in MuJoCo's qpos / qvel / qacc order */
  joints: string[];
}

/** an MJCF body: placed in its parent's coordinates, moved by its joint */
export interface MjcfBody {
  name: string;
  pos: number[];
  /** orientation in the parent's coordinates, row-major 3x3 */
  R: number[];
  joint: MjcfJoint;
  /** mass properties in this body's coordinates; none: a massless body */
  inertial?: MassProperties;
  children: MjcfBody[];
}

export interface MjcfJoint {
  name: string;
  /** hinge, slide: Revolute, Prismatic; ball: BallJoint; free: FreeJoint */
  type: 'hinge' | 'slide' | 'ball' | 'free';
  /** in the body's coordinates, unit length (z for ball and free joints, which have none) */
  axis: number[];
  stiffness: number;
  springref: number;
  damping: number;
}

/** the compiler and option settings every written model has */
export const MJCF_SETTINGS = {
  compiler: { boundmass: 1e-14, boundinertia: 1e-14 },
  /** no contacts or constraints: only the smooth dynamics */
  flags: ['contact', 'constraint'],
};

/** world-resolved pose: R maps frame coordinates to world (row-major 3x3), r the origin */
interface Pose {
  R: number[];
  r: number[];
}

/** the joints the writer knows: each opens an MJCF body */
type MjJoint = Revolute | Prismatic | BallJoint | FreeJoint;

interface MjBody {
  name: string;
  pose: Pose;
  joint?: MjJoint;
  /** the Kron Bodies rigidly attached, at the world pose of their frame_a */
  parts: { body: Body; pose: Pose }[];
  children: MjBody[];
}

/** a rigid body's mass properties in some frame: c centre of mass, I (row-major 3x3) about it */
export interface MassProperties {
  m: number;
  c: number[];
  I: number[];
}

// (compiled model) => the values of its signals at x = 0 (every joint coordinate and speed 0, every quaternion (1, 0, 0, 0))
export function referenceValues(c: CompiledModel): ReferenceValue {
  const x = new Float64Array(c.stateNames.length);
  // a unit-norm group is a quaternion's w, x, y, z (Component.unitNorms): its identity is w = 1
  for (const group of c.data.unitNorms ?? []) x[c.stateNames.indexOf(group[0])] = 1;
  c.derivatives(0, x, new Float64Array(x.length));
  const values = new Map<string, number>();
  return (name) => {
    if (!values.has(name)) values.set(name, c.signal(name));
    return values.get(name)!;
  };
}

// (mechanism, reference values) => MJCF document, the same as data, and the joint order
export function mjcf(mech: Mechanism, value: ReferenceValue): Mjcf {
  const root = bodyTree(mech, value);
  const bodies = root.children.map((b) => described(b, root.pose, value));
  const gravity = [1, 2, 3].map((i) => value(`${mech.world.path}.g[${i}]`));
  const joints: string[] = [];
  const collect = (b: MjcfBody) => (joints.push(b.joint.name), b.children.forEach(collect));
  bodies.forEach(collect);
  return { model: mech.title, xml: mjcfXml(mech.title, gravity, bodies), gravity, bodies, joints };
}

/** a start state for MuJoCo programs that read one from the file (keyframe 0: bench_mujoco_xml --keyframe 0) */
export interface Keyframe {
  qpos: ArrayLike<number>;
  qvel: ArrayLike<number>;
}

// (model name, gravity, bodies, optional keyframe) => the MJCF document
export function mjcfXml(model: string, gravity: readonly number[], bodies: readonly MjcfBody[], key?: Keyframe): string {
  const { boundmass, boundinertia } = MJCF_SETTINGS.compiler;
  return [
    `<mujoco model="${escape(model)}">`,
    `  <compiler angle="radian" inertiafromgeom="false" boundmass="${boundmass}" boundinertia="${boundinertia}"/>`,
    `  <option gravity="${gravity.map(num).join(' ')}" integrator="RK4">`,
    `    <flag ${MJCF_SETTINGS.flags.map((f) => `${f}="disable"`).join(' ')}/>`,
    '  </option>',
    '  <worldbody>',
    ...bodies.flatMap((b) => bodyXml(b, '    ')),
    '  </worldbody>',
    ...(key ? ['  <keyframe>', `    <key qpos="${Array.from(key.qpos, num).join(' ')}" qvel="${Array.from(key.qvel, num).join(' ')}"/>`, '  </keyframe>'] : []),
    '</mujoco>',
    '',
  ].join('\n');
}

/** the frame graph walked from the world: joints open MJCF bodies, everything else is rigid */
function bodyTree(mech: Mechanism, value: ReferenceValue): MjBody {
  const edges = connections(mech);
  const root: MjBody = { name: 'world', pose: poseOf(mech.world.frame_b, value), parts: [], children: [] };
  const seen = new Set<Frame>();
  const visit = (frame: Frame, into: MjBody, from: Frame | undefined) => {
    if (seen.has(frame)) {
      throw new ModelError(`the mechanism has a kinematic loop through ${frame.path}; the MJCF writer handles trees only`, {
        component: frame.path,
        hint: 'benchmark the MuJoCo peer on tree-structured mechanisms (chain, puma560, tree)',
      });
    }
    seen.add(frame);
    // the element this frame belongs to, unless we just came through it
    if (from?.parent !== frame.parent) for (const [next, body] of step(frame, into, value)) visit(next, body, frame);
    for (const next of edges.get(frame) ?? []) if (next !== from) visit(next, into, frame);
  };
  visit(mech.world.frame_b, root, undefined);
  return root;
}

/** the frames a component leads to from one of its frames, and the MJCF body they move with */
function step(frame: Frame, body: MjBody, value: ReferenceValue): [Frame, MjBody][] {
  const c = frame.parent!;
  if (c instanceof World) return [];
  if (c instanceof Body) {
    body.parts.push({ body: c, pose: poseOf(frame, value) });
    return [];
  }
  if (c instanceof FixedTranslation || c instanceof FixedRotation) return [[frame === c.frame_a ? c.frame_b : c.frame_a, body]];
  if (c instanceof Revolute || c instanceof Prismatic || c instanceof BallJoint || c instanceof FreeJoint) {
    if (frame !== c.frame_a) {
      throw new ModelError(`joint ${c.path} is reached from the world through its frame_b; the MJCF writer needs frame_a on the world's side`, {
        component: c.path,
        hint: 'connect the joint with frame_a towards the world',
      });
    }
    if (c instanceof FreeJoint && body.joint) {
      throw new ModelError(`free joint ${c.path} moves a body under joint ${body.name}; MuJoCo allows a free joint only in a body of the world`, {
        component: c.path,
        hint: 'benchmark the MuJoCo peer with the free joint at the root (urdfMechanism(robot, { floating: true }), m.free connected to the world)',
      });
    }
    const child: MjBody = { name: c.path, pose: poseOf(frame, value), joint: c, parts: [], children: [] };
    body.children.push(child);
    return [[c.frame_b, child]];
  }
  throw new ModelError(`the MJCF writer does not know the element ${c.path} (${c.constructor.name})`, {
    component: c.path,
    hint: 'it writes World, Body, Revolute, Prismatic, BallJoint, FreeJoint, FixedTranslation and FixedRotation',
  });
}

/** frame -> frames connected to it, over the whole component hierarchy */
function connections(model: Component): Map<Frame, Frame[]> {
  const edges = new Map<Frame, Frame[]>();
  const frameOf = (c: Connector) => {
    if (!(c.owner instanceof Frame))
      throw new ModelError(`connector ${c.name} is not a Frame; the MJCF writer handles mechanisms only`, { component: c.owner.path });
    return c.owner;
  };
  const walk = (c: Component) => {
    for (const [a, b] of c.connections) {
      const fa = frameOf(a),
        fb = frameOf(b);
      edges.set(fa, [...(edges.get(fa) ?? []), fb]);
      edges.set(fb, [...(edges.get(fb) ?? []), fa]);
    }
    c.children.forEach(walk);
  };
  walk(model);
  return edges;
}

function poseOf(frame: Frame, value: ReferenceValue): Pose {
  const p = frame.path;
  return {
    R: [1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => value(`${p}.R[${i}][${j}]`))),
    r: [1, 2, 3].map((i) => value(`${p}.r[${i}]`)),
  };
}

/** the walked body as numbers: placement relative to the parent, joint, combined inertial */
function described(b: MjBody, parent: Pose, value: ReferenceValue): MjcfBody {
  const [pos, R] = relativeRotation(parent, b.pose);
  const inertial = b.parts.length ? combined(b.parts.map((p) => inBody(p.body, p.pose, b.pose, value))) : undefined;
  return { name: b.name, pos, R, joint: jointOf(b.joint!, value), inertial, children: b.children.map((c) => described(c, b.pose, value)) };
}

/** hinge or slide along the joint's axis (frame_a = body coordinates at q = 0), spring and damper as Kron's drive; ball (its damper) or free */
function jointOf(j: MjJoint, value: ReferenceValue): MjcfJoint {
  const p = j.path;
  const param = (name: string) => (j.variables.some((v) => v.localName === name) ? value(`${p}.${name}`) : 0);
  if (j instanceof BallJoint || j instanceof FreeJoint) {
    return {
      name: p,
      type: j instanceof BallJoint ? 'ball' : 'free',
      axis: [0, 0, 1],
      stiffness: 0,
      springref: 0,
      damping: j instanceof BallJoint ? param('d') : 0,
    };
  }
  if (j.hasLimitsOrFriction) {
    throw new ModelError(`joint ${p} has limits or friction, which the MJCF writer does not write`, {
      component: p,
      hint: "MuJoCo's joint ranges and frictionloss are constraints, not Kron's spring-damper and tanh: benchmark the mechanism without them (mechanisms/puma560.ts: limits=0)",
    });
  }
  return {
    name: p,
    type: j instanceof Revolute ? 'hinge' : 'slide',
    axis: j.axis.map((e) => constant(e, p)),
    stiffness: param('c'),
    springref: param('q0'),
    damping: param('d'),
  };
}

/** one MJCF body with its joint and inertial; xyaxes: the body's x and y axes, the first two columns of R */
function bodyXml(b: MjcfBody, indent: string): string[] {
  const xyaxes = [b.R[0], b.R[3], b.R[6], b.R[1], b.R[4], b.R[7]];
  return [
    `${indent}<body name="${escape(b.name)}" pos="${b.pos.map(num).join(' ')}" xyaxes="${xyaxes.map(num).join(' ')}">`,
    `${indent}  ${jointXml(b.joint)}`,
    ...(b.inertial ? [`${indent}  ${inertialXml(b.inertial)}`] : []),
    ...b.children.flatMap((c) => bodyXml(c, indent + '  ')),
    `${indent}</body>`,
  ];
}

function jointXml(j: MjcfJoint): string {
  const name = `name="${escape(j.name)}"`;
  if (j.type === 'free') return `<freejoint ${name}/>`;
  if (j.type === 'ball') return `<joint ${name} type="ball" damping="${num(j.damping)}" armature="0" limited="false"/>`;
  return `<joint ${name} type="${j.type}" axis="${j.axis.map(num).join(' ')}" stiffness="${num(j.stiffness)}" springref="${num(j.springref)}" damping="${num(j.damping)}" armature="0" limited="false"/>`;
}

/** a Kron Body's mass properties in the coordinates of the MJCF body (pose) it is part of */
function inBody(b: Body, at: Pose, body: Pose, value: ReferenceValue): MassProperties {
  const p = b.path;
  const rcm = [1, 2, 3].map((i) => value(`${p}.r_cm[${i}]`));
  const entry = (i: number, j: number) => value(`${p}.I[${Math.min(i, j)}][${Math.max(i, j)}]`);
  const I = [1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => entry(i, j)));
  // R: frame_a -> MJCF body coordinates, o: frame_a's origin there
  const [o, R] = relativeRotation(body, at);
  const c = [0, 1, 2].map((i) => o[i] + R[3 * i] * rcm[0] + R[3 * i + 1] * rcm[1] + R[3 * i + 2] * rcm[2]);
  return { m: value(`${p}.m`), c, I: rotated(R, I) };
}

// (parts in one frame) => their union: total mass, centre of mass, inertia about it (parallel-axis theorem)
export function combined(parts: readonly MassProperties[]): MassProperties {
  const m = parts.reduce((s, p) => s + p.m, 0);
  const c = m > 0 ? [0, 1, 2].map((i) => parts.reduce((s, p) => s + p.m * p.c[i], 0) / m) : [...parts[0].c];
  const I = new Array<number>(9).fill(0);
  for (const p of parts) {
    const d = [0, 1, 2].map((i) => p.c[i] - c[i]);
    const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) I[3 * i + j] += p.I[3 * i + j] + p.m * ((i === j ? dd : 0) - d[i] * d[j]);
  }
  return { m, c, I };
}

/** MuJoCo's fullinertia is Ixx Iyy Izz Ixy Ixz Iyz and must be positive definite: a diagonal one (a point mass: all 0) goes as diaginertia */
function inertialXml({ m, c, I }: MassProperties): string {
  const diagonal = [I[0], I[4], I[8]],
    off = [I[1], I[2], I[5]];
  const inertia = off.every((x) => x === 0) ? `diaginertia="${diagonal.map(num).join(' ')}"` : `fullinertia="${[...diagonal, ...off].map(num).join(' ')}"`;
  return `<inertial pos="${c.map(num).join(' ')}" mass="${num(m)}" ${inertia}/>`;
}

/** child pose in parent coordinates: origin and rotation Rp^T Rc (row-major) */
function relativeRotation(parent: Pose, child: Pose): [number[], number[]] {
  const Rp = parent.R,
    Rc = child.R;
  const d = [0, 1, 2].map((i) => child.r[i] - parent.r[i]);
  const pos = [0, 1, 2].map((i) => Rp[i] * d[0] + Rp[3 + i] * d[1] + Rp[6 + i] * d[2]);
  const R = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => Rp[i] * Rc[j] + Rp[3 + i] * Rc[3 + j] + Rp[6 + i] * Rc[6 + j]));
  return [pos, R];
}

/** R I R^T, row-major 3x3 */
function rotated(R: number[], I: number[]): number[] {
  const RI = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => R[3 * i] * I[j] + R[3 * i + 1] * I[3 + j] + R[3 * i + 2] * I[6 + j]));
  return [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => RI[3 * i] * R[3 * j] + RI[3 * i + 1] * R[3 * j + 1] + RI[3 * i + 2] * R[3 * j + 2]));
}

function constant(e: Expr, where: string): number {
  if (e.op !== 'const') throw new ModelError(`the axis of ${where} is not a constant`, { component: where });
  return e.value;
}

/** shortest text that reads back as the same double */
const num = (x: number) => (Object.is(x, -0) ? '0' : String(x));

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
