// A floating tree as a MuJoCo model (MJCF text) and its state in MuJoCo's
// qpos/qvel/qfrc_applied/xfrc_applied, so that the oracle's conventions are
// checked against MuJoCo's own (floating.test.ts, with the @mujoco/mujoco
// WebAssembly build). Written from the MJCF reference, no Kron code.
//
// Link i is the MJCF body b<i> at its joint's frame_a (pos o, quat of E, in
// the parent body's frame), holding joint j<i> at its origin:
//   free -> <freejoint>  (roots only: MuJoCo allows it nowhere else); qpos is
//           the world pose, so r, Q, v and f are carried through frame_a:
//           pos = o + E r, quat = quat(E) Q, qvel = [E v, w], qfrc = [E f, tau]
//   ball -> type="ball"; revolute -> hinge, prismatic -> slide on the axis;
//   universal, spherical -> two or three hinges in one body, composed in
//           order (MuJoCo: each axis in the frame the earlier ones left)
//   fixed -> a body without joint
// No contacts or constraints; bounds raise massless moving bodies to 1e-14
// (MuJoCo refuses zero mass), which moves qacc by about that much.
import type { V3 } from './rnea.ts';
import { SPHERICAL_AXES } from './joint-tree.ts';
import type { ExternalForce, FloatingTree } from './floating-tree.ts';
import { floatingModel } from './floating-tree.ts';
import { type Quat, quatFromMatrix, quatMul } from './quaternion.ts';
import { mulMV } from './rnea.ts';

const num = (x: number) => String(x);
const list = (x: readonly number[]) => x.map(num).join(' ');

// (floating tree) => the MJCF document
export function floatingMjcf(tree: FloatingTree): string {
  const children = (p: number) => tree.links.map((l, i) => [l, i] as const).filter(([l]) => l.parent === p);
  const body = (i: number, pad: string): string[] => {
    const l = tree.links[i];
    if (l.joint === 'free' && l.parent >= 0) throw new Error(`link ${i}: MuJoCo has free joints only on bodies of the world`);
    const b = l.body ?? { m: 0, c: [0, 0, 0], I: [0, 0, 0, 0, 0, 0] };
    const axes = l.joint === 'spherical' && !l.axes?.length ? SPHERICAL_AXES : (l.axes ?? []);
    const joints =
      l.joint === 'free'
        ? [`${pad}  <freejoint name="j${i}"/>`]
        : l.joint === 'ball'
          ? [`${pad}  <joint name="j${i}" type="ball"/>`]
          : l.joint === 'fixed'
            ? []
            : axes.map(
                (a, k) =>
                  `${pad}  <joint name="j${i}${axes.length > 1 ? `_${k}` : ''}" type="${l.joint === 'prismatic' ? 'slide' : 'hinge'}" axis="${list(a)}"/>`,
              );
    return [
      `${pad}<body name="b${i}" pos="${list(l.o)}" quat="${list(quatFromMatrix(l.E))}">`,
      `${pad}  <inertial pos="${list(b.c)}" mass="${num(b.m)}" fullinertia="${list(b.I)}"/>`,
      ...joints,
      ...children(i).flatMap(([, k]) => body(k, pad + '  ')),
      `${pad}</body>`,
    ];
  };
  return [
    '<mujoco model="floating">',
    '  <compiler angle="radian" inertiafromgeom="false" boundmass="1e-14" boundinertia="1e-14"/>',
    `  <option gravity="${list(tree.gravity)}"><flag contact="disable" constraint="disable"/></option>`,
    '  <worldbody>',
    ...children(-1).flatMap(([, k]) => body(k, '    ')),
    '  </worldbody>',
    '</mujoco>',
  ].join('\n');
}

/** where each link's coordinates start in MuJoCo's qpos and qvel, and its body id (from the names j<i>, b<i>) */
export interface MujocoIndex {
  qpos: number[];
  dof: number[];
  body: number[];
}

export interface MujocoState {
  qpos: number[];
  qvel: number[];
  qfrc: number[];
  /** nbody x 6: force at the centre of mass, torque; world */
  xfrc: number[];
}

// (tree, index, oracle state and inputs) => MuJoCo's arrays
export function toMujoco(
  tree: FloatingTree,
  ix: MujocoIndex,
  nbody: number,
  q: readonly number[],
  v: readonly number[],
  tau: readonly number[],
  fExt: readonly (ExternalForce | undefined)[] = [],
): MujocoState {
  const model = floatingModel(tree);
  const out: MujocoState = {
    qpos: new Array<number>(model.nq).fill(0),
    qvel: new Array<number>(model.nv).fill(0),
    qfrc: new Array<number>(model.nv).fill(0),
    xfrc: new Array<number>(6 * nbody).fill(0),
  };
  tree.links.forEach((l, i) => {
    const { qi, vi, nq, nv } = model.links[i];
    const put = (to: number[], at: number, x: readonly number[]) => x.forEach((y, k) => (to[at + k] = y));
    if (l.joint === 'free') {
      put(out.qpos, ix.qpos[i], [
        ...l.o.map((o, k) => o + mulMV(l.E, q.slice(qi, qi + 3) as V3)[k]),
        ...quatMul(quatFromMatrix(l.E), q.slice(qi + 3, qi + 7) as Quat),
      ]);
      put(out.qvel, ix.dof[i], [...mulMV(l.E, v.slice(vi, vi + 3) as V3), ...v.slice(vi + 3, vi + 6)]);
      put(out.qfrc, ix.dof[i], [...mulMV(l.E, tau.slice(vi, vi + 3) as V3), ...tau.slice(vi + 3, vi + 6)]);
    } else {
      put(out.qpos, ix.qpos[i], q.slice(qi, qi + nq));
      put(out.qvel, ix.dof[i], v.slice(vi, vi + nv));
      put(out.qfrc, ix.dof[i], tau.slice(vi, vi + nv));
    }
    const e = fExt[i];
    if (e) put(out.xfrc, 6 * ix.body[i], [...e.force, ...e.torque]);
  });
  return out;
}

// (tree, index, MuJoCo's qacc) => the oracle's dv (a free root's linear part back into frame_a)
export function fromMujocoAccelerations(tree: FloatingTree, ix: MujocoIndex, qacc: ArrayLike<number>): number[] {
  const model = floatingModel(tree);
  const dv = new Array<number>(model.nv).fill(0);
  tree.links.forEach((l, i) => {
    const { vi, nv } = model.links[i];
    const a = Array.from({ length: nv }, (_, k) => qacc[ix.dof[i] + k]);
    if (l.joint === 'free') {
      const lin: V3 = [a[0], a[1], a[2]];
      // E^T lin: frame_a coordinates
      a.splice(0, 3, ...[0, 1, 2].map((r) => l.E[0][r] * lin[0] + l.E[1][r] * lin[1] + l.E[2][r] * lin[2]));
    }
    a.forEach((x, k) => (dv[vi + k] = x));
  });
  return dv;
}
