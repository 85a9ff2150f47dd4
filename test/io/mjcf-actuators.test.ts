// MJCF armature, actuators and fixed tendons against MuJoCo itself: the same
// file (fixtures/mjcf/actuators.xml: armature on hinge, slide and ball
// joints; a motor, a position servo from a default class, a velocity servo,
// an affine general actuator, a motor on a tendon, a damper; two fixed
// tendons with springs and dampers) read by MuJoCo's compiler (WebAssembly,
// same process) with armature and actuation on, and by parseMjcf +
// mjcfMechanism. At random states and random controls, some outside their
// ctrlrange and some forces beyond their forcerange, MuJoCo's qacc equals
// Kron's der(qd), both forms, to 1e-10 relative. Constraints (joint and
// tendon limits) are off on both sides, contacts on MuJoCo's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import { type MjcfRobot, mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { ModelState } from '../../src/codegen/state.ts';
import type { MujocoPeer } from '../../src/bench/mujoco.ts';
import { ModelError } from '../../src/errors.ts';
import { rng } from '../../src/bench/timing.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { coordinateNames, freePeersAfterAll, jointsOf, smoothPeer, stateIndex } from './mjcf-peer.ts';

const xml = readFileSync(new URL('fixtures/mjcf/actuators.xml', import.meta.url), 'utf8');
freePeersAfterAll();

/** the inputs of the file's actuators in MuJoCo's order (the naming contract: mjcf-drives.ts) */
const CTRL = ['yaw_motor.ctrl', 'shoulder.ctrl', 'elbow_actuator0.ctrl', 'slide_servo.ctrl', 'pull.ctrl', 'elbow_actuator1.ctrl', 'yaw_actuator1.ctrl'];
/** the actuator components, whose force is clamped when it reaches its forcerange */
const FORCE = { shoulder_actuator: 3, elbow_actuator0: 5, slide_servo: 6 };

/**
 * The largest relative difference of Kron's der(qd) from MuJoCo's qacc over
 * 25 random states (angles in [-pi, pi], speeds in [-2, 2]) and controls in
 * [-span, span] on these inputs (MuJoCo's actuator order); each(state, ctrl)
 * sees every point after both evaluated it.
 */
function worstAtRandomStates(
  c: CompiledModel,
  robot: MjcfRobot,
  peer: MujocoPeer,
  inputs: readonly string[],
  seed: number,
  each?: (state: ModelState, ctrl: number[]) => void,
  span = 3,
): number {
  const names = coordinateNames(jointsOf(robot));
  const at = (n: string) => stateIndex(c, n);
  const state = c.createState();
  const rand = rng(seed);
  let worst = 0;
  for (let k = 0; k < 25; k++) {
    const x = Float64Array.from(c.stateNames, (n) => (2 * rand() - 1) * (n.endsWith('.q') ? Math.PI : 2));
    state.normalize(x);
    const ctrl = inputs.map(() => span * (2 * rand() - 1));
    inputs.forEach((n, i) => state.setInput(n, ctrl[i]));
    const dx = new Float64Array(x.length);
    state.derivatives(0, x, dx);
    const qacc = peer.accelerations(
      names.q.map((n) => x[at(n)]),
      names.v.map((n) => x[at(n)]),
      undefined,
      ctrl,
    );
    const kron = names.v.map((n) => dx[at(n)]);
    worst = Math.max(worst, Math.max(...kron.map((a, i) => Math.abs(a - qacc[i]))) / Math.max(...kron.map(Math.abs)));
    each?.(state, ctrl);
  }
  return worst;
}

