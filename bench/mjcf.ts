// bench/mjcf: a MuJoCo model (MJCF XML) of a Kron mechanism, for the peer
// column of `kron bench`: the same joints (axes, spring-dampers), the same
// bodies (mass, centre of mass, inertia) at the same places, the same gravity;
// no geometry, contacts or constraints, so MuJoCo's mj_forward computes the
// plain forward dynamics qacc = M(q)^-1 (tau - c(q, qd)) of the same tree.
//
//   (mechanism, values at the reference configuration) => { xml, joints }
//
// MJCF places each body relative to its parent at the reference configuration
// qpos = 0, where a Kron joint's frame_b coincides with its frame_a. So every
// Kron joint becomes an MJCF body at the pose of the joint's frame_a, holding
// the joint; every Kron Body becomes a jointless child body at the pose of its
// frame_a (`fusestatic` merges it into its parent, as a rigid part of it);
// bars and fixed rotations only move frames. The poses (and the parameter
// values) come from Kron itself, evaluated at q = 0: whatever a rigid element
// does, the MJCF inherits it, and the test compares qacc with Kron's at random
// states, and PUMA's MuJoCo kinematics with the Denavit-Hartenberg product.
// Trees only: a kinematic loop or an unknown element is a ModelError.
// MuJoCo rejects moving bodies without mass or inertia (PUMA's link 1 has mass
// 0, the tree's carriage is a point mass): boundmass and boundinertia raise
// those to 1e-14, which changes qacc by about that much relative to the rest.
import type { CompiledModel } from '../src/codegen/compiled.ts';
import { ModelError } from '../src/errors.ts';
import type { Expr } from '../src/expr/index.ts';
import { Body, FixedRotation, FixedTranslation, Frame, Prismatic, Revolute, World, type Mechanism } from '../src/library/multibody/index.ts';
import type { Component, Connector } from '../src/model/index.ts';

/** a signal's value (by hierarchical name) at the reference configuration, all states 0 */
export type ReferenceValue = (name: string) => number;

export interface Mjcf {
  xml: string;
  /** Kron joint names in MuJoCo's qpos / qvel / qacc order */
  joints: string[];
}

/** world-resolved pose: R maps frame coordinates to world (row-major 3x3), r the origin */
interface Pose {
  R: number[];
  r: number[];
}

interface MjBody {
  name: string;
  pose: Pose;
  joint?: Revolute | Prismatic;
  inertial?: Body;
  children: MjBody[];
}

// (compiled model) => the values of its signals at x = 0 (every joint coordinate and speed 0)
export function referenceValues(c: CompiledModel): ReferenceValue {
  const x = new Float64Array(c.stateNames.length);
  c.derivatives(0, x, new Float64Array(x.length));
  const values = new Map<string, number>();
  return (name) => {
    if (!values.has(name)) values.set(name, c.signal(name));
    return values.get(name)!;
  };
}

// (mechanism, reference values) => MJCF document and joint order
export function mjcf(mech: Mechanism, value: ReferenceValue): Mjcf {
  const root = bodyTree(mech, value);
  const joints: string[] = [];
  const lines = [
    `<mujoco model="${escape(mech.title)}">`,
    '  <compiler angle="radian" inertiafromgeom="false" fusestatic="true" boundmass="1e-14" boundinertia="1e-14"/>',
    `  <option gravity="${[1, 2, 3].map((i) => num(value(`${mech.world.path}.g[${i}]`))).join(' ')}" integrator="RK4">`,
    '    <flag contact="disable" constraint="disable"/>',
    '  </option>',
    '  <worldbody>',
    ...root.children.flatMap((b) => bodyXml(b, root.pose, value, joints, '    ')),
    '  </worldbody>',
    '</mujoco>',
  ];
  return { xml: lines.join('\n') + '\n', joints };
}

/** the frame graph walked from the world: joints open MJCF bodies, everything else is rigid */
function bodyTree(mech: Mechanism, value: ReferenceValue): MjBody {
  const edges = connections(mech);
  const root: MjBody = { name: 'world', pose: poseOf(mech.world.frame_b, value), children: [] };
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
    body.children.push({ name: c.path, pose: poseOf(frame, value), inertial: c, children: [] });
    return [];
  }
  if (c instanceof FixedTranslation || c instanceof FixedRotation) return [[frame === c.frame_a ? c.frame_b : c.frame_a, body]];
  if (c instanceof Revolute || c instanceof Prismatic) {
    if (frame !== c.frame_a) {
      throw new ModelError(`joint ${c.path} is reached from the world through its frame_b; the MJCF writer needs frame_a on the world's side`, {
        component: c.path,
        hint: 'connect the joint with frame_a towards the world',
      });
    }
    const child: MjBody = { name: c.path, pose: poseOf(frame, value), joint: c, children: [] };
    body.children.push(child);
    return [[c.frame_b, child]];
  }
  throw new ModelError(`the MJCF writer does not know the element ${c.path} (${c.constructor.name})`, {
    component: c.path,
    hint: 'it writes World, Body, Revolute, Prismatic, FixedTranslation and FixedRotation',
  });
}

