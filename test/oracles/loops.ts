// Oracle: forward dynamics of mechanisms with kinematic loops, plain numbers,
// no Kron code. (tree, cuts, q, qd, tau) => qdd of every tree coordinate, or
// "singular".
//
// The spanning tree's dynamics M(q) qdd + h(q, qd) = Q come from the tree
// oracle (joint-tree.ts: M by RNEA columns, h by the RNEA) over ALL tree
// coordinates (state and rest joints). Each cut joint adds constraints
// phi(q) = 0, written from the joint's definition
// (src/library/multibody/cut.ts), with d = r_b - r_a:
//   spherical    d = 0                                                  (3)
//   universal    d = 0,  (R_a n1) . (R_b n2) = n1 . n2                  (4)
//                (a universal joint keeps axis 1, fixed in frame_a, at its
//                own angle to axis 2, fixed in frame_b, for any q1, q2)
//   revolute     d = 0,  (R_a u1) . (R_b n) = 0,  (R_a u2) . (R_b n) = 0 (5)
//                (u1, u2 normal to the axis n: frame_b's axis stays along frame_a's)
//   planar       (R_a u1) . d = 0,  (R_a u2) . d = 0                     (2)
//   prismatic    (R_a u1) . d = 0,  (R_a u2) . d = 0,                      (5)
//                (R_a u1) . (R_b n) = 0,  (R_a u2) . (R_b n) = 0,
//                (R_a u1) . (R_b u2) = 0
//                (the guide along n: no translation normal to it, no turn)
//   planar-prismatic  (R_a w) . d = 0,  (R_a n) . (R_b w) = 0               (2)
//                (axes [n, p]: the guide n in planes normal to p, w = p x n)
// G = dphi/dq and the bias d^2/dt^2 phi at qdd = 0 (gamma = -bias) are
// analytic, from the joints' screw axes (screws.ts says why not finite
// differences). The KKT system (Featherstone 2008, sec. 8.1, eq. 8.5)
//   M qdd - G^T lambda = Q - h,   G qdd = gamma
// is solved in mass-scaled coordinates, so that a body of 1e12 kg next to
// one of 1 kg costs no accuracy (solveKkt below), then refined with
// residuals in twice the working precision; the size of the last refinement
// step is the oracle's own error estimate. It is singular when
//   - G has rank < its rows (sigma_c <= RANK * sigma_1): a dead point,
//     change point, or constraints redundant for this geometry;
//   - some motion the loops allow moves no mass, or almost none: a motion of
//     the massless coordinates (M_ii = 0) that the constraints leave free,
//     or a reduced mass matrix in mass-scaled coordinates whose smallest
//     eigenvalue is at most SINGULAR (symmetric.ts) of its unit diagonal.
// A drive or spring on a cut revolute acts on its relative angle theta(q)
// (theta measured as Kron measures it: R_a^T R_b = Rot(n, theta)), so its
// generalized force is Q_theta * dtheta/dq, dtheta/dq = (w_b - w_a)_q . n_a;
// on a cut prismatic on its displacement s(q) = n_a . d, whose rate per
// coordinate is (w_a,q x n_a) . d + n_a . (v_b - v_a)_q (the power of a force
// s' F along the guide between the two frames at frame_b's origin).
import { type AttachedFrame, type Expanded, type ForceLaw, type OracleTree, appliedForces, expand, framePose, massMatrix, poses } from './joint-tree.ts';
import { type V3, add, cross, dot, mulMtV, mulMV, normalize, rnea } from './rnea.ts';
import { type Motion, carried, frameMotion, motions, path, sub } from './screws.ts';
import { dot2 } from './accurate.ts';
import { maxAbs, mulMatVec } from './symmetric.ts';
import { dotn, solveKkt } from './loop-kkt.ts';

export type CutType = 'spherical' | 'universal' | 'revolute' | 'planar' | 'prismatic' | 'planar-prismatic';

