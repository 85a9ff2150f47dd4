// Menagerie's Unitree Go2 (test/io/fixtures/mjcf/go2.xml, a floating
// quadruped with its collision geoms) standing on the floor under a PD
// posture controller, in Kron and in MuJoCo (its WebAssembly build, same
// process), from the same file: the scene of test/contact/robots.test.ts and
// bench/contact-robots.ts.
// The PD law is the same code on both sides: on every leg joint's motor
// ctrl = kp (q_home - q) - kd qd, clamped by the motors' ctrlrange (both
// clamp), q_home the file's keyframe "home". It starts 2 cm above the home
// key's height (where the feet are 1.8 cm in the floor), at rest.
// The contact laws cannot be made equal: MuJoCo's is a soft constraint
// solved per step whose stiffness grows with depth (the feet's solimp
// "0.015 1 0.031": impedance 0.015 at the surface, 1 at 31 mm), Kron's a
// spring-damper. Kron's feet get the linear law whose rest depth equals
// MuJoCo's (a quarter of the weight over MuJoCo's mean foot depth at rest,
// 17.45 mm, measured on the run below: k = 2137 N/m), critically damped for
// a quarter of the robot's mass; MuJoCo's friction (the foot's 0.8: its
// priority 1 over the floor makes its parameters the pair's) is kept. The importer's own mapping (src/io/mjcf-solref.ts:
// MuJoCo's rest depth for a body carrying its own weight, k = 171 N/m on a
// calf of 0.2414 kg) would sink the feet 22 cm: a foot carries a quarter of
// the robot (37.3 N, 16 times its calf's weight), where this solimp is far
// stiffer, and MuJoCo weighs the calf as 0.566 kg (its body_invweight0, the
// leg's inertia seen from the foot), so the hand fit stays.
import { readFileSync } from 'node:fs';
import { compile } from '../../src/index.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { ContactScene } from '../../src/contact/scene.ts';
import type { FrictionLaw } from '../../src/contact/law.ts';
import { Body } from '../../src/library/multibody/body.ts';
import type { Mechanism } from '../../src/library/multibody/mechanism.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import type { Controller } from '../../src/sim/controller.ts';
import { MujocoPeer, mujoco, mujocoReadable } from '../../src/bench/mujoco.ts';

export const FIXTURES = new URL('../../test/io/fixtures/mjcf/', import.meta.url).pathname;
const read = (f: string) => readFileSync(FIXTURES + f, 'utf8');

export const G = 9.81;
/** the PD gains on every leg joint (N m/rad, N m s/rad) */
export const KP = 100,
  KD = 2;
/** the base's start height: the home key's 0.27 m plus 2 cm, feet 1.6 mm above the floor */
export const START_HEIGHT = 0.29;
/** Kron's foot law (header): stiffness from MuJoCo's rest depth, damping critical for a quarter of the mass */
export const FOOT_STIFFNESS = 2137;
const LEGS = ['FL', 'FR', 'RL', 'RR'];
/** the home key's leg angles: hip, thigh, calf */
export const HOME = [0, 0.9, -1.8];
const JOINTS = ['hip', 'thigh', 'calf'];

export interface Go2 {
  mechanism: Mechanism;
  compiled: CompiledModel;
  contact: ContactScene;
  controller: Controller;
  /** the robot's mass, kg */
  mass: number;
  /** each body's contact_f[3]: their sum is the floor's total normal force (the floor is horizontal) */
  normalForces: string[];
  start: Record<string, number>;
}

// (options) => the Go2 scene in Kron, with its PD controller and the foot law of the header
export function go2Kron(options: { mode?: 'torn' | 'relaxed'; friction?: FrictionLaw } = {}): Go2 {
  const robot = parseMjcf(read('go2-scene.xml'), 'go2-scene.xml', { readFile: read });
  const { mechanism } = mjcfMechanism(robot, { contact: true, keyframe: 'home' });
  const bodies = mechanism.children.filter((c): c is Body => c instanceof Body);
  const mass = bodies.reduce((m, b) => m + b.mass, 0);
  const damping = 2 * Math.sqrt((FOOT_STIFFNESS * mass) / 4);
  for (const b of bodies) for (const c of b.collision) c.material = { stiffness: FOOT_STIFFNESS, damping, friction: c.material?.friction ?? 1 };
  const compiled = compile(mechanism, options.mode && { mode: options.mode });
  const names = LEGS.flatMap((l) => JOINTS.map((j, k) => ({ ctrl: `${l}_${j}.ctrl`, q: `${l}_${j}_joint.q`, qd: `${l}_${j}_joint.qd`, ref: HOME[k] })));
  const controller: Controller = function go2Pd(_t, s, u) {
    for (const n of names) u[n.ctrl] = KP * (n.ref - s[n.q]) - KD * s[n.qd];
  };
  return {
    mechanism,
    compiled,
    controller,
    mass,
    contact: ContactScene.of(mechanism, { friction: options.friction }),
    normalForces: compiled.signalNames().filter((n) => n.endsWith('.contact_f[3]')),
    start: { 'base_free.r[3]': START_HEIGHT },
  };
}