/** frame -> frames connected to it, over the whole component hierarchy */
function connections(model: Component): Map<Frame, Frame[]> {
  const edges = new Map<Frame, Frame[]>();
  const frameOf = (c: Connector) => {
    if (!(c.owner instanceof Frame)) throw new ModelError(`connector ${c.name} is not a Frame; the MJCF writer handles mechanisms only`, { component: c.owner.path });
    return c.owner;
  };
  const walk = (c: Component) => {
    for (const [a, b] of c.connections) {
      const fa = frameOf(a), fb = frameOf(b);
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

/** one MJCF body with its joint or inertial, placed relative to its parent's pose */
function bodyXml(b: MjBody, parent: Pose, value: ReferenceValue, joints: string[], indent: string): string[] {
  const [pos, xyaxes] = relative(parent, b.pose);
  const open = `${indent}<body name="${escape(b.name)}" pos="${pos.map(num).join(' ')}" xyaxes="${xyaxes.map(num).join(' ')}">`;
  const inner: string[] = [];
  if (b.joint) {
    joints.push(b.joint.path);
    inner.push(`${indent}  ${jointXml(b.joint, value)}`);
  }
  if (b.inertial) inner.push(`${indent}  ${inertialXml(b.inertial, value)}`);
  for (const c of b.children) inner.push(...bodyXml(c, b.pose, value, joints, indent + '  '));
  return [open, ...inner, `${indent}</body>`];
}

/** hinge or slide along the joint's axis (frame_a = body coordinates at q = 0); spring and damper as Kron's drive */
function jointXml(j: Revolute | Prismatic, value: ReferenceValue): string {
  const type = j instanceof Revolute ? 'hinge' : 'slide';
  const p = j.path;
  const has = (name: string) => j.variables.some((v) => v.localName === name);
  const attr = [`name="${escape(p)}"`, `type="${type}"`, `axis="${j.axis.map((e) => num(constant(e, p))).join(' ')}"`];
  if (has('c')) attr.push(`stiffness="${num(value(`${p}.c`))}"`, `springref="${num(has('q0') ? value(`${p}.q0`) : 0)}"`);
  if (has('d')) attr.push(`damping="${num(value(`${p}.d`))}"`);
  attr.push('armature="0"', 'limited="false"');
  return `<joint ${attr.join(' ')}/>`;
}

/**
 * mass, centre of mass (frame_a coordinates) and inertia about it; MuJoCo's fullinertia is
 * Ixx Iyy Izz Ixy Ixz Iyz and must be positive definite, so a diagonal one (a point mass: all 0)
 * is written as diaginertia
 */
function inertialXml(b: Body, value: ReferenceValue): string {
  const p = b.path;
  const com = [1, 2, 3].map((i) => value(`${p}.r_cm[${i}]`));
  const I = [[1, 1], [2, 2], [3, 3], [1, 2], [1, 3], [2, 3]].map(([i, j]) => value(`${p}.I[${i}][${j}]`));
  const inertia = I.slice(3).every((x) => x === 0) ? `diaginertia="${I.slice(0, 3).map(num).join(' ')}"` : `fullinertia="${I.map(num).join(' ')}"`;
  return `<inertial pos="${com.map(num).join(' ')}" mass="${num(value(`${p}.m`))}" ${inertia}/>`;
}

/** child pose in parent coordinates: position and MJCF xyaxes (the child's x and y axes, i.e. the first two columns of Rp^T Rc) */
function relative(parent: Pose, child: Pose): [number[], number[]] {
  const Rp = parent.R, Rc = child.R;
  const d = [0, 1, 2].map((i) => child.r[i] - parent.r[i]);
  const pos = [0, 1, 2].map((i) => Rp[i] * d[0] + Rp[3 + i] * d[1] + Rp[6 + i] * d[2]);
  const rel = (i: number, j: number) => Rp[i] * Rc[j] + Rp[3 + i] * Rc[3 + j] + Rp[6 + i] * Rc[6 + j];
  return [pos, [rel(0, 0), rel(1, 0), rel(2, 0), rel(0, 1), rel(1, 1), rel(2, 1)]];
}

function constant(e: Expr, where: string): number {
  if (e.op !== 'const') throw new ModelError(`the axis of ${where} is not a constant`, { component: where });
  return e.value;
}

/** shortest text that reads back as the same double */
const num = (x: number) => (Object.is(x, -0) ? '0' : String(x));

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