/** a cut that measures a coordinate of its own, which a drive and a spring-damper act on */
export const isDrivenCut = (t: CutType): boolean => t !== 'spherical' && t !== 'universal';

export interface OracleCut {
  type: CutType;
  /** where the cut joint's frame_a and frame_b sit */
  a: AttachedFrame;
  b: AttachedFrame;
  /** revolute, planar, prismatic: [n]; planar-prismatic: [n, p]; universal: [n1, n2]; spherical: none */
  axes: V3[];
  /** drive and spring-damper on a cut revolute's angle or a cut prismatic's displacement */
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
  const A = framePose(x, all, cut.a),
    B = framePose(x, all, cut.b);
  const d = sub(B.r, A.r);
  if (cut.type === 'spherical') return d;
  if (cut.type === 'universal') {
    const [n1, n2] = cut.axes.map(normalize);
    return [...d, dot(mulMV(A.R, n1), mulMV(B.R, n2)) - dot(n1, n2)];
  }
  const n = normalize(cut.axes[0]);
  if (cut.type === 'planar-prismatic') {
    const w = inPlaneNormal(cut);
    return [dot(mulMV(A.R, w), d), dot(mulMV(A.R, n), mulMV(B.R, w))];
  }
  const [u1, u2] = normalsOf(n).map((u) => mulMV(A.R, u));
  if (cut.type === 'planar') return [dot(u1, d), dot(u2, d)];
  if (cut.type === 'prismatic') return [dot(u1, d), dot(u2, d), dot(u1, mulMV(B.R, n)), dot(u2, mulMV(B.R, n)), dot(u1, mulMV(B.R, normalsOf(n)[1]))];
  const eb = mulMV(B.R, n);
  return [...d, dot(u1, eb), dot(u2, eb)];
}

/** a planar prismatic cut's in-plane direction normal to its guide: w = p x n */
const inPlaneNormal = (cut: OracleCut): V3 => normalize(cross(normalize(cut.axes[1]), normalize(cut.axes[0])));

/** a cut prismatic's displacement along its guide: s = (R_a n) . d */
function cutDisplacement(x: Expanded, cut: OracleCut, all: ReturnType<typeof poses>): number {
  const A = framePose(x, all, cut.a),
    B = framePose(x, all, cut.b);
  return dot(mulMV(A.R, normalize(cut.axes[0])), sub(B.r, A.r));
}