describe('MJCF actuators, armature and fixed tendons: Kron der(qd) equals MuJoCo qacc', () => {
  it('reads each actuator with its law, clamps and number, the tendons, and names the inputs by the contract', () => {
    const robot = parseMjcf(xml, 'actuators.xml');
    expect(robot.actuators.map((a) => [a.index, a.kind, a.joint ?? a.tendon, a.gear, a.gain, a.bias, a.ctrlrange, a.forcerange])).toEqual([
      [0, 'motor', 'yaw', 3, [1, 0, 0], [0, 0, 0], [-1, 1], undefined],
      [1, 'position', 'shoulder', 1, [50, 0, 0], [0, -50, -2], undefined, [-3, 3]],
      [2, 'velocity', 'elbow', 1, [4, 0, 0], [0, 0, -4], [-2, 2], [-5, 5]],
      [3, 'general', 'slide', 1, [2, 0.5, 0.1], [0.3, -4, -1], [-1, 2], [-6, 6]],
      [4, 'motor', 'coupling', 2, [1, 0, 0], [0, 0, 0], [-1, 1], undefined],
      [5, 'damper', 'elbow', 1, [0, 0, -0.5], [0, 0, 0], [0, 1], undefined],
      [6, 'general', 'yaw', 0.5, [1.5, 0, 0], [0, 0, 0], undefined, undefined],
    ]);
    expect(robot.tendons.map((t) => [t.name, t.joints.map((j) => [j.joint, j.coef]), t.stiffness, t.springlength, t.damping, t.range])).toEqual([
      [
        'coupling',
        [
          ['shoulder', 1],
          ['elbow', -0.5],
        ],
        5,
        0.1,
        0.3,
        [-1, 1],
      ],
      [
        'at-rest',
        [
          ['yaw', 2],
          ['slide', 1],
        ],
        3,
        0,
        0.2,
        undefined,
      ],
    ]);
    const { mechanism, warnings } = mjcfMechanism(robot);
    expect(warnings).toEqual([
      'tendon at-rest is the component at_rest',
      'tendon ranges are limit springs (limits.ts), where MuJoCo uses constraints: coupling',
      'actuator yaw-motor is the component yaw_motor',
      'actuator slide servo is the component slide_servo',
    ]);
    const c = compile(mechanism);
    expect(c.generated.layout.inputs).toEqual(expect.arrayContaining(CTRL));
    expect(c.signalNames()).toContain('at_rest.F');
  });

  for (const mode of ['relaxed', 'torn'] as Mode[]) {
    it(`25 random states and controls, clamps engaged; ${mode}: to 1e-10`, async () => {
      const robot = parseMjcf(xml, 'actuators.xml');
      const c = compile(mjcfMechanism(robot, { limitsAndFriction: false }).mechanism, { mode });
      const peer = await smoothPeer(xml);
      expect([peer.nv, peer.model.nu]).toEqual([7, 7]);
      let ctrlClamped = 0,
        forceClamped = 0;
      // controls in [-3, 3]: the ranges are [-1, 1] to [-2, 2], so many are clamped
      const worst = worstAtRandomStates(c, robot, peer, CTRL, 31, (state, ctrl) => {
        // MuJoCo's actuator forces after its clamps equal Kron's <actuator>.force signals
        const mjForce = Float64Array.from(peer.data.actuator_force as Float64Array);
        expect(state.signal('shoulder_actuator.force')).toBeCloseTo(mjForce[1], 10);
        forceClamped += Object.entries(FORCE).filter(([a, limit]) => Math.abs(Math.abs(state.signal(`${a}.force`)) - limit) < 1e-12).length;
        ctrlClamped += ctrl.filter((u) => Math.abs(u) > 2).length;
      });
      expect(worst, `largest relative difference, ${mode}`).toBeLessThan(1e-10);
      expect(forceClamped).toBeGreaterThan(5);
      expect(ctrlClamped).toBeGreaterThan(5);
    });
  }
});

describe("the fixtures' own actuators at random controls: Kron der(qd) equals MuJoCo qacc", () => {
  // the humanoid's 21 motors are named after their joints: their inputs are the joints' <name>.ctrl
  const files: [string, string][] = [
    ['humanoid.xml', 'ctrllimited motors from a default class, on the joints they are named after; fixed tendons'],
    ['iiwa14.xml', "menagerie's position servos as <general> with affine bias and ctrlrange"],
  ];
  for (const [file, what] of files) {
    for (const mode of ['relaxed', 'torn'] as Mode[]) {
      it(`${file}: ${what}; ${mode}, 25 states to 1e-10`, async () => {
        const text = readFileSync(new URL(`fixtures/mjcf/${file}`, import.meta.url), 'utf8');
        const robot = parseMjcf(text, file);
        const c = compile(mjcfMechanism(robot, { limitsAndFriction: false }).mechanism, { mode });
        const peer = await smoothPeer(text);
        const inputs = robot.actuators.map((a) => `${a.name!.replace(/[^A-Za-z0-9_]/g, '_')}.ctrl`);
        expect(inputs.length).toBe(peer.model.nu);
        const worst = worstAtRandomStates(c, robot, peer, inputs, 5);
        expect(worst, `largest relative difference in ${file}, ${mode}`).toBeLessThan(1e-10);
      });
    }
  }
});

