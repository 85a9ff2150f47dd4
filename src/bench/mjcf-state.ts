// src/bench/mjcf-state: Kron's states as MuJoCo's qpos and qvel, and MuJoCo's
// qacc as Kron's accelerations, joint by joint in the order of the written
// model (mjcf.ts), for comparing the two engines at the same state:
//   hinge, slide  qpos q                     qvel qd          qacc der(qd)
//   ball          qpos Q (w, x, y, z)        qvel w           qacc der(w) = wd
//   free          qpos r_a + R_a r, Q_a Q    qvel R_a v, w    qacc R_a vd, wd
// Generalized forces (MuJoCo's qfrc_applied, Kron's inputs) as the velocities:
// j.tau; j.tau[1..3] about frame_b's axes; R_a f, tau for a free joint.
// Kron's ball joint holds MuJoCo's numbers (quaternion.ts: the rotation of
// frame_b relative to frame_a, the relative angular velocity in frame_b).
// MuJoCo's free joint holds the body's pose in the world and the linear
// velocity of its origin in world coordinates, the angular velocity in the
// body's: Kron's holds frame_b relative to frame_a, v in frame_a's
// coordinates, w in frame_b's. So the two agree when frame_a is the world's
// frame (a URDF robot's root); otherwise frame_a's world pose (R_a, r_a), the
// free joint's MJCF body placed in the world, turns one into the other.
import type { Mjcf, MjcfBody, MjcfJoint } from './mjcf.ts';
import { quaternion } from './mujoco.ts';

/** a joint of the written model, where its numbers start in qpos and qvel */
export interface MjcfCoordinates {
  joint: MjcfJoint;
  /** the MJCF body it moves: for a free joint, frame_a's pose in the world */
  body: MjcfBody;
  qpos: number;
  qvel: number;
}

const NQ = { hinge: 1, slide: 1, ball: 4, free: 7 };
const NV = { hinge: 1, slide: 1, ball: 3, free: 6 };

// (written model) => its joints in qpos / qvel order (depth first, as MuJoCo numbers them)
export function coordinates(doc: Mjcf): MjcfCoordinates[] {
  const out: MjcfCoordinates[] = [];
  let qpos = 0,
    qvel = 0;
  const walk = (body: MjcfBody) => {
    out.push({ joint: body.joint, body, qpos, qvel });
    qpos += NQ[body.joint.type];
    qvel += NV[body.joint.type];
    body.children.forEach(walk);
  };
  doc.bodies.forEach(walk);
  return out;
}

/** the Kron states whose derivatives MuJoCo's qacc holds, in qvel order: j.qd; j.w[1..3]; j.v[1..3], j.w[1..3] */
export function velocityStates(doc: Mjcf): string[] {
  return coordinates(doc).flatMap(({ joint: { name, type } }) => {
    const w = [1, 2, 3].map((i) => `${name}.w[${i}]`);
    return type === 'free' ? [...[1, 2, 3].map((i) => `${name}.v[${i}]`), ...w] : type === 'ball' ? w : [`${name}.qd`];
  });
}

// (written model, Kron's state by signal name) => MuJoCo's qpos and qvel
export function mujocoState(doc: Mjcf, state: (name: string) => number): { qpos: Float64Array; qvel: Float64Array } {
  const at = coordinates(doc),
    last = at[at.length - 1];
  const qpos = new Float64Array(last ? last.qpos + NQ[last.joint.type] : 0),
    qvel = new Float64Array(last ? last.qvel + NV[last.joint.type] : 0);
  for (const {
    joint: { name, type },
    body,
    qpos: p,
    qvel: v,
  } of at) {
    const read = (s: string, n: number) => Array.from({ length: n }, (_, i) => state(`${name}.${s}[${i + 1}]`));
    if (type === 'hinge' || type === 'slide') {
      qpos[p] = state(`${name}.q`);
      qvel[v] = state(`${name}.qd`);
    } else if (type === 'ball') {
      qpos.set(read('Q', 4), p);
      qvel.set(read('w', 3), v);
    } else {
      const R = body.R;
      qpos.set(
        body.pos.map((o, i) => o + dotRow(R, i, read('r', 3))),
        p,
      );
      qpos.set(product(quaternion(R), read('Q', 4)), p + 3);
      qvel.set(
        [0, 1, 2].map((i) => dotRow(R, i, read('v', 3))),
        v,
      );
      qvel.set(read('w', 3), v + 3);
    }
  }
  return { qpos, qvel };
}

// (written model, Kron's inputs by signal name) => MuJoCo's qfrc_applied: j.tau; j.tau[1..3]; R_a j.f[1..3], j.tau[1..3]
export function mujocoForces(doc: Mjcf, input: (name: string) => number): Float64Array {
  const at = coordinates(doc),
    last = at[at.length - 1];
  const qfrc = new Float64Array(last ? last.qvel + NV[last.joint.type] : 0);
  for (const {
    joint: { name, type },
    body,
    qvel: v,
  } of at) {
    const read = (s: string) => [1, 2, 3].map((i) => input(`${name}.${s}[${i}]`));
    if (type === 'hinge' || type === 'slide') qfrc[v] = input(`${name}.tau`);
    else if (type === 'ball') qfrc.set(read('tau'), v);
    else {
      // Kron's f acts along frame_a's axes, MuJoCo's linear generalized force along the world's
      qfrc.set(
        [0, 1, 2].map((i) => dotRow(body.R, i, read('f'))),
        v,
      );
      qfrc.set(read('tau'), v + 3);
    }
  }
  return qfrc;
}

// (written model, MuJoCo's qacc) => Kron's accelerations, keyed by the velocity state they are the derivative of
export function kronAccelerations(doc: Mjcf, qacc: ArrayLike<number>): Map<string, number> {
  const out = new Map<string, number>();
  const names = velocityStates(doc);
  for (const { joint, body, qvel: v } of coordinates(doc)) {
    if (joint.type !== 'free') continue;
    // vd = R_a^T (MuJoCo's world-resolved linear acceleration)
    const R = body.R,
      a = [qacc[v], qacc[v + 1], qacc[v + 2]];
    [0, 1, 2].forEach((i) => out.set(`${joint.name}.v[${i + 1}]`, R[i] * a[0] + R[3 + i] * a[1] + R[6 + i] * a[2]));
  }
  names.forEach((n, i) => out.has(n) || out.set(n, qacc[i]));
  return out;
}

/** row i of a row-major 3x3 times u */
const dotRow = (R: readonly number[], i: number, u: readonly number[]) => R[3 * i] * u[0] + R[3 * i + 1] * u[1] + R[3 * i + 2] * u[2];

/** Hamilton product a (x) b of quaternions (w, x, y, z) */
function product([aw, ax, ay, az]: readonly number[], [bw, bx, by, bz]: readonly number[]): number[] {
  return [
    aw * bw - ax * bx - ay * by - az * bz,
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
  ];
}