/** the relative angle of a cut revolute: R_a^T R_b = Rot(n, theta) */
function cutAngle(x: Expanded, cut: OracleCut, all: ReturnType<typeof poses>): number {
  const A = framePose(x, all, cut.a),
    B = framePose(x, all, cut.b);
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

/** the constraints' Jacobian G (rows: constraints, columns: tree coordinates), phi and d^2/dt^2 phi at qdd = 0 */
export interface ConstraintSystem {
  phi: number[];
  G: number[][];
  bias: number[];
}

/** the frame of one side of a cut, with its motion and partial velocities */
const sideMotion = (x: Expanded, all: Motion[], f: AttachedFrame) => frameMotion(x.rnea, all, f.link < 0 ? -1 : x.last[f.link], f.E, f.o);

// (system, expanded tree, q, qd) => phi, G and the bias, analytically (screws.ts)
export function constraintSystem(sys: LoopSystem, x: Expanded, q: readonly number[], qd: readonly number[]): ConstraintSystem {
  const all = motions(x.rnea, q, qd);
  const n = q.length;
  const out: ConstraintSystem = { phi: [], G: [], bias: [] };
  for (const cut of sys.cuts) {
    const A = sideMotion(x, all, cut.a),
      B = sideMotion(x, all, cut.b);
    const d = sub(B.r, A.r),
      dd = sub(B.v, A.v),
      ddd = sub(B.a, A.a);
    const dcol = Array.from({ length: n }, (_, k) => sub(B.dv[k], A.dv[k]));
    // d . e_j, e_j fixed in the world
    const translation = (j: number) => {
      out.phi.push(d[j]);
      out.G.push(dcol.map((v) => v[j]));
      out.bias.push(ddd[j]);
    };
    // (R_a u) . (R_b e) = c: d/dt = (w_a - w_b) . (u x e)
    const orientation = (u: V3, e: V3, c: number) => {
      const [ua, dua, ddua] = carried(mulMV(A.R, u), A),
        [eb, deb, ddeb] = carried(mulMV(B.R, e), B);
      const axis = cross(ua, eb);
      out.phi.push(dot(ua, eb) - c);
      out.G.push(Array.from({ length: n }, (_, k) => dot(sub(A.dw[k], B.dw[k]), axis)));
      out.bias.push(dot(ddua, eb) + 2 * dot(dua, deb) + dot(ua, ddeb));
    };
    // (R_a u) . d
    const inPlane = (u: V3) => {
      const [ua, dua, ddua] = carried(mulMV(A.R, u), A);
      out.phi.push(dot(ua, d));
      out.G.push(Array.from({ length: n }, (_, k) => dot(cross(A.dw[k], ua), d) + dot(ua, dcol[k])));
      out.bias.push(dot(ddua, d) + 2 * dot(dua, dd) + dot(ua, ddd));
    };
    if (cut.type === 'planar') {
      normalsOf(normalize(cut.axes[0])).forEach(inPlane);
      continue;
    }
    if (cut.type === 'planar-prismatic') {
      const w = inPlaneNormal(cut);
      inPlane(w);
      orientation(normalize(cut.axes[0]), w, 0);
      continue;
    }
    if (cut.type === 'prismatic') {
      const n = normalize(cut.axes[0]);
      const [u1, u2] = normalsOf(n);
      inPlane(u1);
      inPlane(u2);
      orientation(u1, n, 0);
      orientation(u2, n, 0);
      orientation(u1, u2, 0);
      continue;
    }
    [0, 1, 2].forEach(translation);
    if (cut.type === 'universal') {
      const [n1, n2] = cut.axes.map(normalize);
      orientation(n1, n2, dot(n1, n2));
    } else if (cut.type === 'revolute') {
      const n = normalize(cut.axes[0]);
      for (const u of normalsOf(n)) orientation(u, n, 0);
    }
  }
  return out;
}

/** dtheta/dq of a cut revolute's angle: (w_b - w_a) per unit rate, along the axis in frame_a */
function cutAngleRate(x: Expanded, cut: OracleCut, all: Motion[]): number[] {
  const A = sideMotion(x, all, cut.a),
    B = sideMotion(x, all, cut.b);
  const na = mulMV(A.R, normalize(cut.axes[0]));
  return A.dw.map((_, k) => dot(sub(B.dw[k], A.dw[k]), na));
}

/** ds/dq of a cut prismatic's displacement (header) */
function cutDisplacementRate(x: Expanded, cut: OracleCut, all: Motion[]): number[] {
  const A = sideMotion(x, all, cut.a),
    B = sideMotion(x, all, cut.b);
  const na = mulMV(A.R, normalize(cut.axes[0]));
  const d = sub(B.r, A.r);
  return A.dw.map((_, k) => dot(cross(A.dw[k], na), d) + dot(na, sub(B.dv[k], A.dv[k])));
}

export type LoopSolution =
  | {
      singular: false;
      qdd: number[];
      /** the constraint forces of the KKT form */
      lambda: number[];
      /** sigma_min / sigma_max of G */
      rankG: number;
      /** smallest eigenvalue of the reduced mass matrix in mass-scaled coordinates (unit diagonal scale) */
      minScaled: number;
      /** condition of G times that of the reduced mass-scaled matrix */
      cond: number;
      /** the size of the last refinement step, relative as the fuzzer measures: max |dqdd| / (max |qdd| + 1) */
      err: number;
      /**
       * per coordinate, a first-order bound on how far qdd moves when every
       * number of the KKT system (M, h, Q, G, gamma) is off by one rounding
       * (dataSensitivity): the oracle's own accuracy, and any double-precision
       * method's, on this state
       */
      sensitivity: number[];
      phi: number;
      Gqd: number;
    }
  | { singular: true; why: string; rankG: number; minScaled: number; cond: number; phi: number; Gqd: number };

// (system, q, qd, tau of the tree coordinates) => qdd of all tree coordinates, or singular
export function loopDynamics(sys: LoopSystem, q: readonly number[], qd: readonly number[], tau: readonly number[]): LoopSolution {
  const x = expand(sys.tree);
  const n = q.length;
  const { phi: phiv, G, bias } = constraintSystem(sys, x, q, qd);
  const gamma = bias.map((v) => -v);
  const phi = maxAbs(phiv);
  const Gqd = maxAbs(mulMatVec(G, qd));
  // tree dynamics and applied forces, with the cut revolutes' drives through dtheta/dq
  const h = rnea(x.rnea, q, qd, new Array<number>(n).fill(0));
  const Q = appliedForces(x.laws, q, qd, tau);
  const all = motions(x.rnea, q, qd);
  for (const cut of sys.cuts) {
    if (!isDrivenCut(cut.type) || (!cut.tau && !cut.law?.c && !cut.law?.d)) continue;
    const sliding = cut.type === 'prismatic' || cut.type === 'planar-prismatic';
    const rate = sliding ? cutDisplacementRate(x, cut, all) : cutAngleRate(x, cut, all);
    const coordinate = sliding ? cutDisplacement(x, cut, poses(x.rnea, q)) : cutAngle(x, cut, poses(x.rnea, q));
    const law = cut.law ?? { c: 0, q0: 0, d: 0 };
    const drive = (cut.tau ?? 0) - law.c * (coordinate - law.q0) - law.d * dotn(rate, qd);
    rate.forEach((v, j) => (Q[j] += drive * v));
  }
  const M = massMatrix(x.rnea, q);
  const kkt = solveKkt(M, G);
  if (kkt.singular) return { singular: true, why: kkt.why, rankG: kkt.rankG, minScaled: kkt.minScaled, cond: kkt.cond, phi, Gqd };
  // iterative refinement: residuals of the stored system in twice the working precision
  // (terms of ~1e13 N next to a heavy body, sums of ~1 N), corrections by the same solve
  const b1 = Q.map((v, i) => v - h[i]);
  let { qdd, lambda } = kkt.solve(b1, gamma);
  let err = Infinity;
  for (let it = 0; it < 8; it++) {
    const r1 = M.map((row, i) => dot2([b1[i], ...row, ...G.map((g) => g[i])], [1, ...qdd.map((v) => -v), ...lambda]));
    const r2 = G.map((row, k) => dot2([gamma[k], ...row], [1, ...qdd.map((v) => -v)]));
    const step = kkt.solve(r1, r2);
    const size = maxAbs(step.qdd) / (maxAbs(qdd) + 1);
    qdd = qdd.map((v, i) => v + step.qdd[i]);
    lambda = lambda.map((v, k) => v + step.lambda[k]);
    // a step that no longer halves is rounding noise: what is left is at most about its size
    const done = size < 1e-17 || size > err / 2;
    err = Math.min(err, size);
    if (done) break;
  }
  const sensitivity = dataSensitivity(kkt.solve, M, G, biasScale(x, all, h), Q, gamma, qdd, lambda);
  return { singular: false, qdd, lambda, rankG: kkt.rankG, minScaled: kkt.minScaled, cond: kkt.cond, err, sensitivity, phi, Gqd };
}

/**
 * hs_i = |h_i| + the size of the terms h_i is the sum of: for every body b
 * that moves with coordinate i, its weight and inertial force times its
 * lever arm about the joint, m_b (|g| + |a_b| + (|al_b| + |w_b|^2) |c_b|)
 * (|r_cb - r_i| + 1), and its inertial torque tr(I_b) (|al_b| + |w_b|^2).
 */
function biasScale(x: Expanded, all: readonly Motion[], h: readonly number[]): number[] {
  const t = x.rnea,
    g = Math.hypot(...t.gravity);
  const norm = (v: V3) => Math.hypot(v[0], v[1], v[2]);
  const hs = h.map(Math.abs);
  t.bodies.forEach((b, k) => {
    if (b.m === 0 && b.I.every((v) => v === 0)) return;
    const m = all[k],
      rc = mulMV(m.R, b.c);
    const spin = norm(m.al) + norm(m.w) ** 2;
    const force = b.m * (g + norm(m.a) + spin * norm(rc)),
      torque = (b.I[0] + b.I[1] + b.I[2]) * spin;
    for (const i of path(t, k)) hs[i] += force * (norm(sub(add(m.r, rc), all[i].r)) + 1) + torque;
  });
  return hs;
}

/**
 * The componentwise (Skeel) condition of the KKT solution with respect to
 * its data: |dqdd_i| <= sum_j |A^-1|_ij db_j, where db is what one rounding
 * (Number.EPSILON) of each number of the system does to the residual:
 *   force rows       eps (|Q_i| + hs_i + sum_j |dM_ij| |qdd_j| + sum_k |dG_ki| |lambda_k|)
 *   constraint rows  eps (|gamma_k| + sum_j |dG_kj| |qdd_j|)
 * with the scales of the entries' own rounding: dM_ij = sqrt(M_ii M_jj) (the
 * size an entry of a PSD matrix can have, so a cancelled coupling keeps the
 * error of its terms), hs_i the size of h_i's terms before they cancel
 * (biasScale: a heavy body over a vertical axis has h_i ~ 0.3 from terms
 * ~1e12), dG_kj = max_j |G_kj| for entries that are not structurally zero.
 *
 * Why it is needed: next to a heavy body the constraint forces lambda reach
 * 1e13 N, and a light link between two coaxial joints is driven by the
 * difference of two such torques; one rounding of G (1e-17) leaves 1e-4 N
 * there, so the light link's acceleration is only known to ~1e-5 by any
 * computation in doubles (fuzz seeds 167, 1802, checked at 50 digits with
 * bench/fuzz/adjudicate.py: the oracle's error there stayed under this bound).
 * The columns of A^-1 come from the solver itself, one solve per row.
 */
function dataSensitivity(
  solve: (b1: readonly number[], b2: readonly number[]) => { qdd: number[] },
  M: number[][],
  G: number[][],
  hs: number[],
  Q: number[],
  gamma: number[],
  qdd: number[],
  lambda: number[],
): number[] {
  const n = M.length,
    c = G.length,
    eps = Number.EPSILON;
  const rowMax = G.map((row) => maxAbs(row));
  const dG = (k: number, j: number) => (G[k][j] !== 0 ? rowMax[k] : 0);
  const sq = M.map((row, i) => Math.sqrt(Math.max(row[i], 0)));
  const db1 = M.map(
    (_, i) =>
      eps *
      (Math.abs(Q[i]) +
        hs[i] +
        qdd.reduce((acc, v, j) => acc + sq[i] * sq[j] * Math.abs(v), 0) +
        lambda.reduce((acc, l, k) => acc + dG(k, i) * Math.abs(l), 0)),
  );
  const db2 = G.map((row, k) => eps * (Math.abs(gamma[k]) + row.reduce((acc, _, j) => acc + dG(k, j) * Math.abs(qdd[j]), 0)));
  const bound = new Array<number>(n).fill(0);
  const unit = (m: number, j: number) => Array.from({ length: m }, (_, i) => (i === j ? 1 : 0));
  const zeros = (m: number) => new Array<number>(m).fill(0);
  for (let j = 0; j < n; j++) if (db1[j] > 0) solve(unit(n, j), zeros(c)).qdd.forEach((v, i) => (bound[i] += Math.abs(v) * db1[j]));
  for (let k = 0; k < c; k++) if (db2[k] > 0) solve(zeros(n), unit(c, k)).qdd.forEach((v, i) => (bound[i] += Math.abs(v) * db2[k]));
  return bound;
}
