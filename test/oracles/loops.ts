// Oracle: forward dynamics of mechanisms with kinematic loops, plain numbers,
// no Kron code. (tree, cuts, q, qd, tau) => qdd of every tree coordinate, or
// "singular".
//
// The spanning tree's dynamics M(q) qdd + h(q, qd) = Q come from the tree
// oracle (joint-tree.ts) over ALL tree coordinates (state and rest joints).
// Each cut joint adds constraints phi(q) = 0, written from the joint's
// definition (src/library/multibody/cut.ts), with d = r_b - r_a:
//   spherical    d = 0                                                  (3)
//   universal    d = 0,  (R_a n1) . (R_b n2) = n1 . n2                  (4)
//                (a universal joint keeps axis 1, fixed in frame_a, at its
//                own angle to axis 2, fixed in frame_b, for any q1, q2)
//   revolute     d = 0,  (R_a u1) . (R_b n) = 0,  (R_a u2) . (R_b n) = 0 (5)
//                (u1, u2 normal to the axis n: frame_b's axis stays along frame_a's)
//   planar       (R_a u1) . d = 0,  (R_a u2) . d = 0                     (2)
// The Jacobian G = dphi/dq and gamma = -(dG/dt) qd = -d^2/ds^2 phi(q + s qd)
// come from Ridders-extrapolated central differences (ridders.ts), and the
// KKT system (Featherstone 2008, sec. 8.1, eq. 8.5)
//   [M G^T; G 0] [qdd; lambda] = [Q - h; gamma]
// is solved by the null-space method: with G = U S V^T (from the eigen-
// decomposition of G^T G), qdd = p + Z y, p = G^+ gamma, Z an orthonormal
// basis of null(G), (Z^T M Z) y = Z^T (Q - h - M p). It is singular when
//   - G has rank < its rows (sigma_c <= RANK * sigma_1): a dead point,
//     change point, or constraints redundant for this geometry;
//   - Z^T M Z is singular by the scaled test of symmetric.ts: some motion the
//     loops allow moves no mass.
// A drive or spring on a cut revolute acts on its relative angle theta(q)
// (theta measured as Kron measures it: R_a^T R_b = Rot(n, theta)), so its
// generalized force is Q_theta * dtheta/dq.
import { type AttachedFrame, type Expanded, type ForceLaw, type OracleTree, appliedForces, expand, framePose, massMatrix, poses } from './joint-tree.ts';
import { type V3, cross, dot, mulMtV, mulMV, normalize, rnea } from './rnea.ts';
import { directional, jacobian, secondDirectional } from './ridders.ts';
import { type SpdSolution, maxAbs, mulMatVec, solveSymmetricPsd, symmetricEigen } from './symmetric.ts';

export type CutType = 'spherical' | 'universal' | 'revolute' | 'planar';

/** relative rank at or below which the constraint Jacobian is rank deficient */
export const RANK = 1e-8;

export interface OracleCut {
  type: CutType;
  /** where the cut joint's frame_a and frame_b sit */
  a: AttachedFrame;
  b: AttachedFrame;
  /** revolute, planar: [n]; universal: [n1, n2]; spherical: none */
  axes: V3[];
  /** drive and spring-damper on a cut revolute's angle */
  tau?: number;
  law?: ForceLaw;
}

export interface LoopSystem {
  tree: OracleTree;
  cuts: OracleCut[];
}

/** two unit vectors normal to the unit vector n */
export function normalsOf(n: V3): [V3, V3] {
  const a: V3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u1 = normalize(cross(cross(n, a), n));
  return [u1, cross(n, u1)];
}

// (expanded tree, cut, poses) => the cut's constraint residuals (header table)
function cutResiduals(x: Expanded, cut: OracleCut, all: ReturnType<typeof poses>): number[] {
  const A = framePose(x, all, cut.a), B = framePose(x, all, cut.b);
  const d = sub3(B.r, A.r);
  if (cut.type === 'spherical') return d;
  if (cut.type === 'universal') {
    const [n1, n2] = cut.axes.map(normalize);
    return [...d, dot(mulMV(A.R, n1), mulMV(B.R, n2)) - dot(n1, n2)];
  }
  const n = normalize(cut.axes[0]);
  const [u1, u2] = normalsOf(n).map((u) => mulMV(A.R, u));
  if (cut.type === 'planar') return [dot(u1, d), dot(u2, d)];
  const eb = mulMV(B.R, n);
  return [...d, dot(u1, eb), dot(u2, eb)];
}

