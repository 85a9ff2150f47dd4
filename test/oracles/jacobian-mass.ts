// Oracle: the joint-space mass matrix of a tree of rigid bodies from the
// kinetic energy, T = 1/2 qd^T M qd with T = sum_k 1/2 (m_k |v_ck|^2 + w_k^T I_k w_k):
//   M = sum_k m_k Jv_k^T Jv_k + Jw_k^T I_k,world Jw_k
// where Jv_k, Jw_k are the Jacobians of body k's CoM velocity and angular
// velocity (world coordinates) with respect to qd. Column i of body k's
// Jacobians, for a joint i on the path from the world to k (Siciliano et al.,
// Robotics, eq. 3.30): revolute Jw = e_i, Jv = e_i x (c_k - p_i); prismatic
// Jw = 0, Jv = e_i, with e_i the world-resolved joint axis and p_i a point on
// it. Plain numbers, no recursion over forces: independent of the RNEA and ABA
// oracles. (tree, q) => M, n x n.
import { type M3, type RneaTree, type V3, add, cross, dot, identity, mulMM, mulMV, normalize, rotation } from './rnea.ts';

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

// (tree, q) => mass matrix, rows of n
export function massMatrixOracle(tree: RneaTree, q: readonly number[]): number[][] {
  const nb = tree.bodies.length;
  // forward kinematics: body frame orientation R (body -> world) and origin p, world coordinates
  const R: M3[] = [],
    p: V3[] = [],
    axis: V3[] = [];
  tree.bodies.forEach((b, i) => {
    const Rp = b.parent < 0 ? identity() : R[b.parent];
    const pp: V3 = b.parent < 0 ? [0, 0, 0] : p[b.parent];
    const n = normalize(b.axis);
    const Ra = mulMM(Rp, b.E); // joint frame_a -> world
    axis[i] = mulMV(Ra, n);
    const origin = add(pp, mulMV(Rp, b.o));
    if (b.joint === 'revolute') {
      R[i] = mulMM(Ra, rotation(n, q[i]));
      p[i] = origin;
    } else {
      R[i] = Ra;
      p[i] = add(origin, mulMV(Ra, [n[0] * q[i], n[1] * q[i], n[2] * q[i]]));
    }
  });
  const M = Array.from({ length: nb }, () => new Array<number>(nb).fill(0));
  for (let k = 0; k < nb; k++) {
    const b = tree.bodies[k];
    const c = add(p[k], mulMV(R[k], b.c));
    const [xx, yy, zz, xy, xz, yz] = b.I;
    const Ib: M3 = [
      [xx, xy, xz],
      [xy, yy, yz],
      [xz, yz, zz],
    ];
    const Rt: M3 = [
      [R[k][0][0], R[k][1][0], R[k][2][0]],
      [R[k][0][1], R[k][1][1], R[k][2][1]],
      [R[k][0][2], R[k][1][2], R[k][2][2]],
    ];
    const Iw = mulMM(mulMM(R[k], Ib), Rt);
    // the joints from body k to the world
    const path: number[] = [];
    for (let i = k; i >= 0; i = tree.bodies[i].parent) path.push(i);
    const Jv = new Map<number, V3>(),
      Jw = new Map<number, V3>();
    for (const i of path) {
      if (tree.bodies[i].joint === 'revolute') {
        Jw.set(i, axis[i]);
        Jv.set(i, cross(axis[i], sub(c, p[i])));
      } else {
        Jw.set(i, [0, 0, 0]);
        Jv.set(i, axis[i]);
      }
    }
    for (const i of path) for (const j of path) M[i][j] += b.m * dot(Jv.get(i)!, Jv.get(j)!) + dot(Jw.get(i)!, mulMV(Iw, Jw.get(j)!));
  }
  return M;
}
