// Oracle: dynamics of a tree of rigid bodies that may float — a free joint at
// the root (or anywhere), quaternion ball joints, revolute, prismatic,
// universal, spherical (Cardan) and fixed joints — in 6D spatial notation,
// written from Featherstone, Rigid Body Dynamics Algorithms (2008), on plain
// numbers, no Kron code. Two independent forward dynamics that must agree:
//   aba   the articulated-body algorithm, Table 7.1, with multi-DoF joints
//         (U_i = IA_i S_i, D_i = S_i^T U_i a matrix); a free joint is the 6-DoF
//         joint of Table 4.1, which makes this the floating-base ABA of ch. 9
//         (there the root's IA_0 a_0 = -pA_0 is solved directly; here the
//         same solve is D^-1 of the free joint, whose S is invertible)
//   crba  H(q) by the composite-rigid-body algorithm (Table 6.2) and the bias
//         C(q, v) by the RNEA (Table 5.1) at dv = 0, then H dv = Q - C densely
//
// Conventions (the layout table is in floating-tree.ts):
//   q    per link: revolute/prismatic q; universal 2, spherical 3 angles; ball
//        Q = (w, x, y, z); free r[1..3] then Q; fixed nothing
//   v    per link: rates; ball w[1..3]; free v[1..3] then w[1..3]
//        free: v = der(r), frame_a (world for a root: MuJoCo qvel[0..3]);
//        w angular velocity of frame_b relative to frame_a, in frame_b (qvel[3..6])
//        ball: w likewise (MuJoCo's ball-joint qvel)
//   dv   the time derivatives of the numbers in v (MuJoCo's qacc): for a free
//        root, [d/dt v (world), d/dt w (body)]
//   tau  generalized forces paired with v in power; free f[1..3] in frame_a
//        (on frame_b), tau[1..3] in frame_b; the force laws of the links add
//        Q = tau - c (q - q0) - d v (floating-tree.ts)
//   fExt per description link, world-resolved: a force at the body's centre of
//        mass and a torque (MuJoCo's xfrc_applied)
//   momentum about the world origin, world-resolved; energies: potential -m g . c
//
// Example (a floating body with a quaternion ball joint and a revolute below it):
//   const model = floatingModel({ gravity: [0, 0, -9.81], links: [
//     { parent: -1, E: identity(), o: [0, 0, 0], joint: 'free', body: { m: 10, c: [0, 0, 0], I: [1, 2, 3, 0, 0, 0] } },
//     { parent: 0, E: identity(), o: [0.3, 0, 0], joint: 'ball', body: { m: 1, c: [0, 0, -0.2], I: [0.01, 0.01, 0.002, 0, 0, 0] } },
//     { parent: 1, E: identity(), o: [0, 0, -0.4], joint: 'revolute', axes: [[0, 1, 0]], body: { m: 1, c: [0, 0, -0.2], I: [0.01, 0.01, 0.002, 0, 0, 0] } },
//   ] });
//   // q = [r1 r2 r3 Qw Qx Qy Qz | Qw Qx Qy Qz | q],  v = [v1 v2 v3 w1 w2 w3 | w1 w2 w3 | qd]  (nq 12, nv 10)
//   const dv = forwardDynamics(model, q, v, tau);         // 'crba' as the 6th argument for the other algorithm
//   const tau2 = inverseDynamics(model, q, v, dv);        // = tau
//   const { linear, angular } = momentum(model, q, v);
//
// Beside it: floating-tree.ts (the description, joint models, kinematics),
// floating-random.ts (seeded random trees and states), floating-cardan.ts (the
// same tree for joint-tree.ts and loops.ts: loops on a floating base),
// floating-mjcf.ts (the same tree for MuJoCo: floating.test.ts checks qacc),
// torque-free.ts (the free rigid body in closed form, elliptic functions).
import { type V3, add, cross, dot, mulMV, mulMtV, scale } from './rnea.ts';
import { type BodyMotion, type ExternalForce, type FloatingModel, type ModelBody, kinematics, subspaceTimes, velocityProduct } from './floating-tree.ts';
import { type Quat, quatNormalize, quatRate } from './quaternion.ts';
import { type Mat6, type Vec6, add6, crossF, dotN, forceFrom, inertiaFrom, invert, join, matVec, motionTo, sub6, zero6 } from './spatial.ts';
import { solveDense } from './gauss.ts';

export * from './floating-tree.ts';
export { integrateQuaternion } from './quaternion.ts';

export type Method = 'aba' | 'crba';