/** the relative angle of a cut revolute: R_a^T R_b = Rot(n, theta) */
function cutAngle(x: Expanded, cut: OracleCut, all: ReturnType<typeof poses>): number {
  const A = framePose(x, all, cut.a), B = framePose(x, all, cut.b);
  const n = normalize(cut.axes[0]);
  const [u] = normalsOf(n);
  const ub = mulMtV(A.R, mulMV(B.R, u));
  return Math.atan2(dot(n, cross(u, ub)), dot(u, ub));
}

/** phi(q) of all cuts, in cut order */
export function constraints(sys: LoopSystem, x: Expanded, q: readonly number[]): number[] {
  const all = poses(x.rnea, q);
  return sys.cuts.flatMap((c) => cutResiduals(x, c, all));
}

export type LoopSolution =
  | { singular: false; qdd: number[]; cond: number; /** error estimate of G and gamma (absolute) */ fdErr: number; phi: number; Gqd: number }
  | { singular: true; why: string; cond: number; phi: number; Gqd: number };

// (system, q, qd, tau of the tree coordinates) => qdd of all tree coordinates, or singular
export function loopDynamics(sys: LoopSystem, q: readonly number[], qd: readonly number[], tau: readonly number[]): LoopSolution {
  const x = expand(sys.tree);
  const n = q.length;
  const phiOf = (y: number[]) => constraints(sys, x, y);
  const { J: G, err: gErr } = jacobian(phiOf, q);
  const c = G.length;
  const speed = Math.hypot(...qd);
  const curv = speed > 0 ? secondDirectional(phiOf, q, qd.map((v) => v / speed)) : { value: new Array<number>(c).fill(0), err: 0 };
  const gamma = curv.value.map((v) => -v * speed * speed);
  const phi = maxAbs(phiOf([...q]));
  const Gqd = maxAbs(mulMatVec(G, qd));
  // tree dynamics and applied forces, with the cut revolutes' drives through dtheta/dq
  const h = rnea(x.rnea, q, qd, new Array<number>(n).fill(0));
  const Q = appliedForces(x.laws, q, qd, tau);
  for (const cut of sys.cuts) {
    if ((cut.type !== 'revolute' && cut.type !== 'planar') || (!cut.tau && !cut.law?.c && !cut.law?.d)) continue;
    const theta = (y: number[]) => [cutAngle(x, cut, poses(x.rnea, y))];
    const dtheta = q.map((_, j) => directional((y) => theta(y), q, q.map((_, k) => (k === j ? 1 : 0)), 0.01).value[0]);
    const law = cut.law ?? { c: 0, q0: 0, d: 0 };
    const thd = dtheta.reduce((s, v, j) => s + v * qd[j], 0);
    const drive = (cut.tau ?? 0) - law.c * (theta([...q])[0] - law.q0) - law.d * thd;
    dtheta.forEach((v, j) => (Q[j] += drive * v));
  }
  const M = massMatrix(x.rnea, q);
  // the SVD of G from the eigen-decomposition of G^T G: ascending, so the null space comes first
  const { values, vectors } = symmetricEigen(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => G.reduce((s, row) => s + row[i] * row[j], 0))));
  const sigma = values.map((v) => Math.sqrt(Math.max(v, 0)));
  const sMax = sigma[n - 1] ?? 0, sMin = c > 0 ? sigma[n - c] : 1;
  const condG = sMin > 0 ? sMax / sMin : Infinity;
  if (c > n || sMin <= RANK * sMax) return { singular: true, why: `constraint Jacobian G (${c}x${n}) is rank deficient: sigma_min/sigma_max = ${(sMin / sMax).toExponential(2)}`, cond: condG, phi, Gqd };
  // p = G^+ gamma = sum over the row space of v_k (v_k . G^T gamma) / s_k^2
  const Gtg = Array.from({ length: n }, (_, j) => G.reduce((s, row, i) => s + row[j] * gamma[i], 0));
  const p = new Array<number>(n).fill(0);
  for (let k = n - c; k < n; k++) {
    const s = dot3n(vectors[k], Gtg) / values[k];
    vectors[k].forEach((v, i) => (p[i] += s * v));
  }
  const Z = vectors.slice(0, n - c);
  const rhs = mulMatVec(M, p).map((v, i) => Q[i] - h[i] - v);
  const Mr = Z.map((zi) => Z.map((zj) => dot3n(zi, mulMatVec(M, zj))));
  // scaled by what z^T M z would be without cancellation (symmetric.ts: a motion that moves no mass leaves only rounding)
  const y: SpdSolution = solveSymmetricPsd(Mr, Z.map((z) => dot3n(z, rhs)), Z.map((z) => z.reduce((s, zi, i) => s + zi * zi * M[i][i], 0)));
  if (y.singular) return { singular: true, why: `reduced mass matrix Z^T M Z singular: ${y.why}`, cond: y.cond, phi, Gqd };
  const qdd = p.map((pi, i) => pi + Z.reduce((s, z, k) => s + z[i] * y.x[k], 0));
  return { singular: false, qdd, cond: condG * y.cond, fdErr: Math.max(gErr, curv.err * speed * speed), phi, Gqd };
}

