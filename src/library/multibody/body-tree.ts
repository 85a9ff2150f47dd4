// A mechanism as a tree of rigid bodies: (mechanism, values at the
// reference configuration) => bodies placed in their parents' coordinates,
// each moved by one joint, with the mass of everything rigidly fixed to it.
// What the MJCF writer (src/bench/mjcf.ts) prints and the analytical
// derivatives (src/codegen/rigid-tree.ts) compute on: one walk for both.
//
// The frame graph is walked from the world. At the reference configuration
// q = 0 a joint's frame_b coincides with its frame_a, so every joint opens a
// body at the pose of its frame_a, holding the joint; the Kron Bodies
// rigidly attached to it (through bars and fixed rotations) become its one
// inertial: total mass, centre of mass and inertia about it by the
// parallel-axis theorem. Bodies fixed to the world do not move and are left
// out. The poses (and the parameter values) come from the model itself,
// evaluated at q = 0 (`value`), so whatever a rigid element does, the tree
// inherits it. Trees only: a kinematic loop or an unknown element is a
// ModelError, phrased for the caller (`For`).
import { ModelError } from '../../errors.ts';
import type { Expr } from '../../expr/index.ts';
import type { Component, Connector } from '../../model/index.ts';
import { BallJoint } from './ball-joint.ts';
import { Body } from './body.ts';
import { FixedRotation } from './fixed-rotation.ts';
import { FixedTranslation } from './fixed-translation.ts';
import { Frame } from './frame.ts';
import { FreeJoint } from './free-joint.ts';
import type { Mechanism } from './mechanism.ts';
import { Prismatic } from './prismatic.ts';
import { Revolute } from './revolute.ts';
import { World } from './world.ts';

/** a signal's value (by hierarchical name) at the reference configuration, all states 0 */
export type ReferenceValue = (name: string) => number;

/** who walks the tree, for its errors: "the MJCF writer", what it does not do with limits ("does not write") and the hint there */
export interface For {
  name: string;
  limits: string;
  limitsHint: string;
}

/** a body of the tree: placed in its parent's coordinates, moved by its joint */
export interface TreeBody {
  name: string;
  pos: number[];
  /** orientation in the parent's coordinates, row-major 3x3 */
  R: number[];
  joint: TreeJoint;
  /** mass properties in this body's coordinates; none: a massless body */
  inertial?: MassProperties;
  children: TreeBody[];
}

export interface TreeJoint {
  name: string;
  /** hinge, slide: Revolute, Prismatic; ball: BallJoint; free: FreeJoint */
  type: 'hinge' | 'slide' | 'ball' | 'free';
  /** in the body's coordinates, unit length (z for ball and free joints, which have none) */
  axis: number[];
  stiffness: number;
  springref: number;
  damping: number;
}

/** a rigid body's mass properties in some frame: c centre of mass, I (row-major 3x3) about it */
export interface MassProperties {
  m: number;
  c: number[];
  I: number[];
}

/** world-resolved pose: R maps frame coordinates to world (row-major 3x3), r the origin */
interface Pose {
  R: number[];
  r: number[];
}

/** the joints a tree knows: each opens a body */
type TreeJointComponent = Revolute | Prismatic | BallJoint | FreeJoint;

/** a body as walked: its world pose, the parts fixed to it */
interface Walked {
  name: string;
  pose: Pose;
  joint?: TreeJointComponent;
  /** the Kron Bodies rigidly attached, at the world pose of their frame_a */
  parts: { body: Body; pose: Pose }[];
  children: Walked[];
}

// (mechanism, reference values, who asks) => the bodies under the world (depth first: parents before children) and world-resolved gravity
export function bodyTree(mech: Mechanism, value: ReferenceValue, who: For): { bodies: TreeBody[]; gravity: number[] } {
  const root = walked(mech, value, who);
  const bodies = root.children.map((b) => described(b, root.pose, value, who));
  return { bodies, gravity: [1, 2, 3].map((i) => value(`${mech.world.path}.g[${i}]`)) };
}

