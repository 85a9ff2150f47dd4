// The harness shared by the MJCF tests against MuJoCo: the same XML file read
// by MuJoCo's own compiler (its WebAssembly build, same process) and by
// parseMjcf + mjcfMechanism, and the importer's state contract that maps one
// onto the other: hinge and slide j.q = qpos, j.qd = qvel; ball j.Q = qpos,
// j.w = qvel; free j.r, j.Q = qpos, j.v, j.w = qvel; joints depth first, in
// file order within a body (MuJoCo's order).
import { afterAll } from 'vitest';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { MjcfRobot } from '../../src/io/mjcf.ts';
import { MujocoPeer, mujoco, mujocoReadable } from '../../src/bench/mujoco.ts';
import { rng } from '../../src/bench/timing.ts';

const peers: MujocoPeer[] = [];
/** call once at the top of a test file: the peers it made are freed after it */
export function freePeersAfterAll(): void {
  afterAll(() => peers.splice(0).forEach((p) => p.delete()));
}

export interface SmoothOptions {
  /** keep the joints' armature (default true: Kron models it; false sets it to 0) */
  armature?: boolean;
  /** keep actuation (default true: Kron models actuators, at data.ctrl = 0 unless set; false disables it) */
  actuation?: boolean;
  /** files MuJoCo reads by name (mesh files): given, mesh assets stay in the text */
  files?: Record<string, Uint8Array>;
}

/**
 * MuJoCo's model of the file with only the smooth dynamics: no contacts, no
 * constraints (joint limits, friction loss, tendon limits, equality).
 * Armature and actuation stay (Kron models both: its actuators' ctrl inputs
 * start at 0 as MuJoCo's data.ctrl does). Mesh assets are taken out of the
 * text (their files are not here; every body that has one must have an
 * <inertial>) unless options.files gives their files.
 */
export async function smoothPeer(xml: string, options: SmoothOptions = {}): Promise<MujocoPeer> {
  const mj = await mujoco();
  const peer = options.files ? await MujocoPeer.fromXml(xml, options.files) : await MujocoPeer.fromXml(mujocoReadable(xml));
  peers.push(peer);
  const d = mj.mjtDisableBit;
  const flags = d.mjDSBL_CONTACT.value | d.mjDSBL_CONSTRAINT.value | ((options.actuation ?? true) ? 0 : d.mjDSBL_ACTUATION.value);
  peer.model.opt.disableflags = flags as number;
  if (options.armature === false) (peer.model.dof_armature as Float64Array).fill(0);
  return peer;
}

/** the importer's joint names (the contract) with their types, in MuJoCo's order */
export function jointsOf(robot: MjcfRobot): { name: string; type: string }[] {
  const joints: { name: string; type: string }[] = [];
  const walk = (b: MjcfRobot['bodies'][number]) => {
    b.joints.forEach((j, k) =>
      joints.push({ name: (j.name ?? (j.type === 'free' ? `${b.name}_free` : `${b.name}_joint${k}`)).replace(/[^A-Za-z0-9_]/g, '_'), type: j.type }),
    );
    b.children.forEach(walk);
  };
  robot.bodies.forEach(walk);
  return joints;
}

/** Kron's state names in MuJoCo's qpos and qvel order */
export function coordinateNames(joints: readonly { name: string; type: string }[]): { q: string[]; v: string[] } {
  const names = { q: [] as string[], v: [] as string[] };
  const i3 = [1, 2, 3];
  for (const { name, type } of joints) {
    if (type === 'free') {
      names.q.push(...i3.map((i) => `${name}.r[${i}]`), ...[1, 2, 3, 4].map((i) => `${name}.Q[${i}]`));
      names.v.push(...i3.map((i) => `${name}.v[${i}]`), ...i3.map((i) => `${name}.w[${i}]`));
    } else if (type === 'ball') {
      names.q.push(...[1, 2, 3, 4].map((i) => `${name}.Q[${i}]`));
      names.v.push(...i3.map((i) => `${name}.w[${i}]`));
    } else {
      names.q.push(`${name}.q`);
      names.v.push(`${name}.qd`);
    }
  }
  return names;
}

/** the index of a state of the compiled model, or a thrown Error naming it */
export function stateIndex(c: CompiledModel, name: string): number {
  const i = c.stateNames.indexOf(name);
  if (i < 0) throw new Error(`${name} is not a Kron state`);
  return i;
}

/**
 * the largest difference between Kron's der(qd) (der(v), der(w)) and
 * MuJoCo's qacc over random states (hinge and slide angles in [-pi, pi),
 * the rest in [-1, 1), quaternions normalised), relative to the largest
 * acceleration of each state
 */
export function worstQaccDifference(c: CompiledModel, robot: MjcfRobot, peer: MujocoPeer, states = 25, seed = 7): number {
  const names = coordinateNames(jointsOf(robot));
  if (names.q.length + names.v.length !== c.stateNames.length)
    throw new Error(`Kron has ${c.stateNames.length} states, MuJoCo's qpos and qvel ${names.q.length + names.v.length}`);
  const at = (n: string) => stateIndex(c, n);
  const state = c.createState();
  const rand = rng(seed);
  let worst = 0;
  for (let k = 0; k < states; k++) {
    const x = Float64Array.from(c.stateNames, (n) => (2 * rand() - 1) * (n.endsWith('.q') ? Math.PI : 1));
    state.normalize(x);
    const dx = new Float64Array(x.length);
    state.derivatives(0, x, dx);
    const qacc = peer.accelerations(
      names.q.map((n) => x[at(n)]),
      names.v.map((n) => x[at(n)]),
    );
    const kron = names.v.map((n) => dx[at(n)]);
    const scale = Math.max(...kron.map(Math.abs));
    worst = Math.max(worst, Math.max(...kron.map((a, i) => Math.abs(a - qacc[i]))) / scale);
  }
  return worst;
}
