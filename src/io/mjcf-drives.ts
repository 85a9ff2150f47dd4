// An MJCF robot's fixed tendons and actuators added to its mechanism, once
// its joints are built (mjcf.ts):
//   tendon    a FixedTendon (library/multibody/tendon.ts) over the joints'
//             coordinates: spring (stiffness, springlength), damper, and
//             range as limits (the joints' spring-damper law, limits.ts,
//             where MuJoCo uses a constraint: a warning says so)
//   actuator  an Actuator (library/multibody/actuator.ts) on the
//             transmission's length gear q (joint) or gear L (tendon) (a
//             position servo's dampratio made its kv: mjcf-m0.ts), its
//             force applied as gear * force to the joint, gear coef_i *
//             force to each joint of the tendon (OneDofJoint.applyForce),
//             their sum on a joint clamped to its actuatorfrcrange; with
//             activation dynamics its state <ctrl's component>.act
// Names (the contract, with mjcf.ts'): an actuator's control is the input
// <actuator name>.ctrl, the name sanitised as a joint's; an unnamed actuator
// is <joint or tendon>_actuator<k>, k from 0 among the actuators on that
// joint or tendon. When that name is already a joint's, body's or tendon's
// component (MJCF files often name an actuator after its joint, body or
// tendon) the input is that component's <name>.ctrl and the actuator's
// component <name>_actuator. A tendon's component is its sanitised name, an
// unnamed one tendon<k> (k its number), yielding to joints and bodies.
import { type Expr, add, max, min, mul } from '../expr/index.ts';
import { ModelError } from '../errors.ts';
import { Actuator } from '../library/multibody/actuator.ts';
import type { Joint } from '../library/multibody/joint.ts';
import { OneDofJoint } from '../library/multibody/joint.ts';
import type { Mechanism } from '../library/multibody/mechanism.ts';
import { FixedTendon } from '../library/multibody/tendon.ts';
import type { MjcfActuator, MjcfJoint, MjcfRobot } from './mjcf-parse.ts';
import type { Names } from './urdf.ts';
import { massDiagonalAtQpos0 } from './mjcf-m0.ts';
import { jointsInOrder } from './mjcf-keyframe.ts';

export interface DriveContext {
  m: Mechanism;
  /** the built joints by MJCF name */
  joints: ReadonlyMap<string, Joint>;
  /** the names taken so far (joints', bodies', frames'): actuators and tendons take theirs after them */
  names: Names;
  /** the keyframe's ctrl, by actuator number */
  ctrl?: readonly number[];
  limits: boolean;
  warnings: string[];
}

// (robot, what was built) => tendons and actuators added to the mechanism, warnings for what is left out
export function addDrives(robot: MjcfRobot, c: DriveContext): void {
  const tendons = addTendons(robot, c);
  // each joint's actuator forces, summed and clamped to its actuatorfrcrange (MuJoCo 3) before they are applied
  const forces = new Map<OneDofJoint, Expr[]>();
  const push = (j: OneDofJoint, f: Expr) => forces.set(j, [...(forces.get(j) ?? []), f]);
  const kv = dampingFromRatio(robot);
  const onTarget = new Map<string, number>();
  for (const a of robot.actuators) {
    const target = a.joint ?? a.tendon!;
    const k = onTarget.get(target) ?? 0;
    onTarget.set(target, k + 1);
    const wanted = a.name ?? `${target}_actuator${k}`,
      sanitised = c.names.sanitise(wanted);
    // a name a joint, body or tendon already has: that component holds the input <name>.ctrl (not another actuator: it has its own)
    const owner = c.m.children.find((x) => x.localName === sanitised && !(x instanceof Actuator));
    const component = c.names.take(owner ? `${sanitised}_actuator` : wanted, `actuator ${wanted}`);
    const ctrl = c.ctrl?.[a.index];
    const bias: [number, number, number] = [a.bias[0], a.bias[1], kv(a) ?? a.bias[2]];
    const activation = a.dyn && { type: a.dyn.type, tau: a.dyn.tau, ...(a.dyn.actrange && { range: a.dyn.actrange }) };
    const common = {
      gain: a.gain,
      bias,
      ctrlRange: a.ctrlrange,
      forceRange: a.forcerange,
      ...(ctrl !== undefined && { ctrl }),
      ...(owner && { ctrlOwner: owner }),
      ...(activation && { activation }),
    };
    if (a.tendon !== undefined) {
      const t = tendons.get(a.tendon);
      if (!t)
        throw new ModelError(`MJCF ${a.at}: tendon "${a.tendon}" is not a fixed tendon of the file`, {
          hint: `fixed tendons: ${[...tendons.keys()].join(', ') || 'none'}`,
        });
      const actuator = c.m.add(new Actuator(component, { ...common, length: mul(a.gear, t.tendon.L), velocity: mul(a.gear, t.tendon.Ld) }));
      for (const { joint, coef } of t.joints) push(joint, mul(a.gear * coef, actuator.force));
      continue;
    }
    const joint = c.joints.get(a.joint!);
    if (!joint)
      throw new ModelError(`MJCF ${a.at}: joint "${a.joint}" is not a joint of the file`, {
        hint: `the actuator's joint must be one of: ${[...c.joints.keys()].slice(0, 12).join(', ')}`,
      });
    if (!(joint instanceof OneDofJoint)) {
      c.warnings.push(`${a.at}: drives the ${joint.dof}-dof joint ${joint.localName}: not modelled (left out)`);
      continue;
    }
    const actuator = c.m.add(new Actuator(component, { ...common, length: mul(a.gear, joint.q), velocity: mul(a.gear, joint.qd) }));
    push(joint, mul(a.gear, actuator.force));
  }
  const ranges = new Map(
    jointsInOrder(robot)
      .filter((j) => j.name !== undefined && j.actuatorfrcrange)
      .map((j) => [c.joints.get(j.name!), j.actuatorfrcrange!]),
  );
  for (const [joint, terms] of forces) {
    const r = ranges.get(joint);
    joint.applyForce(r ? max(r[0], min(r[1], add(...terms))) : add(...terms));
  }
}