/** the frame graph walked from the world: joints open bodies, everything else is rigid */
function walked(mech: Mechanism, value: ReferenceValue, who: For): Walked {
  const edges = connections(mech, who);
  const root: Walked = { name: 'world', pose: poseOf(mech.world.frame_b, value), parts: [], children: [] };
  const seen = new Set<Frame>();
  const visit = (frame: Frame, into: Walked, from: Frame | undefined) => {
    if (seen.has(frame)) {
      throw new ModelError(`the mechanism has a kinematic loop through ${frame.path}; ${who.name} handles trees only`, {
        component: frame.path,
        hint: 'a tree-structured mechanism (chain, puma560, tree) is a tree of rigid bodies; a loop is not',
      });
    }
    seen.add(frame);
    // the element this frame belongs to, unless we just came through it
    if (from?.parent !== frame.parent) for (const [next, body] of step(frame, into, value, who)) visit(next, body, frame);
    for (const next of edges.get(frame) ?? []) if (next !== from) visit(next, into, frame);
  };
  visit(mech.world.frame_b, root, undefined);
  return root;
}

/** the frames a component leads to from one of its frames, and the body they move with */
function step(frame: Frame, body: Walked, value: ReferenceValue, who: For): [Frame, Walked][] {
  const c = frame.parent!;
  if (c instanceof World) return [];
  if (c instanceof Body) {
    body.parts.push({ body: c, pose: poseOf(frame, value) });
    return [];
  }
  if (c instanceof FixedTranslation || c instanceof FixedRotation) return [[frame === c.frame_a ? c.frame_b : c.frame_a, body]];
  if (c instanceof Revolute || c instanceof Prismatic || c instanceof BallJoint || c instanceof FreeJoint) {
    if (frame !== c.frame_a) {
      throw new ModelError(`joint ${c.path} is reached from the world through its frame_b; ${who.name} needs frame_a on the world's side`, {
        component: c.path,
        hint: 'connect the joint with frame_a towards the world',
      });
    }
    const child: Walked = { name: c.path, pose: poseOf(frame, value), joint: c, parts: [], children: [] };
    body.children.push(child);
    return [[c.frame_b, child]];
  }
  throw new ModelError(`${who.name} does not know the element ${c.path} (${c.constructor.name})`, {
    component: c.path,
    hint: 'a tree of rigid bodies is made of World, Body, Revolute, Prismatic, BallJoint, FreeJoint, FixedTranslation and FixedRotation',
  });
}

/** frame -> frames connected to it, over the whole component hierarchy */
function connections(model: Component, who: For): Map<Frame, Frame[]> {
  const edges = new Map<Frame, Frame[]>();
  const frameOf = (c: Connector) => {
    if (!(c.owner instanceof Frame))
      throw new ModelError(`connector ${c.name} is not a Frame; ${who.name} handles mechanisms only`, { component: c.owner.path });
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
function described(b: Walked, parent: Pose, value: ReferenceValue, who: For): TreeBody {
  const [pos, R] = relativeRotation(parent, b.pose);
  const inertial = b.parts.length ? combined(b.parts.map((p) => inBody(p.body, p.pose, b.pose, value))) : undefined;
  return { name: b.name, pos, R, joint: jointOf(b.joint!, value, who), inertial, children: b.children.map((c) => described(c, b.pose, value, who)) };
}

/** hinge or slide along the joint's axis (frame_a = body coordinates at q = 0), spring and damper as Kron's drive; ball (its damper) or free */
function jointOf(j: TreeJointComponent, value: ReferenceValue, who: For): TreeJoint {
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
    throw new ModelError(`joint ${p} has limits or friction, which ${who.name} ${who.limits}`, {
      component: p,
      hint: who.limitsHint,
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

/** a Kron Body's mass properties in the coordinates of the tree's body (pose) it is part of */
function inBody(b: Body, at: Pose, body: Pose, value: ReferenceValue): MassProperties {
  const p = b.path;
  const rcm = [1, 2, 3].map((i) => value(`${p}.r_cm[${i}]`));
  const entry = (i: number, j: number) => value(`${p}.I[${Math.min(i, j)}][${Math.max(i, j)}]`);
  const I = [1, 2, 3].flatMap((i) => [1, 2, 3].map((j) => entry(i, j)));
  // R: frame_a -> the tree body's coordinates, o: frame_a's origin there
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