/** generalized forces of the inputs and the force laws: Q = tau - c (q - q0) - d v (c only on one-angle or one-length coordinates) */
export function appliedForces(model: FloatingModel, q: readonly number[], v: readonly number[], tau: readonly number[]): number[] {
  if (tau.length !== model.nv) throw new Error(`tau has ${tau.length} entries, the model ${model.nv} velocities`);
  const Q = [...tau];
  model.tree.links.forEach((l, i) => {
    const { qi, vi, nv } = model.links[i];
    const scalar = !(l.joint === 'ball' || l.joint === 'free');
    for (let k = 0; l.law && k < nv; k++) Q[vi + k] -= (scalar ? l.law.c * (q[qi + k] - l.law.q0) : 0) + l.law.d * v[vi + k];
  });
  return Q;
}

/** the external forces as spatial forces on each model body, body coordinates, about the body origin */
function bodyForces(model: FloatingModel, R: readonly BodyMotion[], fExt: readonly (ExternalForce | undefined)[] = []): Vec6[] {
  const out = model.bodies.map(() => zero6());
  fExt.forEach((e, l) => {
    if (!e) return;
    const b = model.links[l].body;
    const f = mulMtV(R[b].R, e.force);
    out[b] = join(add(mulMtV(R[b].R, e.torque), cross(model.bodies[b].c, f)), f);
  });
  return out;
}

const gravityAcceleration = (model: FloatingModel): Vec6 => join([0, 0, 0], scale(-1, model.tree.gravity));
const velocitySlice = (b: ModelBody, x: readonly number[]) => x.slice(b.vi, b.vi + b.nv);

// (model, q, v, Q, fExt) => dv by the articulated-body algorithm (Table 7.1; gravity as the base's acceleration -g)
export function aba(
  model: FloatingModel,
  q: readonly number[],
  v: readonly number[],
  Q: readonly number[],
  fExt?: readonly (ExternalForce | undefined)[],
): number[] {
  const M = kinematics(model, q, v);
  const fx = bodyForces(model, M, fExt);
  const nb = model.bodies.length;
  const c = M.map(velocityProduct);
  const IA: Mat6[] = model.bodies.map((b) => b.I.map((row) => [...row]));
  const pA: Vec6[] = model.bodies.map((b, i) => sub6(crossF(M[i].v, matVec(b.I, M[i].v)), fx[i]));
  const U: Vec6[][] = [],
    Dinv: number[][][] = [],
    u: number[][] = [];
  // pass 2: articulated-body inertias and bias forces, leaves to root
  for (let i = nb - 1; i >= 0; i--) {
    const b = model.bodies[i],
      S = M[i].S;
    U[i] = S.map((s) => matVec(IA[i], s));
    Dinv[i] = invert(
      S.map((s) => U[i].map((Uk) => dotN(s, Uk))),
      `body ${i} (${b.kind}): D = S^T IA S`,
    );
    u[i] = velocitySlice(b, Q).map((x, k) => x - dotN(S[k], pA[i]));
    if (b.parent < 0) continue;
    const UD = U[i].map((_, k) =>
      U[i].reduce(
        (acc, Uj, j) =>
          add6(
            acc,
            Uj.map((x) => x * Dinv[i][j][k]),
          ),
        zero6(),
      ),
    ); // columns of U D^-1
    const Ia = IA[i].map((row, r) => row.map((x, s) => x - UD.reduce((acc, col, k) => acc + col[r] * U[i][k][s], 0)));
    const pa = add6(
      add6(pA[i], matVec(Ia, c[i])),
      UD.reduce(
        (acc, col, k) =>
          add6(
            acc,
            col.map((x) => x * u[i][k]),
          ),
        zero6(),
      ),
    );
    const dI = inertiaFrom(M[i].X, Ia);
    IA[b.parent] = IA[b.parent].map((row, r) => row.map((x, s) => x + dI[r][s]));
    pA[b.parent] = add6(pA[b.parent], forceFrom(M[i].X, pa));
  }
  // pass 3: accelerations, root to leaves
  const a: Vec6[] = [],
    dv = new Array<number>(model.nv).fill(0);
  for (let i = 0; i < nb; i++) {
    const b = model.bodies[i];
    const ap = add6(motionTo(M[i].X, b.parent < 0 ? gravityAcceleration(model) : a[b.parent]), c[i]);
    const rhs = u[i].map((x, k) => x - dotN(U[i][k], ap));
    const ddq = Dinv[i].map((row) => dotN(row, rhs));
    ddq.forEach((x, k) => (dv[b.vi + k] = x));
    a[i] = add6(ap, subspaceTimes(M[i].S, dv, b.vi));
  }
  return dv;
}

