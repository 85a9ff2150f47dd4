// Oracle and yardstick: Featherstone's articulated-body algorithm (ABA),
// forward dynamics of a tree of rigid bodies, (tree, q, qd, tau) => qdd,
// written from scratch in 6D spatial notation on plain number arrays: no
// compiler, no symbolic code. It follows Rigid Body Dynamics Algorithms
// (Featherstone 2008), Table 7.1 (section 7.3), line for line:
//
//   pass 1, i = 1..NB:   X_i = XJ(q_i) Xtree_i            (parent -> body i)
//                        vJ = S_i qd_i,  v_i = X_i v_p + vJ,  c_i = cJ + v_i xm vJ  (cJ = 0 here)
//                        IA_i = I_i,  pA_i = v_i xf (I_i v_i)
//   pass 2, i = NB..1:   U_i = IA_i S_i,  D_i = S_i^T U_i,  u_i = tau_i - S_i^T pA_i
//                        if p != 0:  Ia = IA_i - U_i D_i^-1 U_i^T
//                                    pa = pA_i + Ia c_i + U_i D_i^-1 u_i
//                                    IA_p += X_i^T Ia X_i,  pA_p += X_i^T pa
//   pass 3, i = 1..NB:   a' = X_i a_p + c_i   (a_0 = -a_g: gravity as a base acceleration)
//                        qdd_i = D_i^-1 (u_i - U_i^T a'),  a_i = a' + S_i qdd_i
//
// Conventions (the same tree description as test/oracles/rnea.ts, RneaTree):
//   motion vectors [w; v], force vectors [n; f] (Plücker, angular part first);
//   every body-i quantity in body i's frame (the frame_b of its joint);
//   X_i = [E 0; -E rx E]: E maps parent to body coordinates, r is body i's origin
//   in parent coordinates; X_i^T maps a body-i force to the parent (= pXi^*).
//   Revolute: E = Rot(n, q)^T Etree^T, r = o; prismatic: E = Etree^T, r = o + Etree n q.
//   tau_i = S_i^T (force transmitted by joint i), the convention of rnea.ts and Kron.
//
// Operation counts. Every floating-point multiplication, addition/subtraction,
// division and elementary-function call goes through the Flops counters below
// (sign changes are free, as in Kron's report.ops). What is counted is the
// textbook algorithm on dense 6-vectors and 6x6 matrices, with only these
// structural savings:
//   - S_i is a unit vector when the joint axis is a coordinate axis (the chain's
//     z and y joints): S^T x picks a component, A S picks a column, x + S s adds
//     to one component, S qd is a vector with one entry (no operations);
//   - X_i is assembled from E and r as [E 0; -E rx E] (rx a skew matrix: two
//     products per entry of E rx), not by a 6x6 product XJ Xtree; a body
//     without a fixed rotation before its joint (Etree = identity) skips
//     Etree; E of a coordinate-axis joint is filled in from sin and cos;
//   - spatial cross products (xm, xf) use their 3D formulas (three 3D cross
//     products), not 6x6 crm/crf matrices;
//   - the body's own 6x6 rigid-body inertia I_i, n n^T and Etree n are model
//     constants, computed once outside the count (as Kron folds parameters).
// Everything else is dense. Two variants of applying X_i:
//   'dense'    6x6 matrix X_i: X v and X^T f cost 36 mul 30 add, X^T Ia X two
//              dense 6x6 products (432 mul 360 add) — a plain 6x6 implementation;
//   'compact'  X_i kept as (E, r): X m = [E w; E (v - r x w)], X^T f =
//              [E^T n + r x E^T f; E^T f] (24 mul 18 add each), and X^T Ia X as
//              twelve such X^T applications (to the rows of Ia, then to the
//              columns of Ia X; no symmetry assumed).
// No further savings: no symmetry of IA, no zeros of X or of the parameters.
// ops.transforms is the part that builds X_i (sin, cos, the rotation E and,
// for 'dense', the 6x6 matrix), a subset of ops.total.
import { type M3, type RneaBody, type RneaTree, type V3, identity, normalize } from './rnea.ts';

export type Vec6 = number[];
export type Mat6 = number[][];

export interface OpCounts {
  mul: number;
  add: number;
  div: number;
  fn: number;
}

export type AbaVariant = 'dense' | 'compact';