/**
 * The scene as one MJCF file MuJoCo C can step alone (bench_mujoco_xml has no
 * controller): the file with its include inlined and meshes out
 * (mujocoReadable), each motor a <general> servo whose force is the PD law
 * of go2Mujoco's advance() with ctrl = q_home (gain kp, bias -kp q - kd qd,
 * the force clamped to the motor's ctrlrange as the motor clamps its ctrl),
 * and the home key's base START_HEIGHT high.
 */
export function go2PdXml(): string {
  const text = mujocoReadable(read('go2-scene.xml'), read);
  const limit = (cls: string) => (cls === 'knee' ? 45.43 : 23.7);
  return text
    .replace(
      /<motor class="(\w+)" name="(\w+)" joint="(\w+)"\/>/g,
      (_all, cls: string, name: string, joint: string) =>
        `<general class="${cls}" name="${name}" joint="${joint}" gainprm="${KP}" biastype="affine" biasprm="0 -${KP} -${KD}" forcerange="-${limit(cls)} ${limit(cls)}"/>`,
    )
    .replace('qpos="0 0 0.27 ', `qpos="0 0 ${START_HEIGHT} `);
}

/** MuJoCo stepping the same file: base position, the floor's total normal force, its foot depths */
export interface MujocoGo2 {
  peer: MujocoPeer;
  /** the time step, s (the file's: MuJoCo's default 0.002) */
  step: number;
  mass: number;
  /** one step of MuJoCo (mj_step) with the PD law applied */
  advance(): void;
  time(): number;
  base(): [number, number, number];
  /** the sum of the contacts' normal forces (mj_contactForce), N */
  normalForce(): number;
  /** the contacts' penetration depths, m (-dist) */
  depths(): number[];
}

// () => MuJoCo's Go2 at the same start, PD the same (actuator_trnid maps MuJoCo's actuator order FR, FL, RR, RL onto the joints)
export async function go2Mujoco(): Promise<MujocoGo2> {
  const mj = await mujoco();
  const peer = await MujocoPeer.fromXml(mujocoReadable(read('go2-scene.xml'), read));
  const { model, data } = peer;
  mj.mj_resetDataKeyframe(model, data, 0);
  (data.qpos as Float64Array)[2] = START_HEIGHT;
  const trn = model.actuator_trnid as Int32Array,
    qadr = model.jnt_qposadr as Int32Array,
    dadr = model.jnt_dofadr as Int32Array;
  const act = Array.from({ length: model.nu }, (_, a) => ({ q: qadr[trn[2 * a]], v: dadr[trn[2 * a]], ref: HOME[a % 3] }));
  const mass = (model.body_mass as Float64Array).reduce((a, b) => a + b, 0);
  const f6 = new mj.DoubleBuffer(6);
  return {
    peer,
    step: model.opt.timestep,
    mass,
    advance() {
      const q = data.qpos as Float64Array,
        v = data.qvel as Float64Array,
        ctrl = data.ctrl as Float64Array;
      act.forEach((a, i) => (ctrl[i] = KP * (a.ref - q[a.q]) - KD * v[a.v]));
      mj.mj_step(model, data);
    },
    time: () => data.time,
    base: () => {
      const q = data.qpos as Float64Array;
      return [q[0], q[1], q[2]];
    },
    normalForce() {
      let fn = 0;
      for (let i = 0; i < data.ncon; i++) (mj.mj_contactForce(model, data, i, f6), (fn += (f6.GetView() as Float64Array)[0]));
      return fn;
    },
    depths: () => Array.from({ length: data.ncon }, (_, i) => -(data.contact as unknown as { get(i: number): { dist: number } }).get(i).dist),
  };
}
