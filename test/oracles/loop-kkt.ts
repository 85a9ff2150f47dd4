// The loop oracle's KKT solve (loops.ts): M qdd - G^T lambda = b1, G qdd = b2 in
// mass-scaled coordinates, with massless coordinates taken out first.
import { svdColumns } from './accurate.ts';
import { SINGULAR, mulMatVec, symmetricEigen } from './symmetric.ts';

/** relative rank at or below which the constraint Jacobian is rank deficient */
export const RANK = 1e-8;

/** a . b of two n-vectors */
export const dotn = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

export type Kkt =
  | {
      singular: false;
      solve: (b1: readonly number[], b2: readonly number[]) => { qdd: number[]; lambda: number[] };
      rankG: number;
      minScaled: number;
      cond: number;
    }
  | { singular: true; why: string; rankG: number; minScaled: number; cond: number };

/**
 * The KKT system M qdd - G^T lambda = b1, G qdd = b2 (M symmetric PSD, G c x n)
 * as a solver for any right-hand side, or singular.
 *
 * Why mass-scaled coordinates: a null-space basis Z of G orthonormal in q
 * mixes the coordinates of a 1e12 kg body with those of 1 kg links, so that
 * Z^T M Z carries the light motions as differences of numbers ~1e12, and
 * their accelerations lose 12 digits (the old oracle on fuzz seed 167:
 * 1.9e-4). In the coordinates x_i = sqrt(M_ii) qdd_i the mass matrix has a
 * unit diagonal and entries below 1 in size, exact to rounding; G becomes
 * G D^-1/2, whose null space one-sided Jacobi gets accurately however its
 * columns are scaled (accurate.ts).
 *
 * Why massless coordinates (M_ii = 0, so M's whole row is zero: nothing with
 * mass moves with them) are taken out first: they have no scale, and a
 * scale that vanishes with them (the old sum_i z_i^2 M_ii) let a motion
 * that moves no mass pass as regular (fuzz seeds 1465, 1480: two coaxial
 * revolutes with a massless link between them). Their rows say
 * -G0^T lambda = b1_0 (a massless link transmits the forces on it), which
 * fixes lambda's part in range(G0); their accelerations follow from the
 * constraints, G0 qdd0 = b2 - G1 qdd1. If G0 has dependent columns, some
 * motion of the massless coordinates alone satisfies the constraints and
 * moves no mass: singular. What remains is the KKT system of the massive
 * coordinates with the constraints projected off range(G0), P = 1 - U0 U0^T.
 */