describe("a position servo's dampratio (kv from the inertia at qpos0, as MuJoCo's compiler makes it) and a joint's actuatorfrcrange", () => {
  // turned bodies, joint anchors away from the body frames, armature, a slide, a ball joint in the subtree, a gear and a tendon;
  // h1's and h2's actuator forces (their servos' and the tendon servo's) clamped to their joints' actuatorfrcrange
  const xml = `<mujoco><compiler angle="radian"/>
  <worldbody>
    <body name="a" pos="0.1 0 1" quat="0.9 0.1 0.3 0.2"><joint name="h1" axis="0 1 0.3" pos="0.05 0 0.02" armature="0.1" ref="0.4" actuatorfrcrange="-2 2"/>
      <inertial pos="0.2 0.01 0" quat="1 0.2 0 0.1" mass="2" diaginertia="0.05 0.08 0.1"/>
      <body name="b" pos="0.5 0 0" euler="0.3 0 0.2"><joint name="s" type="slide" axis="1 0.2 0" armature="0.3"/>
        <inertial pos="0.1 0 0" mass="0.7" diaginertia="0.01 0.02 0.02"/>
        <body name="c" pos="0.2 0.1 0"><joint name="ball" type="ball"/>
          <inertial pos="0 0 -0.2" mass="0.4" diaginertia="0.004 0.005 0.003"/>
          <body name="d" pos="0 0 -0.3" quat="0 1 0 0"><joint name="h2" axis="1 0 0" pos="0 0.1 0" actuatorfrclimited="true" actuatorfrcrange="-0.5 0.5"/>
            <inertial pos="0.1 0 0" mass="0.3" diaginertia="0.002 0.003 0.003"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="h1" coef="0.5"/><joint joint="h2" coef="-1"/></fixed></tendon>
  <actuator>
    <position name="p1" joint="h1" kp="30" dampratio="0.7" gear="2"/>
    <position name="p2" joint="s" kp="80" dampratio="1"/>
    <position name="p3" joint="h2" kp="5" dampratio="0.5"/>
    <position name="p4" tendon="t" kp="12" dampratio="1.2" gear="1.5"/>
  </actuator>
</mujoco>`;
  for (const mode of ['relaxed', 'torn'] as Mode[]) {
    it(`qacc at 25 random states and controls agrees to 1e-10 (${mode}); kv agrees with MuJoCo's actuator_biasprm to 1e-12`, async () => {
      const robot = parseMjcf(xml, 'dampratio.xml');
      const { mechanism, warnings } = mjcfMechanism(robot, { limitsAndFriction: false });
      expect(warnings).toEqual([]);
      const c = compile(mechanism, { mode, foldParameters: false });
      const peer = await smoothPeer(xml);
      const kv = Array.from(peer.model.actuator_biasprm as Float64Array).filter((_, i) => i % 10 === 2);
      ['p1', 'p2', 'p3', 'p4'].forEach((a, i) => expect(Math.abs(c.signal(`${a}.bias[3]`) / kv[i] - 1), a).toBeLessThan(1e-12));
      let clamped = 0;
      const worst = worstAtRandomStates(
        c,
        robot,
        peer,
        ['p1.ctrl', 'p2.ctrl', 'p3.ctrl', 'p4.ctrl'],
        3,
        () => {
          // MuJoCo's qfrc_actuator on h1 (dof 0) and h2 (dof 5) at their clamps
          const q = peer.data.qfrc_actuator as Float64Array;
          clamped += Number(Math.abs(q[0]) === 2) + Number(Math.abs(q[5]) === 0.5);
        },
        1,
      );
      expect(worst).toBeLessThan(1e-10);
      expect(clamped).toBeGreaterThan(5);
    });
  }
});