export interface AbaResult {
  qdd: number[];
  ops: {
    /** everything one call performs */
    total: OpCounts;
    /** the part that builds the transforms X_i: sin/cos of q, rotation, 6x6 assembly */
    transforms: OpCounts;
  };
}

export const noOps = (): OpCounts => ({ mul: 0, add: 0, div: 0, fn: 0 });
export const totalOps = (o: OpCounts): number => o.mul + o.add + o.div + o.fn;

// ---- counted arithmetic ----------------------------------------------------------

export class Flops {
  readonly total = noOps();
  readonly transforms = noOps();
  /** true while building transforms */
  inTransforms = false;

  private count(k: keyof OpCounts): void {
    this.total[k]++;
    if (this.inTransforms) this.transforms[k]++;
  }
  mul(a: number, b: number): number {
    this.count('mul');
    return a * b;
  }
  add(a: number, b: number): number {
    this.count('add');
    return a + b;
  }
  sub(a: number, b: number): number {
    this.count('add');
    return a - b;
  }
  div(a: number, b: number): number {
    this.count('div');
    return a / b;
  }
  sin(x: number): number {
    this.count('fn');
    return Math.sin(x);
  }
  cos(x: number): number {
    this.count('fn');
    return Math.cos(x);
  }
  /** sum of a[i] b[i] over i < n: n mul, n - 1 add */
  dot(a: readonly number[], b: readonly number[], n = a.length): number {
    let s = this.mul(a[0], b[0]);
    for (let i = 1; i < n; i++) s = this.add(s, this.mul(a[i], b[i]));
    return s;
  }
}

// ---- 3D helpers (counted) ----------------------------------------------------------

export const cross3 = (f: Flops, a: readonly number[], b: readonly number[]): V3 => [
  f.sub(f.mul(a[1], b[2]), f.mul(a[2], b[1])),
  f.sub(f.mul(a[2], b[0]), f.mul(a[0], b[2])),
  f.sub(f.mul(a[0], b[1]), f.mul(a[1], b[0])),
];
export const add3 = (f: Flops, a: readonly number[], b: readonly number[]): V3 => [f.add(a[0], b[0]), f.add(a[1], b[1]), f.add(a[2], b[2])];
const sub3 = (f: Flops, a: readonly number[], b: readonly number[]): V3 => [f.sub(a[0], b[0]), f.sub(a[1], b[1]), f.sub(a[2], b[2])];
/** M a */
export const mv3 = (f: Flops, M: M3, a: readonly number[]): V3 => [f.dot(M[0], a), f.dot(M[1], a), f.dot(M[2], a)];
/** M^T a */
export const mtv3 = (f: Flops, M: M3, a: readonly number[]): V3 => [0, 1, 2].map((j) => f.dot([M[0][j], M[1][j], M[2][j]], a)) as V3;
/** A B, dense: 27 mul 18 add */
export const mm3 = (f: Flops, A: M3, B: M3): M3 => A.map((row) => [0, 1, 2].map((j) => f.dot(row, [B[0][j], B[1][j], B[2][j]]))) as M3;
const transpose3 = (M: M3): M3 => [
  [M[0][0], M[1][0], M[2][0]],
  [M[0][1], M[1][1], M[2][1]],
  [M[0][2], M[1][2], M[2][2]],
];

// ---- spatial helpers (counted) -----------------------------------------------------

const ang = (x: Vec6): V3 => [x[0], x[1], x[2]];
const lin = (x: Vec6): V3 => [x[3], x[4], x[5]];
const add6 = (f: Flops, a: Vec6, b: Vec6): Vec6 => a.map((x, i) => f.add(x, b[i]));
/** M x, dense: 36 mul 30 add */
const mv6 = (f: Flops, M: Mat6, x: Vec6): Vec6 => M.map((row) => f.dot(row, x));
/** M^T x, dense: 36 mul 30 add */
const mtv6 = (f: Flops, M: Mat6, x: Vec6): Vec6 =>
  [0, 1, 2, 3, 4, 5].map((j) =>
    f.dot(
      M.map((row) => row[j]),
      x,
    ),
  );
/** A B, dense: 216 mul 180 add */
const mm6 = (f: Flops, A: Mat6, B: Mat6): Mat6 =>
  A.map((row) =>
    [0, 1, 2, 3, 4, 5].map((j) =>
      f.dot(
        row,
        B.map((r) => r[j]),
      ),
    ),
  );