// (model, q, v, dv, fExt) => the generalized forces Q the motion needs (RNEA, Table 5.1; gravity as the base's acceleration)
export function rnea(
  model: FloatingModel,
  q: readonly number[],
  v: readonly number[],
  dv: readonly number[],
  fExt?: readonly (ExternalForce | undefined)[],
): number[] {
  const M = kinematics(model, q, v);
  const fx = bodyForces(model, M, fExt);
  const a: Vec6[] = [],
    f: Vec6[] = [];
  model.bodies.forEach((b, i) => {
    a[i] = add6(add6(motionTo(M[i].X, b.parent < 0 ? gravityAcceleration(model) : a[b.parent]), subspaceTimes(M[i].S, dv, b.vi)), velocityProduct(M[i]));
    f[i] = sub6(add6(matVec(b.I, a[i]), crossF(M[i].v, matVec(b.I, M[i].v))), fx[i]);
  });
  const Q = new Array<number>(model.nv).fill(0);
  for (let i = model.bodies.length - 1; i >= 0; i--) {
    const b = model.bodies[i];
    M[i].S.forEach((s, k) => (Q[b.vi + k] = dotN(s, f[i])));
    if (b.parent >= 0) f[b.parent] = add6(f[b.parent], forceFrom(M[i].X, f[i]));
  }
  return Q;
}

// (model, q) => H(q), nv x nv, by the composite-rigid-body algorithm (Table 6.2)
export function massMatrix(model: FloatingModel, q: readonly number[]): number[][] {
  const M = kinematics(model, q, new Array<number>(model.nv).fill(0));
  const Ic: Mat6[] = model.bodies.map((b) => b.I.map((row) => [...row]));
  for (let i = model.bodies.length - 1; i >= 0; i--) {
    const p = model.bodies[i].parent;
    if (p < 0) continue;
    const dI = inertiaFrom(M[i].X, Ic[i]);
    Ic[p] = Ic[p].map((row, r) => row.map((x, s) => x + dI[r][s]));
  }
  const H = Array.from({ length: model.nv }, () => new Array<number>(model.nv).fill(0));
  model.bodies.forEach((b, i) => {
    // F = Ic_i S_i carried up the path to the root, H_ji = S_j^T F at every body j on it
    let F = M[i].S.map((s) => matVec(Ic[i], s));
    for (let j = i; ; F = F.map((col) => forceFrom(M[j].X, col)), j = model.bodies[j].parent) {
      const bj = model.bodies[j];
      M[j].S.forEach((s, r) => F.forEach((col, k) => (H[bj.vi + r][b.vi + k] = H[b.vi + k][bj.vi + r] = dotN(s, col))));
      if (bj.parent < 0) break;
    }
  });
  return H;
}

/** C(q, v): gravity, velocity products and external forces as generalized forces (RNEA at dv = 0) */
export const biasForces = (model: FloatingModel, q: readonly number[], v: readonly number[], fExt?: readonly (ExternalForce | undefined)[]): number[] =>
  rnea(model, q, v, new Array<number>(model.nv).fill(0), fExt);

// (model, q, v, tau, fExt, method) => dv: the accelerations (header conventions)
export function forwardDynamics(
  model: FloatingModel,
  q: readonly number[],
  v: readonly number[],
  tau: readonly number[],
  fExt?: readonly (ExternalForce | undefined)[],
  method: Method = 'aba',
): number[] {
  const Q = appliedForces(model, q, v, tau);
  if (method === 'aba') return aba(model, q, v, Q, fExt);
  const C = biasForces(model, q, v, fExt);
  return solveDense(
    massMatrix(model, q),
    Q.map((x, i) => x - C[i]),
  );
}

// (model, q, v, dv, fExt) => the input tau that gives dv (the force laws' part removed): forwardDynamics' inverse
export function inverseDynamics(
  model: FloatingModel,
  q: readonly number[],
  v: readonly number[],
  dv: readonly number[],
  fExt?: readonly (ExternalForce | undefined)[],
): number[] {
  const Q = rnea(model, q, v, dv, fExt);
  const laws = appliedForces(model, q, v, new Array<number>(model.nv).fill(0));
  return Q.map((x, i) => x - laws[i]);
}

// ---- world quantities, from each body's centre of mass (not from the spatial inertias) ------

interface MassPoint {
  m: number;
  /** centre of mass and its velocity, world */
  c: V3;
  cd: V3;
  /** angular velocity, body coordinates; inertia about the CoM, body coordinates; body to world */
  w: V3;
  Ic: ModelBody['Ic'];
  R: ModelBody['Ic'];
}

function massPoints(model: FloatingModel, q: readonly number[], v: readonly number[]): MassPoint[] {
  return kinematics(model, q, v).map((k, i) => {
    const b = model.bodies[i];
    const w: V3 = [k.v[0], k.v[1], k.v[2]];
    return { m: b.m, c: add(k.p, mulMV(k.R, b.c)), cd: mulMV(k.R, add([k.v[3], k.v[4], k.v[5]], cross(w, b.c))), w, Ic: b.Ic, R: k.R };
  });
}