describe('MJCF actuators and tendons Kron does not model: warnings naming them; what cannot be read: model errors at the line', () => {
  const robot = (actuators: string, tendons = '') =>
    parseMjcf(
      `<mujoco>
  <worldbody>
    <body name="a"><joint name="hinge"/><geom size="0.1"/>
      <body name="b" pos="0 0 -0.3"><joint name="ball" type="ball"/><geom size="0.1"/><site name="s"/></body>
    </body>
  </worldbody>
  <tendon>${tendons}</tendon>
  <actuator>${actuators}</actuator>
</mujoco>`,
      'w.xml',
    );
  // the geoms' warning (contacts) is every file's: left out here
  const warnings = (actuators: string, tendons = '') => mjcfMechanism(robot(actuators, tendons)).warnings.filter((w) => !w.startsWith('geoms are drawn'));

  it('warns, naming the element and line, and leaves out what it does not model', () => {
    expect(warnings('<muscle joint="hinge"/><intvelocity joint="hinge"/><cylinder joint="hinge"/><adhesion body="a"/>')).toEqual([
      'w.xml:8: <muscle>: muscle actuators are not modelled (left out)',
      'w.xml:8: <intvelocity>: intvelocity actuators are not modelled (left out)',
      'w.xml:8: <cylinder>: cylinder actuators are not modelled (left out)',
      'w.xml:8: <adhesion>: adhesion actuators are not modelled (left out)',
    ]);
    expect(warnings('<motor name="m" site="s"/>')).toEqual(['w.xml:8: <motor name="m">: its site transmission is not modelled (left out)']);
    expect(warnings('<general joint="hinge" dyntype="muscle"/><general joint="hinge" dyntype="filter" actearly="true"/>')).toEqual([
      'w.xml:8: <general>: dyntype muscle (activation dynamics) is not modelled (left out)',
      "w.xml:8: <general>: actearly (the force from the next step's activation) is not modelled (left out)",
    ]);
    expect(warnings('<general joint="hinge" gaintype="muscle"/>')).toEqual(['w.xml:8: <general>: gaintype muscle is not modelled (left out)']);
    expect(warnings('<motor name="m" joint="ball"/>')).toEqual(['w.xml:8: <motor name="m">: drives the 3-dof joint ball: not modelled (left out)']);
    expect(warnings('', '<spatial name="cable"><site site="s"/></spatial><fixed frictionloss="1"><joint joint="hinge"/></fixed>')).toEqual([
      'w.xml:7: <spatial name="cable">: spatial tendons are not modelled (left out)',
      'w.xml:7: <fixed>: frictionloss is not modelled',
    ]);
  });

  it('an actuator named after a body: its input is on the body component, <name>.ctrl; the body keeps its name', () => {
    const { mechanism, warnings } = mjcfMechanism(robot('<motor name="a" joint="hinge" gear="2"/>'));
    expect(warnings.filter((w) => !w.startsWith('geoms are drawn'))).toEqual([]); // the documented rule, not a rename: no warning
    const c = compile(mechanism);
    expect(c.generated.layout.inputs).toContain('a.ctrl');
    c.setInput('a.ctrl', 0.7);
    c.derivatives(0, c.x0(), new Float64Array(c.stateNames.length));
    expect(c.signal('a_actuator.force')).toBe(0.7);
    expect(c.signal('a.m')).toBeGreaterThan(0); // the body a, with its mass from its geom
  });

  it('refuses, naming the element and line: an unknown joint or tendon, no transmission, an empty ctrlrange, a negative kv, a tendon over a ball joint', () => {
    const refused =
      (actuators: string, tendons = '') =>
      () =>
        mjcfMechanism(robot(actuators, tendons));
    expect(refused('<motor name="m" joint="elbow"/>')).toThrow(/MJCF w.xml:8: <motor name="m">: joint "elbow" is not a joint of the file/);
    expect(refused('<motor tendon="t"/>')).toThrow(/MJCF w.xml:8: <motor>: tendon "t" is not a fixed tendon of the file/);
    expect(refused('<motor/>')).toThrow(/MJCF w.xml:8: <motor>: has no transmission/);
    expect(refused('<motor joint="hinge" ctrlrange="1 1"/>')).toThrow(/MJCF w.xml:8: <motor>: ctrlrange lower 1 is not below upper 1/);
    expect(refused('<velocity joint="hinge" kv="-2"/>')).toThrow(/MJCF w.xml:8: <velocity>: kv -2 is negative/);
    expect(refused('', '<fixed><joint joint="ball"/></fixed>')).toThrow(/MJCF w.xml:7: <joint>: joint "ball" has 3 degrees of freedom/);
    for (const f of [refused('<motor/>'), refused('', '<fixed><joint joint="ball"/></fixed>')]) expect(f).toThrow(ModelError);
  });
});