/** A^T B, dense: 216 mul 180 add */
const mtm6 = (f: Flops, A: Mat6, B: Mat6): Mat6 =>
  [0, 1, 2, 3, 4, 5].map((i) =>
    [0, 1, 2, 3, 4, 5].map((j) =>
      f.dot(
        A.map((r) => r[i]),
        B.map((r) => r[j]),
      ),
    ),
  );
const transpose6 = (M: Mat6): Mat6 => [0, 1, 2, 3, 4, 5].map((i) => M.map((row) => row[i]));
/** motion cross product v xm m = [w x mw; w x mv + v x mw]: 18 mul 12 add */
const crossM = (f: Flops, v: Vec6, m: Vec6): Vec6 => {
  const [w, vl, mw, ml] = [ang(v), lin(v), ang(m), lin(m)];
  return [...cross3(f, w, mw), ...add3(f, cross3(f, w, ml), cross3(f, vl, mw))];
};
/** force cross product v xf g = [w x gn + v x gf; w x gf]: 18 mul 12 add */
const crossF = (f: Flops, v: Vec6, g: Vec6): Vec6 => {
  const [w, vl, gn, gf] = [ang(v), lin(v), ang(g), lin(g)];
  return [...add3(f, cross3(f, w, gn), cross3(f, vl, gf)), ...cross3(f, w, gf)];
};

// ---- the transform parent -> body ---------------------------------------------------

/** X = [E 0; -E rx E] with E: parent -> body coordinates, r: body origin in parent coordinates */
interface Transform {
  E: M3;
  r: V3;
  /** the 6x6 matrix ('dense' variant only) */
  X?: Mat6;
}

/** X m: motion vector from parent to body coordinates */
function motionToBody(f: Flops, T: Transform, m: Vec6): Vec6 {
  if (T.X) return mv6(f, T.X, m);
  const w = ang(m);
  return [...mv3(f, T.E, w), ...mv3(f, T.E, sub3(f, lin(m), cross3(f, T.r, w)))];
}

/** X^T g: force vector from body to parent coordinates (also applied to rows and columns of matrices) */
function forceToParent(f: Flops, T: Transform, g: Vec6): Vec6 {
  if (T.X) return mtv6(f, T.X, g);
  const gf = mtv3(f, T.E, lin(g));
  return [...add3(f, mtv3(f, T.E, ang(g)), cross3(f, T.r, gf)), ...gf];
}

/** X^T A X */
function inertiaToParent(f: Flops, T: Transform, A: Mat6): Mat6 {
  if (T.X) return mtm6(f, T.X, mm6(f, A, T.X));
  // row i of A X is X^T (row i of A); then X^T (A X), column by column
  const AX = A.map((row) => forceToParent(f, T, row));
  return transpose6(transpose6(AX).map((col) => forceToParent(f, T, col)));
}

// ---- the model constants, outside the count -------------------------------------------

interface Prepared {
  b: RneaBody;
  n: V3;
  /** coordinate axis index when the joint axis is a coordinate axis, else -1 */
  k: number;
  /** Etree is the identity (no fixed rotation before the joint) */
  plain: boolean;
  /** n n^T (general revolute axis) */
  nn: M3;
  /** Etree n (prismatic) */
  En: V3;
  /** 6x6 rigid-body inertia about the body origin, body coordinates */
  I: Mat6;
}

export const isIdentity = (E: M3) => E.every((row, i) => row.every((x, j) => x === (i === j ? 1 : 0)));

/** rigid-body inertia about the body origin: [Ic + m cx cx^T, m cx; m cx^T, m 1] (RBDA eq. 2.63) */
function spatialInertia(b: RneaBody): Mat6 {
  const [xx, yy, zz, xy, xz, yz] = b.I;
  const [cx, cy, cz] = b.c;
  const m = b.m;
  const C: M3 = [
    [0, -cz, cy],
    [cz, 0, -cx],
    [-cy, cx, 0],
  ];
  const Ic: M3 = [
    [xx, xy, xz],
    [xy, yy, yz],
    [xz, yz, zz],
  ];
  const M: Mat6 = Array.from({ length: 6 }, () => new Array<number>(6).fill(0));
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      let ccT = 0;
      for (let l = 0; l < 3; l++) ccT += C[i][l] * C[j][l];
      M[i][j] = Ic[i][j] + m * ccT;
      M[i][j + 3] = m * C[i][j];
      M[i + 3][j] = m * C[j][i];
    }
    M[i + 3][i + 3] = m;
  }
  return M;
}