/** the fixed tendons as FixedTendon components, by MJCF name with their joints */
function addTendons(robot: MjcfRobot, c: DriveContext): Map<string, { tendon: FixedTendon; joints: { joint: OneDofJoint; coef: number }[] }> {
  const tendons = new Map<string, { tendon: FixedTendon; joints: { joint: OneDofJoint; coef: number }[] }>();
  const limited: string[] = [];
  for (const [k, t] of robot.tendons.entries()) {
    const joints = t.joints.map((x) => ({ joint: scalarJoint(c, x.joint, x.at, 'a fixed tendon couples hinge and slide joints'), coef: x.coef }));
    const name = c.names.take(t.name ?? `tendon${k}`, `tendon ${t.name ?? `tendon${k}`}`);
    const tendon = c.m.add(
      new FixedTendon(name, {
        joints,
        stiffness: t.stiffness || undefined,
        restLength: t.springlength,
        damping: t.damping || undefined,
        ...(c.limits && t.range && { limits: t.range }),
      }),
    );
    if (c.limits && t.range) limited.push(name);
    if (t.name !== undefined) tendons.set(t.name, { tendon, joints });
  }
  if (limited.length) c.warnings.push(`tendon ranges are limit springs (limits.ts), where MuJoCo uses constraints: ${limited.join(', ')}`);
  return tendons;
}

/**
 * A position servo's -kv from its dampratio, as MuJoCo's compiler makes it:
 * kv = dampratio 2 sqrt(kp m), m = sum M0_i / moment_i^2 over the joints
 * it moves (checked against its compiler's actuator_biasprm); undefined
 * without a dampratio, or when a joint or tendon it names is not there (the
 * actuator's own error says so).
 */
function dampingFromRatio(robot: MjcfRobot): (a: MjcfActuator) => number | undefined {
  const m0 = robot.actuators.some((a) => a.dampratio !== undefined) ? massDiagonalAtQpos0(robot) : new Map<MjcfJoint, number>();
  const byName = new Map(
    jointsInOrder(robot)
      .filter((j) => j.name !== undefined)
      .map((j) => [j.name!, j]),
  );
  return (a) => {
    if (a.dampratio === undefined) return undefined;
    const moments =
      a.tendon !== undefined
        ? (robot.tendons.find((t) => t.name === a.tendon)?.joints.map((x) => ({ joint: x.joint, moment: a.gear * x.coef })) ?? [])
        : [{ joint: a.joint!, moment: a.gear }];
    if (!moments.length || !moments.every((x) => m0.has(byName.get(x.joint)!))) return undefined;
    const m = moments.reduce((s, { joint, moment }) => s + (moment === 0 ? 0 : m0.get(byName.get(joint)!)! / (moment * moment)), 0);
    return -a.dampratio * 2 * Math.sqrt(a.gain[0] * m);
  };
}

/** a hinge or slide joint by MJCF name, else a model error naming the element */
function scalarJoint(c: DriveContext, name: string, at: string, why: string): OneDofJoint {
  const j = c.joints.get(name);
  if (!j) throw new ModelError(`MJCF ${at}: joint "${name}" is not a joint of the file`, { hint: `joints: ${[...c.joints.keys()].slice(0, 12).join(', ')}` });
  if (!(j instanceof OneDofJoint)) throw new ModelError(`MJCF ${at}: joint "${name}" has ${j.dof} degrees of freedom`, { hint: why });
  return j;
}
