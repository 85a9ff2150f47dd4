// urdf-pd: a two-link arm read from URDF text, held at a target by PD controllers.
//
// The robot is a URDF (inline here; loadUrdf('robot.urdf') reads a file): two
// links on revolute joints about y, gravity -9.80665 along z, the arm level at
// q = 0 and lowered by positive angles. A PD controller on each joint, added to
// the mechanism as a component of the model,
//   tau = kp (ref - q) + kd (0 - qd),
// pulls the arm from level to the target. Without gravity compensation the
// arm settles a little below it, where each joint's torque carries the weight
// outboard of it: kp (q - ref) = g (m1 lc1 + m2 L1) cos q1 + ... (the test
// solves these two equations by Newton and compares).
//
// Run it: npx tsx urdf-pd.ts
import { Revolute, compile, control, parseUrdf, simulate, urdfMechanism } from 'kron';

/** link k: mass, length, centre of mass from its joint; the gains; the target (rad) */
export const arm = { m1: 2, L1: 0.5, lc1: 0.25, m2: 1, lc2: 0.2, g: 9.80665 };
export const gains = { kp: 400, kd: 40 };
export const target = { shoulder: 0.3, elbow: 0.6 };

const urdf = `<robot name="arm">
  <link name="base"/>
  <link name="upper">
    <inertial><origin xyz="${arm.lc1} 0 0"/><mass value="${arm.m1}"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.04" iyz="0" izz="0.04"/></inertial>
  </link>
  <link name="fore">
    <inertial><origin xyz="${arm.lc2} 0 0"/><mass value="${arm.m2}"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.015" iyz="0" izz="0.015"/></inertial>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="10"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="upper"/><child link="fore"/><origin xyz="${arm.L1} 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="10"/>
  </joint>
</robot>`;

const { mechanism, warnings } = urdfMechanism(parseUrdf(urdf, 'arm.urdf'));
for (const w of warnings) console.log(`note: ${w}`);
// the URDF's joints are components of the mechanism, by their URDF names
const joint = (name: string) => mechanism.children.find((c): c is Revolute => c instanceof Revolute && c.localName === name)!;
for (const name of ['shoulder', 'elbow'] as const) {
  mechanism.add(new control.PD(`pd_${name}`, joint(name), { ...gains, ref: target[name] }));
}

const result = simulate(compile(mechanism), { stop: 3, interval: 0.5, signals: ['shoulder.q', 'elbow.q', 'pd_shoulder.tau', 'pd_elbow.tau'] });
export const final = { shoulder: result.final('shoulder.q'), elbow: result.final('elbow.q') };

console.log('time  shoulder.q  elbow.q');
for (let k = 0; k < result.length; k++)
  console.log(`${result.time[k].toFixed(1)}   ${result.get('shoulder.q')[k].toFixed(5)}     ${result.get('elbow.q')[k].toFixed(5)}`);
console.log(
  `error against the target at 3 s: shoulder ${(final.shoulder - target.shoulder).toFixed(5)} rad, elbow ${(final.elbow - target.elbow).toFixed(5)} rad`,
);
console.log(`torques holding the arm: ${result.final('pd_shoulder.tau').toFixed(3)} N m, ${result.final('pd_elbow.tau').toFixed(3)} N m`);