function prepare(b: RneaBody): Prepared {
  const n = normalize(b.axis);
  const k = n.findIndex((x) => x === 1) >= 0 && n.filter((x) => x === 0).length === 2 ? n.indexOf(1) : -1;
  const nn = n.map((x) => n.map((y) => x * y)) as M3;
  const En: V3 = [0, 1, 2].map((i) => b.E[i][0] * n[0] + b.E[i][1] * n[1] + b.E[i][2] * n[2]) as V3;
  return { b, n, k, plain: isIdentity(b.E), nn, En, I: spatialInertia(b) };
}

/** X_i from q_i (counted as transforms) */
function transform(f: Flops, p: Prepared, q: number, variant: AbaVariant): Transform {
  f.inTransforms = true;
  const { b, n, k } = p;
  let E: M3;
  let r: V3;
  if (b.joint === 'revolute') {
    const c = f.cos(q),
      s = f.sin(q);
    let J: M3; // Rot(n, q)^T: parent-joint-frame -> body coordinates
    if (k === 0)
      J = [
        [1, 0, 0],
        [0, c, s],
        [0, -s, c],
      ];
    else if (k === 1)
      J = [
        [c, 0, -s],
        [0, 1, 0],
        [s, 0, c],
      ];
    else if (k === 2)
      J = [
        [c, s, 0],
        [-s, c, 0],
        [0, 0, 1],
      ];
    else {
      // Rodrigues, transposed: c 1 + (1 - c) n n^T - s [n x]
      const t = f.sub(1, c);
      const sn = n.map((x) => f.mul(s, x));
      const kn = p.nn.map((row) => row.map((x) => f.mul(t, x)));
      J = [
        [f.add(c, kn[0][0]), f.add(kn[0][1], sn[2]), f.sub(kn[0][2], sn[1])],
        [f.sub(kn[1][0], sn[2]), f.add(c, kn[1][1]), f.add(kn[1][2], sn[0])],
        [f.add(kn[2][0], sn[1]), f.sub(kn[2][1], sn[0]), f.add(c, kn[2][2])],
      ];
    }
    E = p.plain ? J : mm3(f, J, transpose3(b.E));
    r = b.o;
  } else {
    E = transpose3(b.E);
    r = add3(
      f,
      b.o,
      p.En.map((x) => f.mul(x, q)),
    );
  }
  const T: Transform = { E, r };
  if (variant === 'dense') {
    // X = [E 0; -E rx E]; (E rx)_ij = sum_l E_il (rx)_lj, two non-zero (rx)_lj per column
    const [rx, ry, rz] = r;
    const ER: M3 = E.map((e) => [
      f.sub(f.mul(e[1], rz), f.mul(e[2], ry)),
      f.sub(f.mul(e[2], rx), f.mul(e[0], rz)),
      f.sub(f.mul(e[0], ry), f.mul(e[1], rx)),
    ]) as M3;
    T.X = [...E.map((e) => [...e, 0, 0, 0]), ...E.map((e, i) => [-ER[i][0], -ER[i][1], -ER[i][2], ...e])];
  }
  f.inTransforms = false;
  return T;
}

// ---- the algorithm -------------------------------------------------------------

