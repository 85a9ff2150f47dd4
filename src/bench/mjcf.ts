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
// qpos = 0, where a Kron joint's frame_b coincides with its frame_a: the
// mechanism's tree of rigid bodies (src/library/multibody/body-tree.ts, which
// the analytical derivatives read too) is that already. Every Kron joint
// becomes an MJCF body at the pose of the joint's frame_a, holding the joint;
// the Kron Bodies rigidly attached to it become that body's one inertial
// (combined rather than as jointless child bodies, which MuJoCo 3.14's
// WebAssembly build fails to load 128 levels deep: "memory access out of
// bounds"). The poses (and the parameter values) come from Kron itself,
// evaluated at q = 0: whatever a rigid element does, the MJCF inherits it,
// and the tests compare qacc with Kron's at random states, and PUMA's MuJoCo
// kinematics with the Denavit-Hartenberg product. Trees only: a kinematic
// loop or an unknown element is a ModelError.
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
import type { Mechanism } from '../library/multibody/index.ts';
import { type For, type MassProperties, type ReferenceValue, type TreeBody, type TreeJoint, bodyTree } from '../library/multibody/body-tree.ts';

export { combined } from '../library/multibody/body-tree.ts';
export type { MassProperties, ReferenceValue };
/** an MJCF body: placed in its parent's coordinates, moved by its joint (the tree's body, library/multibody/body-tree.ts) */
export type MjcfBody = TreeBody;
export type MjcfJoint = TreeJoint;

/** the writer's phrasing of the tree walk's errors */
const WRITER: For = {
  name: 'the MJCF writer',
  limits: 'does not write',
  limitsHint:
    "MuJoCo's joint ranges and frictionloss are constraints, not Kron's spring-damper and tanh: benchmark the mechanism without them (mechanisms/puma560.ts: limits=0)",
};

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

/** the compiler and option settings every written model has */
export const MJCF_SETTINGS = {
  compiler: { boundmass: 1e-14, boundinertia: 1e-14 },
  /** no contacts or constraints: only the smooth dynamics */
  flags: ['contact', 'constraint'],
};

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
  const { bodies, gravity } = bodyTree(mech, value, WRITER);
  bodies.forEach(freeAtRoot);
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

/** a free joint under another joint is a ModelError: MuJoCo allows one only in a body of the world */
function freeAtRoot(parent: MjcfBody): void {
  for (const b of parent.children) {
    if (b.joint.type === 'free')
      throw new ModelError(`free joint ${b.joint.name} moves a body under joint ${parent.name}; MuJoCo allows a free joint only in a body of the world`, {
        component: b.joint.name,
        hint: 'benchmark the MuJoCo peer with the free joint at the root (urdfMechanism(robot, { floating: true }), m.free connected to the world)',
      });
    freeAtRoot(b);
  }
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

/** MuJoCo's fullinertia is Ixx Iyy Izz Ixy Ixz Iyz and must be positive definite: a diagonal one (a point mass: all 0) goes as diaginertia */
function inertialXml({ m, c, I }: MassProperties): string {
  const diagonal = [I[0], I[4], I[8]],
    off = [I[1], I[2], I[5]];
  const inertia = off.every((x) => x === 0) ? `diaginertia="${diagonal.map(num).join(' ')}"` : `fullinertia="${[...diagonal, ...off].map(num).join(' ')}"`;
  return `<inertial pos="${c.map(num).join(' ')}" mass="${num(m)}" ${inertia}/>`;
}

/** shortest text that reads back as the same double */
const num = (x: number) => (Object.is(x, -0) ? '0' : String(x));

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