describe('MJCF activation dynamics: the state <actuator>.act against MuJoCo act_dot and qacc', () => {
  const ACT = `<mujoco model="act">
  <worldbody>
    <body name="upper" pos="0 0 1">
      <joint name="shoulder" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
      <body name="lower" pos="0.3 0 0">
        <joint name="elbow" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.025"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <general name="integ" joint="shoulder" dyntype="integrator" actlimited="true" actrange="-1.5 1.5" gainprm="2" ctrlrange="-1 1"/>
    <general name="filt" joint="elbow" dyntype="filter" dynprm="0.05" gainprm="3" biastype="affine" biasprm="0 -1 -0.2"/>
    <motor name="plain" joint="shoulder"/>
    <position name="servo" joint="elbow" kp="20" kv="1" timeconst="0.1"/>
  </actuator>
</mujoco>`;
  const CTRLS = ['integ.ctrl', 'filt.ctrl', 'plain.ctrl', 'servo.ctrl'];
  const ACTS = ['integ.act', 'filt.act', 'servo.act'];

  for (const mode of ['relaxed', 'torn'] as Mode[]) {
    it(`integrator (actrange), filter (dynprm), position timeconst: der(act) = act_dot and der(qd) = qacc at 25 states, ${mode}, to 1e-10`, async () => {
      const robot = parseMjcf(ACT, 'act.xml');
      expect(robot.actuators.map((a) => a.dyn)).toEqual([
        { type: 'integrator', tau: 1, actrange: [-1.5, 1.5] },
        { type: 'filter', tau: 0.05 },
        undefined,
        { type: 'filter', tau: 0.1 },
      ]);
      const c = compile(mjcfMechanism(robot, { limitsAndFriction: false }).mechanism, { mode });
      const peer = await smoothPeer(ACT);
      expect([peer.model.nu, peer.model.na]).toEqual([4, 3]);
      const names = coordinateNames(jointsOf(robot));
      const at = (n: string) => stateIndex(c, n);
      const state = c.createState();
      const rand = rng(5);
      let worst = 0;
      for (let k = 0; k < 25; k++) {
        // act inside its range (MuJoCo keeps it there), controls beyond the ctrlrange too
        const x = Float64Array.from(c.stateNames, (n) => (2 * rand() - 1) * (n.endsWith('.q') ? Math.PI : 1.4));
        const ctrl = CTRLS.map(() => 4 * rand() - 2);
        CTRLS.forEach((n, i) => state.setInput(n, ctrl[i]));
        const dx = new Float64Array(x.length);
        state.derivatives(0, x, dx);
        const act = ACTS.map((n) => x[at(n)]);
        const qacc = peer.accelerations(
          names.q.map((n) => x[at(n)]),
          names.v.map((n) => x[at(n)]),
          undefined,
          ctrl,
          act,
        );
        const actDot = Float64Array.from(peer.data.act_dot as Float64Array);
        const kron = [...names.v.map((n) => dx[at(n)]), ...ACTS.map((n) => dx[at(n)])],
          mj = [...qacc, ...actDot];
        worst = Math.max(worst, Math.max(...kron.map((a, i) => Math.abs(a - mj[i]))) / Math.max(...mj.map(Math.abs)));
      }
      expect(worst).toBeLessThan(1e-10);
    });
  }

  it('an integrator held at its actrange: act stops at the bound (within one solver step) and the force is gain x bound exactly', () => {
    const c = compile(mjcfMechanism(parseMjcf(ACT, 'act.xml'), { limitsAndFriction: false }).mechanism);
    const r = simulate(c, { stop: 3, interval: 0.5, inputs: { 'integ.ctrl': 1 }, signals: ['integ.act', 'integ.force'] });
    const act = Array.from(r.get('integ.act'));
    // der(act) = ctrl = 1 from 0: the bound 1.5 is reached at t = 1.5 s and held; the projection stops act
    // within the step that crosses it (5e-4 here), and the force is made of act clamped to the range, as MuJoCo's act is
    expect(act[1]).toBeCloseTo(0.5, 6);
    expect(Math.max(...act.slice(3).map((a) => Math.abs(a - 1.5)))).toBeLessThan(1e-3);
    expect(act.at(-1)).toBe(act[4]);
    expect(r.final('integ.force')).toBe(3);
  });
});