// (tree, q, qd, tau, variant) => qdd and the operations it took
export function aba(tree: RneaTree, q: readonly number[], qd: readonly number[], tau: readonly number[], variant: AbaVariant = 'dense'): AbaResult {
  const f = new Flops();
  const nb = tree.bodies.length;
  const P = tree.bodies.map((b, i) => {
    if (!(b.parent < i)) throw new Error(`body ${i}: parent ${b.parent} must come before it`);
    return prepare(b);
  });
  // S and its products: a unit coordinate vector picks (k >= 0); otherwise [n; 0] (revolute) or [0; n] (prismatic)
  const offset = (p: Prepared) => (p.b.joint === 'revolute' ? 0 : 3);
  const St = (p: Prepared, x: Vec6): number => (p.k >= 0 ? x[offset(p) + p.k] : f.dot(p.n, x.slice(offset(p), offset(p) + 3)));
  const S = (p: Prepared, s: number): Vec6 => {
    const x = [0, 0, 0, 0, 0, 0];
    if (p.k >= 0) x[offset(p) + p.k] = s;
    else p.n.forEach((ni, j) => (x[offset(p) + j] = f.mul(ni, s)));
    return x;
  };
  const plusS = (p: Prepared, x: Vec6, s: number): Vec6 => {
    const y = [...x];
    if (p.k >= 0) y[offset(p) + p.k] = f.add(y[offset(p) + p.k], s);
    else p.n.forEach((ni, j) => (y[offset(p) + j] = f.add(y[offset(p) + j], f.mul(ni, s))));
    return y;
  };
  const AS = (p: Prepared, A: Mat6): Vec6 => A.map((row) => St(p, row));

  const X: Transform[] = [],
    v: Vec6[] = [],
    c: Vec6[] = [],
    IA: Mat6[] = [],
    pA: Vec6[] = [];
  // pass 1: velocities, velocity-product accelerations, rigid-body inertias and bias forces
  for (let i = 0; i < nb; i++) {
    const p = P[i];
    X[i] = transform(f, p, q[i], variant);
    const vJ = S(p, qd[i]);
    v[i] = p.b.parent < 0 ? vJ : plusS(p, motionToBody(f, X[i], v[p.b.parent]), qd[i]);
    c[i] = crossM(f, v[i], vJ);
    IA[i] = p.I.map((row) => [...row]);
    pA[i] = crossF(f, v[i], mv6(f, p.I, v[i]));
  }
  // pass 2: articulated-body inertias and bias forces, leaves to root
  const U: Vec6[] = [],
    Dinv: number[] = [],
    u: number[] = [];
  for (let i = nb - 1; i >= 0; i--) {
    const p = P[i];
    U[i] = AS(p, IA[i]);
    Dinv[i] = f.div(1, St(p, U[i]));
    u[i] = f.sub(tau[i], St(p, pA[i]));
    const parent = p.b.parent;
    if (parent < 0) continue;
    const W = U[i].map((x) => f.mul(x, Dinv[i])); // U D^-1
    const Ia = IA[i].map((row, r) => row.map((x, s) => f.sub(x, f.mul(W[r], U[i][s]))));
    const pa = add6(
      f,
      add6(f, pA[i], mv6(f, Ia, c[i])),
      W.map((x) => f.mul(x, u[i])),
    );
    const add = inertiaToParent(f, X[i], Ia);
    IA[parent] = IA[parent].map((row, r) => row.map((x, s) => f.add(x, add[r][s])));
    pA[parent] = add6(f, pA[parent], forceToParent(f, X[i], pa));
  }
  // pass 3: accelerations, root to leaves; the base accelerates by -gravity
  const a0: Vec6 = [0, 0, 0, -tree.gravity[0], -tree.gravity[1], -tree.gravity[2]];
  const a: Vec6[] = [],
    qdd: number[] = [];
  for (let i = 0; i < nb; i++) {
    const p = P[i];
    const ap = add6(f, motionToBody(f, X[i], p.b.parent < 0 ? a0 : a[p.b.parent]), c[i]);
    qdd[i] = f.mul(Dinv[i], f.sub(u[i], f.dot(U[i], ap)));
    a[i] = plusS(p, ap, qdd[i]);
  }
  return { qdd, ops: { total: { ...f.total }, transforms: { ...f.transforms } } };
}

// ---- the chain of mechanisms/chain.ts -------------------------------------------------

/**
 * The spatial chain of mechanisms/chain.ts, described for the oracles: joint k
 * about z (k odd) or y (k even), body CoM at L/2 along x, the next joint at L
 * along x; the defaults are the chain's parameters (identity() for E: no fixed rotations).
 */
export function chainTree(n: number, p: { L: number; m: number }, gravity: V3 = [0, -9.80665, 0]): RneaTree {
  const { L, m } = p;
  const bodies = Array.from({ length: n }, (_, i): RneaBody => {
    const k = i + 1;
    return {
      parent: i - 1,
      joint: 'revolute',
      axis: k % 2 ? [0, 0, 1] : [0, 1, 0],
      E: identity(),
      o: k === 1 ? [0, 0, 0] : [L, 0, 0],
      m,
      c: [L / 2, 0, 0],
      I: [m * 1e-4, (m * L * L) / 12, (m * L * L) / 12, 0, 0, 0],
    };
  });
  return { bodies, gravity };
}
