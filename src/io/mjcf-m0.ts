// MuJoCo's dof_M0 of the hinge and slide joints: the diagonal of the mass
// matrix at qpos0 (every joint at its ref, so every body at the file's
// pose), armature included. A position actuator's dampratio becomes its kv
// from it, as MuJoCo's compiler does (kv = dampratio 2 sqrt(kp m), m =
// sum M0_i / moment_i^2 over the joints the actuator moves: mjcf-drives.ts). For a joint in body b, with
// world axis a through the anchor o, over the bodies k of b's subtree (mass
// m_k, centre c_k, inertia I_k about it in world axes):
//   hinge  M0 = sum m_k |a x (c_k - o)|^2 + a . I_k a + armature
//   slide  M0 = sum m_k + armature
import type { Vec3 } from './urdf-parse.ts';
import { type Quat, IDENTITY, multiply, rotate } from './mjcf-frame.ts';
import type { MjcfBody, MjcfJoint, MjcfRobot } from './mjcf-parse.ts';

/** a body's mass, world centre of mass and world inertia about it */
interface Placed {
  mass: number;
  c: Vec3;
  I: number[][];
}

// (robot) => dof_M0 by hinge and slide joint
export function massDiagonalAtQpos0(robot: MjcfRobot): Map<MjcfJoint, number> {
  const out = new Map<MjcfJoint, number>();
  const visit = (b: MjcfBody, q0: Quat, p0: Vec3): Placed[] => {
    const q = multiply(q0, b.quat),
      p = add(p0, rotate(q0, b.pos));
    const subtree: Placed[] = [placed(b, q, p), ...b.children.flatMap((c) => visit(c, q, p))];
    for (const j of b.joints) {
      if (j.type !== 'hinge' && j.type !== 'slide') continue;
      const a = rotate(q, j.axis),
        o = add(p, rotate(q, j.pos));
      let m0 = j.armature;
      for (const k of subtree) {
        if (j.type === 'slide') m0 += k.mass;
        else m0 += k.mass * norm2(cross(a, sub(k.c, o))) + dot(a, k.I.map((row) => dot(row, a)) as Vec3);
      }
      out.set(j, m0);
    }
    return subtree;
  };
  for (const b of robot.bodies) visit(b, IDENTITY, [0, 0, 0]);
  return out;
}

function placed(b: MjcfBody, q: Quat, p: Vec3): Placed {
  if (!b.inertial)
    return {
      mass: 0,
      c: p,
      I: [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ],
    };
  const {
    mass,
    com,
    inertia: [xx, yy, zz, xy, xz, yz],
  } = b.inertial;
  const local = [
    [xx, xy, xz],
    [xy, yy, yz],
    [xz, yz, zz],
  ];
  // R I R^T with R's columns the body's axes in the world
  const R = [rotate(q, [1, 0, 0]), rotate(q, [0, 1, 0]), rotate(q, [0, 0, 1])];
  const I = [0, 1, 2].map((i) =>
    [0, 1, 2].map((j) => {
      let s = 0;
      for (let k = 0; k < 3; k++) for (let l = 0; l < 3; l++) s += R[k][i] * local[k][l] * R[l][j];
      return s;
    }),
  );
  return { mass, c: add(p, rotate(q, com)), I };
}

const add = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm2 = (a: readonly number[]) => dot(a, a);
const cross = (a: readonly number[], b: readonly number[]): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