/** total linear momentum and angular momentum about the world origin, world-resolved: sum of m cd and c x m cd + R Ic w */
export function momentum(model: FloatingModel, q: readonly number[], v: readonly number[]): { linear: V3; angular: V3 } {
  let linear: V3 = [0, 0, 0],
    angular: V3 = [0, 0, 0];
  for (const p of massPoints(model, q, v)) {
    const mv = scale(p.m, p.cd);
    linear = add(linear, mv);
    angular = add(angular, add(cross(p.c, mv), mulMV(p.R, mulMV(p.Ic, p.w))));
  }
  return { linear, angular };
}

/** total mass and centre of mass, world */
export function centreOfMass(model: FloatingModel, q: readonly number[]): { mass: number; r: V3 } {
  const pts = massPoints(model, q, new Array<number>(model.nv).fill(0));
  const mass = pts.reduce((s, p) => s + p.m, 0);
  return {
    mass,
    r: scale(
      1 / mass,
      pts.reduce((s, p) => add(s, scale(p.m, p.c)), [0, 0, 0] as V3),
    ),
  };
}

/** 1/2 sum (m |cd|^2 + w . Ic w) */
export const kineticEnergy = (model: FloatingModel, q: readonly number[], v: readonly number[]): number =>
  massPoints(model, q, v).reduce((s, p) => s + 0.5 * (p.m * dot(p.cd, p.cd) + dot(p.w, mulMV(p.Ic, p.w))), 0);

/** -sum m g . c (zero at the world origin) */
export const potentialEnergy = (model: FloatingModel, q: readonly number[]): number =>
  -massPoints(model, q, new Array<number>(model.nv).fill(0)).reduce((s, p) => s + p.m * dot(model.tree.gravity, p.c), 0);

// ---- integration ----------------------------------------------------------------------------

/** der(q) from (q, v): rates as they are, der(r) = v, der(Q) = 1/2 Q (x) (0, w) */
export function positionRate(model: FloatingModel, q: readonly number[], v: readonly number[]): number[] {
  const dq = new Array<number>(model.nq).fill(0);
  for (const b of model.bodies) {
    const at = b.kind === 'free' ? b.qi + 3 : b.qi;
    if (b.kind === 'free') for (let k = 0; k < 3; k++) dq[b.qi + k] = v[b.vi + k];
    if (b.kind === 'free' || b.kind === 'ball') {
      const w = b.kind === 'free' ? b.vi + 3 : b.vi;
      quatRate(q.slice(at, at + 4) as Quat, [v[w], v[w + 1], v[w + 2]]).forEach((x, k) => (dq[at + k] = x));
    } else if (b.nq === 1) dq[b.qi] = v[b.vi];
  }
  return dq;
}

/** q with every quaternion scaled to |Q| = 1 */
export function normalizeQuaternions(model: FloatingModel, q: readonly number[]): number[] {
  const out = [...q];
  model.bodies.forEach((b, i) => {
    if (b.kind !== 'free' && b.kind !== 'ball') return;
    const at = b.kind === 'free' ? b.qi + 3 : b.qi;
    quatNormalize(q.slice(at, at + 4) as Quat, `body ${i}: ${b.kind} joint Q`).forEach((x, k) => (out[at + k] = x));
  });
  return out;
}

/**
 * one classical RK4 step of (q, v) with the inputs held over the step, then
 * every quaternion renormalised (a change of O(h^5) per step, below the
 * method's own error; it keeps R(Q) a rotation over long runs)
 */
export function rk4Step(
  model: FloatingModel,
  q: readonly number[],
  v: readonly number[],
  h: number,
  tau?: readonly number[],
  fExt?: readonly (ExternalForce | undefined)[],
  method: Method = 'aba',
): { q: number[]; v: number[] } {
  const t = tau ?? new Array<number>(model.nv).fill(0);
  const f = (x: readonly number[], y: readonly number[]) => ({ dq: positionRate(model, x, y), dv: forwardDynamics(model, x, y, t, fExt, method) });
  const at = (k: { dq: number[]; dv: number[] }, s: number) => ({ q: q.map((x, i) => x + s * k.dq[i]), v: v.map((x, i) => x + s * k.dv[i]) });
  const k1 = f(q, v);
  const s2 = at(k1, h / 2),
    k2 = f(s2.q, s2.v);
  const s3 = at(k2, h / 2),
    k3 = f(s3.q, s3.v);
  const s4 = at(k3, h),
    k4 = f(s4.q, s4.v);
  const comb = (x: readonly number[], key: 'dq' | 'dv') => x.map((xi, i) => xi + (h / 6) * (k1[key][i] + 2 * k2[key][i] + 2 * k3[key][i] + k4[key][i]));
  return { q: normalizeQuaternions(model, comb(q, 'dq')), v: comb(v, 'dv') };
}
