// MJCF's <equality> constraints (mjcf-equality.ts) closed exactly in the
// mechanism, as cut joints (tearing paper, "Mechanical systems with
// kinematic loops"), where MuJoCo makes each a soft spring-damper that
// drifts (solref, solimp):
//   connect  a point cut (a ball joint marked { cut: 'point' }) between the
//            anchor on body1 and the same point of body2 at the file's pose,
//            each reached by a bar from its body's frame. In a planar loop
//            (Cassie's plantar rod and foot: three parallel hinges) the
//            builder keeps its two in-plane translations, the third being
//            implied (topology.ts closeInPlane): not a singular Jacobian.
//   weld     a Weld cut (weld.ts) between body1's frame moved by relpose (or
//            by body2's pose relative to body1 at the file's pose) and body2's
//   joint    a Coupling (coupling.ts) of the two hinge or slide joints:
//            joint1 - ref1 = P(joint2 - ref2), MuJoCo's qpos0 being ref;
//            joint1 becomes a joint the coupling determines (not a state)
// A connect always closes at the file's pose (its second anchor is taken
// there). A weld whose relpose differs from the file's pose is not closed
// there: a warning gives how far; the compiled model's loop Newton assembles
// it at the first evaluation, moving the loop's rest coordinates; so is a
// joint equality whose polycoef[0] is not 0.
// Their bodies are no parent and child for the contact filter
// (Mechanism.contactRules.equalities), as in MuJoCo, whose filter follows the
// body tree.
// Loops through a quaternion ball joint (Cassie's achilles rods) keep the
// ball as a state joint: the builder makes hinges of the loop its rest
// joints (topology.ts: a loop cannot determine a quaternion).
import type { Mechanism } from '../library/multibody/mechanism.ts';
import type { Frame } from '../library/multibody/frame.ts';
import { Weld } from '../library/multibody/weld.ts';
import { Coupling } from '../library/multibody/coupling.ts';
import { OneDofJoint } from '../library/multibody/joint.ts';
import { fail } from './mjcf-xml.ts';
import { IDENTITY, type Quat, multiply, rotate, toAxisAngle } from './mjcf-frame.ts';
import type { MjcfConnect, MjcfJointEquality, MjcfWeld } from './mjcf-equality.ts';
import type { MjcfBody, MjcfJoint, MjcfRobot } from './mjcf-parse.ts';
import type { Vec3 } from './urdf-parse.ts';
import type { Names } from './urdf.ts';

/** a body's frame in the mechanism and its pose in the world at the file's pose */
export interface Placed {
  frame: Frame;
  pos: Vec3;
  quat: Quat;
}

const conjugate = (q: readonly number[]): Quat => [q[0], -q[1], -q[2], -q[3]];
const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

/** every named body's pose in the world at the file's pose: joints at their ref, the world's pose composed down the tree */
export function filePoses(robot: MjcfRobot): Map<MjcfBody, { pos: Vec3; quat: Quat }> {
  const out = new Map<MjcfBody, { pos: Vec3; quat: Quat }>();
  const stack: [MjcfBody, { pos: Vec3; quat: Quat }][] = robot.bodies.map((b) => [b, { pos: [0, 0, 0], quat: IDENTITY }]);
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [b, parent] = item;
    const pose = { pos: add(parent.pos, rotate(parent.quat, b.pos)), quat: multiply(parent.quat, b.quat) };
    out.set(b, pose);
    for (const c of b.children) stack.push([c, pose]);
  }
  return out;
}

/** a named MJCF joint and its component's name */
export interface NamedJoint {
  joint: MjcfJoint;
  component: string;
}

// (mechanism with its bodies and joints, the robot's equalities, each body's frame and file pose, each joint by MJCF name) => cut joints and couplings added; warnings
export function closeEqualities(
  m: Mechanism,
  robot: MjcfRobot,
  bodies: ReadonlyMap<string, Placed>,
  joints: ReadonlyMap<string, NamedJoint>,
  names: Names,
  warnings: string[],
): void {
  const world: Placed = { frame: m.world.frame_b, pos: [0, 0, 0], quat: IDENTITY };
  // the parser checked the names: a body missing here has no name the equality can refer to
  const body = (name: string | undefined) => (name === undefined || name === 'world' ? world : bodies.get(name)!);
  const coupled = new Set<string>();
  for (const e of robot.equalities) {
    if (e.type === 'connect') connect(m, e, body(e.body1), body(e.body2), names);
    else if (e.type === 'weld') weld(m, e, body(e.body1), body(e.body2), names, warnings);
    else {
      couple(m, e, joints, names, coupled);
      if (e.polycoef[0] !== 0)
        warnings.push(
          `${e.at}: not closed at the file's pose (joint1 is ${Math.abs(e.polycoef[0])} from ref + polycoef[0]): the compiled model's Newton assembles it at the first evaluation`,
        );
    }
  }
}