export function solveKkt(M: number[][], G: number[][]): Kkt {
  const n = M.length,
    c = G.length;
  const sG = svdColumns(G, n);
  const rankG = c === 0 ? 1 : sG.sigma[c - 1] / sG.sigma[0];
  const top = sG.sigma[0] ?? 0;
  if (c > n || !(rankG > RANK))
    return {
      singular: true,
      why: `constraint Jacobian G (${c}x${n}) is rank deficient: sigma_min/sigma_max = ${rankG.toExponential(2)}`,
      rankG,
      minScaled: NaN,
      cond: Infinity,
    };
  const massless = M.map((_, i) => i).filter((i) => !(M[i][i] > 0));
  const massive = M.map((_, i) => i).filter((i) => M[i][i] > 0);
  const k0 = massless.length;
  const s0 = svdColumns(
    G.map((row) => massless.map((i) => row[i])),
    k0,
  );
  if (k0 > 0 && (k0 > c || !(s0.sigma[k0 - 1] > RANK * top))) {
    const rel = k0 > c ? 0 : s0.sigma[k0 - 1] / top;
    return {
      singular: true,
      why: `massless coordinates ${massless.join(', ')} (M_ii = 0) have a motion the constraints allow: G restricted to them has sigma_min/sigma_max(G) = ${rel.toExponential(2)}`,
      rankG,
      minScaled: 0,
      cond: Infinity,
    };
  }
  const U0 = s0.U.slice(0, k0),
    V0 = s0.V.slice(0, k0),
    S0 = s0.sigma.slice(0, k0);
  const project = (v: readonly number[]) =>
    U0.reduce(
      (acc, u) => {
        const s = dotn(u, v);
        return acc.map((x, i) => x - s * u[i]);
      },
      [...v],
    );
  const d = massive.map((i) => 1 / Math.sqrt(M[i][i]));
  const n1 = massive.length,
    r = c - k0;
  const Gt: number[][] = Array.from({ length: c }, () => new Array<number>(n1).fill(0));
  massive.forEach((i, j) => project(G.map((row) => row[i])).forEach((v, k) => (Gt[k][j] = v * d[j])));
  const s1 = svdColumns(Gt, n1);
  if (r > 0 && !(s1.sigma[r - 1] > 0))
    return { singular: true, why: `constraint Jacobian of the massive coordinates, mass-scaled, lost rank`, rankG, minScaled: NaN, cond: Infinity };
  const Vr = s1.V.slice(0, r),
    Ur = s1.U.slice(0, r),
    Sr = s1.sigma.slice(0, r);
  const Z = s1.V.slice(r);
  // unit-diagonal mass matrix of the massive coordinates, and its reduction to null(G)
  const Mt = massive.map((i, a) => massive.map((j, b) => d[a] * M[i][j] * d[b]));
  const MtZ = Z.map((z) => mulMatVec(Mt, z));
  const Mr = Z.map((zi) => MtZ.map((mz) => dotn(zi, mz)));
  const { values, vectors } = symmetricEigen(Mr);
  const minScaled = values.length ? values[0] : 1,
    maxScaled = values.length ? values[values.length - 1] : 1;
  const condG = c === 0 ? 1 : sG.sigma[0] / sG.sigma[c - 1];
  const cond = condG * (minScaled > 0 ? maxScaled / minScaled : Infinity);
  if (!(minScaled > SINGULAR))
    return {
      singular: true,
      why: `reduced mass matrix (mass-scaled coordinates) singular: smallest eigenvalue ${minScaled.toExponential(2)}: a motion the loops allow moves (almost) no mass`,
      rankG,
      minScaled,
      cond,
    };
  const solve = (b1: readonly number[], b2: readonly number[]) => {
    // lambda's part in range(G0) from the massless rows: -G0^T lambda0 = b1_0
    const lambda0 = new Array<number>(c).fill(0);
    V0.forEach((v, k) => {
      const s =
        -dotn(
          v,
          massless.map((i) => b1[i]),
        ) / S0[k];
      U0[k].forEach((u, j) => (lambda0[j] += s * u));
    });
    const f = massive.map((i, j) => d[j] * (b1[i] + G.reduce((acc, row, k) => acc + row[i] * lambda0[k], 0)));
    const pb2 = project(b2);
    const p = new Array<number>(n1).fill(0);
    Vr.forEach((v, k) => {
      const s = dotn(Ur[k], pb2) / Sr[k];
      v.forEach((vi, j) => (p[j] += s * vi));
    });
    const Mp = mulMatVec(Mt, p);
    const g = Z.map((z) =>
      dotn(
        z,
        f.map((fi, j) => fi - Mp[j]),
      ),
    );
    // y = Mr^-1 g by its eigenvectors
    const y = new Array<number>(Z.length).fill(0);
    vectors.forEach((v, k) => {
      const s = dotn(v, g) / values[k];
      v.forEach((vi, j) => (y[j] += s * vi));
    });
    const xs = p.map((pj, j) => pj + Z.reduce((acc, z, k) => acc + z[j] * y[k], 0));
    // the rest of lambda from the massive rows: Gt^T mu = Mt x - f
    const res = mulMatVec(Mt, xs).map((v, j) => v - f[j]);
    const lambda = [...lambda0];
    Ur.forEach((u, k) => {
      const s = dotn(Vr[k], res) / Sr[k];
      u.forEach((ui, j) => (lambda[j] += s * ui));
    });
    const qdd = new Array<number>(n).fill(0);
    massive.forEach((i, j) => (qdd[i] = d[j] * xs[j]));
    // massless accelerations from the constraints: G0 qdd0 = b2 - G1 qdd1
    const rest = b2.map((b, k) => b - massive.reduce((acc, i) => acc + G[k][i] * qdd[i], 0));
    V0.forEach((v, k) => {
      const s = dotn(U0[k], rest) / S0[k];
      massless.forEach((i, j) => (qdd[i] += s * v[j]));
    });
    return { qdd, lambda };
  };
  return { singular: false, solve, rankG, minScaled, cond };
}