const sub3 = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot3n = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

/**
 * Relative smallest singular value (sigma_min / sigma_max) of the constraint
 * Jacobian restricted to some coordinates (e.g. the rest joints a builder
 * chose to close the loops with): 0 when those coordinates cannot move the
 * cut in every constrained direction, whatever the rest of the mechanism can.
 */
export function columnRank(sys: LoopSystem, q: readonly number[], columns: readonly number[]): number {
  const x = expand(sys.tree);
  const { J } = jacobian((y) => constraints(sys, x, y), q);
  const Jc = J.map((row) => columns.map((i) => row[i]));
  const m = columns.length;
  const { values } = symmetricEigen(Array.from({ length: m }, (_, a) => Array.from({ length: m }, (_, b) => Jc.reduce((acc, r) => acc + r[a] * r[b], 0))));
  const sigma = values.map((v) => Math.sqrt(Math.max(v, 0)));
  return m === 0 ? 1 : sigma[m - J.length] / sigma[m - 1];
}

/**
 * The loop closed by Newton's method on the rest coordinates (indices into
 * q), warm-started from q: the oracle's own answer to "does this loop close
 * near here". Returns q with the rest coordinates solved, or undefined.
 */
export function assemble(sys: LoopSystem, q: readonly number[], rest: readonly number[]): number[] | undefined {
  const x = expand(sys.tree);
  const y = [...q];
  for (let it = 0; it < 50; it++) {
    const phi = constraints(sys, x, y);
    if (maxAbs(phi) < 1e-12) return y;
    const f = (r: number[]) => constraints(sys, x, y.map((v, i) => (rest.includes(i) ? r[rest.indexOf(i)] : v)));
    const { J } = jacobian(f, rest.map((i) => y[i]), 1e-3);
    const step = solveSquare(J, phi.map((v) => -v));
    if (!step) return undefined;
    rest.forEach((i, k) => (y[i] += step[k]));
  }
  return maxAbs(constraints(sys, x, y)) < 1e-9 ? y : undefined;
}

/** least squares through the normal equations, undefined when singular (only used to assemble) */
function solveSquare(J: number[][], b: number[]): number[] | undefined {
  const n = J[0]?.length ?? 0;
  const A = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => J.reduce((s, r) => s + r[i] * r[j], 0)));
  const s = solveSymmetricPsd(A, Array.from({ length: n }, (_, i) => J.reduce((acc, r, k) => acc + r[i] * b[k], 0)));
  return s.singular ? undefined : s.x;
}