/** a Coupling: joint1 - ref1 = P(joint2 - ref2) */
function couple(m: Mechanism, e: MjcfJointEquality, joints: ReadonlyMap<string, NamedJoint>, names: Names, coupled: Set<string>): void {
  const component = (mjcf: string) => {
    const { joint, component } = joints.get(mjcf)!;
    if (joint.type !== 'hinge' && joint.type !== 'slide')
      fail(e.node, `joint ${mjcf} is a ${joint.type} joint`, 'a joint equality couples hinge and slide joints, as in MuJoCo');
    const c = m.children.find((k) => k.localName === component);
    if (!(c instanceof OneDofJoint)) fail(e.node, `joint ${mjcf} has no one-coordinate component`, 'report this: the importer made it');
    return { c, ref: joint.ref };
  };
  if (coupled.has(e.joint1))
    fail(e.node, `joint1="${e.joint1}" is already determined by an earlier joint equality`, 'a joint can follow one other joint: remove one of the equalities');
  coupled.add(e.joint1);
  const j1 = component(e.joint1),
    j2 = e.joint2 === undefined ? undefined : component(e.joint2);
  const name = names.take(e.name ?? `${e.joint1}_${e.joint2 ?? 'fixed'}_coupling`, `joint equality ${e.at}`);
  m.sources.set(name, `MJCF ${e.at}`);
  m.add(new Coupling(name, j1.c, j2?.c, { y0: j1.ref, x0: j2?.ref ?? 0, coefficients: e.polycoef }));
}

/** a point cut: frame_a at the anchor on body1, frame_b at the same point of body2 at the file's pose */
function connect(m: Mechanism, e: MjcfConnect, b1: Placed, b2: Placed, names: Names): void {
  const name = names.take(e.name ?? `${e.body1}_${e.body2 ?? 'world'}_connect`, `connect ${e.at}`);
  m.sources.set(name, `MJCF ${e.at}`);
  const point = add(b1.pos, rotate(b1.quat, e.anchor));
  const anchor2 = rotate(conjugate(b2.quat), sub(point, b2.pos));
  const cut = m.ball(name, { cut: 'point' });
  m.contactRules.equalities.push(cut);
  m.connect(offset(m, b1.frame, e.anchor, IDENTITY, names, `${name}_anchor1`), cut.frame_a);
  m.connect(offset(m, b2.frame, anchor2, IDENTITY, names, `${name}_anchor2`), cut.frame_b);
}

/** a Weld cut: frame_a at body2's place relative to body1 (relpose, or as at the file's pose), frame_b body2's frame */
function weld(m: Mechanism, e: MjcfWeld, b1: Placed, b2: Placed, names: Names, warnings: string[]): void {
  const name = names.take(e.name ?? `${e.body1}_${e.body2 ?? 'world'}_weld`, `weld ${e.at}`);
  m.sources.set(name, `MJCF ${e.at}`);
  const relative = { pos: rotate(conjugate(b1.quat), sub(b2.pos, b1.pos)), quat: multiply(conjugate(b1.quat), b2.quat) };
  const wanted = e.relpose ?? relative;
  const cut = m.add(new Weld(name));
  m.contactRules.equalities.push(cut);
  m.connect(offset(m, b1.frame, wanted.pos, wanted.quat, names, `${name}_relpose`), cut.frame_a);
  m.connect(b2.frame, cut.frame_b);
  if (e.relpose) {
    const apart = Math.hypot(...sub(relative.pos, wanted.pos));
    const turn = toAxisAngle(multiply(conjugate(wanted.quat), relative.quat))?.angle ?? 0;
    const angle = Math.abs(turn > Math.PI ? turn - 2 * Math.PI : turn);
    if (apart > 1e-9 || angle > 1e-9) {
      warnings.push(
        `${e.at}: not closed at the file's pose (body2 is ${apart.toPrecision(3)} m and ${angle.toPrecision(3)} rad from its relpose): the compiled model's loop Newton assembles it at the first evaluation, moving the loop's rest joints`,
      );
    }
  }
}

/** frame_b of a bar or fixed rotation at pos, turned by quat, from the frame; the frame itself when both are nothing */
function offset(m: Mechanism, from: Frame, pos: Vec3, quat: Quat, names: Names, wanted: string): Frame {
  const rotation = toAxisAngle(quat);
  if (!rotation && pos.every((v) => v === 0)) return from;
  const c = rotation ? m.rotation(names.take(wanted, wanted), { ...rotation, r: pos }) : m.bar(names.take(wanted, wanted), { r: pos });
  m.connect(from, c.frame_a);
  return c.frame_b;
}
