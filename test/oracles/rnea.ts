// Oracle: recursive Newton-Euler inverse dynamics of a tree of rigid bodies
// (Luh, Walker & Paul 1980), plain numbers, written from scratch: no compiler,
// no symbolic code. (tree, q, qd, qdd) => generalized forces tau.
//
// Bodies are numbered so that parent(i) < i (-1: the world), which makes the
// outward pass an ascending loop and the inward pass a descending one. Every
// quantity of body i is resolved in body i's frame, the frame_b of its joint.
//
// Glossary (body i, its parent p):
//   E, o    fixed transform from the parent body frame to the joint's frame_a:
//           E maps joint-frame coordinates to parent coordinates, o is the
//           joint frame's origin in parent coordinates
//   n       unit joint axis (frame_a coordinates = body coordinates)
//   Xr      rotation of body i relative to p: E Rot(n, q) (revolute), E (prismatic)
//   d       body origin relative to the parent origin, parent coordinates
//   w, wd   angular velocity and acceleration
//   a       acceleration of the body origin; the world "accelerates" by -g,
//           so gravity needs no term of its own (Luh, Walker & Paul)
//   F, N    net force and moment (about the CoM) the body's motion needs
//   f, nm   force and moment (about the body origin) the joint transmits
//           from the parent into body i
// Our convention for the joint force matches Kron's joints: revolute
// tau = n . nm, prismatic tau = n . f.

export type V3 = [number, number, number];
export type M3 = [V3, V3, V3];

export interface RneaBody {
  /** parent body index, < own index; -1 for the world */
  parent: number;
  joint: 'revolute' | 'prismatic';
  /** joint axis in the joint's frame_a coordinates (normalised here) */
  axis: V3;
  /** joint frame_a orientation relative to the parent body frame (maps joint to parent coordinates) */
  E: M3;
  /** joint frame_a origin in parent body coordinates */
  o: V3;
  /** mass */
  m: number;
  /** centre of mass in body coordinates */
  c: V3;
  /** inertia about the CoM in body coordinates: [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] (tensor entries) */
  I: [number, number, number, number, number, number];
}

export interface RneaTree {
  bodies: RneaBody[];
  /** gravity, world-resolved */
  gravity: V3;
}

// ---- 3-vector and 3x3 helpers on plain arrays --------------------------------

export const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (s: number, a: V3): V3 => [s * a[0], s * a[1], s * a[2]];
export const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const normalize = (a: V3): V3 => scale(1 / Math.hypot(a[0], a[1], a[2]), a);
/** M a */
export const mulMV = (M: M3, a: V3): V3 => [dot(M[0], a), dot(M[1], a), dot(M[2], a)];
/** M^T a */
export const mulMtV = (M: M3, a: V3): V3 => [
  M[0][0] * a[0] + M[1][0] * a[1] + M[2][0] * a[2],
  M[0][1] * a[0] + M[1][1] * a[1] + M[2][1] * a[2],
  M[0][2] * a[0] + M[1][2] * a[1] + M[2][2] * a[2],
];
export const mulMM = (A: M3, B: M3): M3 => {
  const col = (j: number): V3 => [B[0][j], B[1][j], B[2][j]];
  const row = (i: number): V3 => [dot(A[i], col(0)), dot(A[i], col(1)), dot(A[i], col(2))];
  return [row(0), row(1), row(2)];
};
export const identity = (): M3 => [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** Rodrigues: rotation by angle phi about the unit axis n, R = c 1 + (1 - c) n n^T + s [n x] */
export function rotation(n: V3, phi: number): M3 {
  const c = Math.cos(phi),
    s = Math.sin(phi),
    k = 1 - c;
  const [x, y, z] = n;
  return [
    [c + k * x * x, k * x * y - s * z, k * x * z + s * y],
    [k * y * x + s * z, c + k * y * y, k * y * z - s * x],
    [k * z * x - s * y, k * z * y + s * x, c + k * z * z],
  ];
}

function inertiaMatrix(I: RneaBody['I']): M3 {
  const [xx, yy, zz, xy, xz, yz] = I;
  return [
    [xx, xy, xz],
    [xy, yy, yz],
    [xz, yz, zz],
  ];
}

// ---- the algorithm -------------------------------------------------------------

// (tree, q, qd, qdd) => tau, the generalized force of each joint
export function rnea(tree: RneaTree, q: readonly number[], qd: readonly number[], qdd: readonly number[]): number[] {
  const nb = tree.bodies.length;
  const Xr: M3[] = [],
    d: V3[] = [],
    w: V3[] = [],
    wd: V3[] = [],
    a: V3[] = [];
  const F: V3[] = [],
    N: V3[] = [];
  const zero: V3 = [0, 0, 0];
  // outward pass: velocities and accelerations, root to leaves
  for (let i = 0; i < nb; i++) {
    const b = tree.bodies[i];
    if (!(b.parent < i)) throw new Error(`body ${i}: parent ${b.parent} must come before it`);
    const n = normalize(b.axis);
    const wp = b.parent < 0 ? zero : w[b.parent];
    const wdp = b.parent < 0 ? zero : wd[b.parent];
    const ap = b.parent < 0 ? scale(-1, tree.gravity) : a[b.parent];
    const prismatic = b.joint === 'prismatic';
    Xr[i] = prismatic ? b.E : mulMM(b.E, rotation(n, q[i]));
    d[i] = prismatic ? add(b.o, mulMV(b.E, scale(q[i], n))) : b.o;
    // the parent frame's motion, carried to the body origin and resolved in body coordinates
    const wIn = mulMtV(Xr[i], wp);
    const wdIn = mulMtV(Xr[i], wdp);
    const aIn = mulMtV(Xr[i], add(ap, add(cross(wdp, d[i]), cross(wp, cross(wp, d[i])))));
    if (prismatic) {
      w[i] = wIn;
      wd[i] = wdIn;
      a[i] = add(aIn, add(scale(2 * qd[i], cross(w[i], n)), scale(qdd[i], n)));
    } else {
      w[i] = add(wIn, scale(qd[i], n));
      wd[i] = add(wdIn, add(scale(qdd[i], n), scale(qd[i], cross(wIn, n))));
      a[i] = aIn;
    }
    // Newton and Euler for the body: F = m a_c, N = Ic wd + w x (Ic w)
    const Ic = inertiaMatrix(b.I);
    const ac = add(a[i], add(cross(wd[i], b.c), cross(w[i], cross(w[i], b.c))));
    F[i] = scale(b.m, ac);
    N[i] = add(mulMV(Ic, wd[i]), cross(w[i], mulMV(Ic, w[i])));
  }
  // inward pass: joint forces and moments, leaves to root
  const f: V3[] = F.map((x) => [...x] as V3);
  const nm: V3[] = tree.bodies.map((b, i) => add(N[i], cross(b.c, F[i])));
  const tau = new Array<number>(nb).fill(0);
  for (let i = nb - 1; i >= 0; i--) {
    const b = tree.bodies[i];
    const n = normalize(b.axis);
    tau[i] = b.joint === 'prismatic' ? dot(n, f[i]) : dot(n, nm[i]);
    if (b.parent < 0) continue;
    // what body i needs from its joint, the parent supplies: resolved in parent coordinates, moment about the parent origin
    const fp = mulMV(Xr[i], f[i]);
    f[b.parent] = add(f[b.parent], fp);
    nm[b.parent] = add(nm[b.parent], add(mulMV(Xr[i], nm[i]), cross(d[i], fp)));
  }
  return tau;
}
