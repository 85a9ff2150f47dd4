// A linearization of a model with free or ball joints on the tangent space,
// as Pinocchio's and Crocoddyl's: each quaternion Q[1..4] (four states for
// three degrees of freedom, unit norm) is replaced by the rotation vector
// theta[1..3] about its joint's frame_b axes, Q = Q0 (x) exp(theta / 2)
// about the point's Q0, so that a floating model's A is 2 n_v x 2 n_v with
// the state x = (delta q, qd) and no direction that changes |Q| (the norm
// the integrators hold at one; in the four states it is an eigenvalue 0
// of A that means nothing). With x_full = T x (T = dQ/dtheta =
// 1/2 Q0 (x) (0, e_k) on a quaternion's rows, the identity elsewhere) and
// P the left inverse (theta = 2 vec(Q0^-1 (x) dQ)):
//   A' = P A T,  B' = P B,  C' = C T,  D' = D,  dx' = P dx.
// On a quaternion's rows this gives d theta/dt = dw - 1/2 w0 x theta, the
// right Jacobian's inverse of SO(3) at theta = 0.
import type { Linearization } from './linearize.ts';
import { eigenvalues } from './eigenvalues.ts';

/** the theta rows' names in place of the quaternion's: "base.Q[1]" becomes "base.theta[1]".."base.theta[3]" */
export const thetaNames = (Q1: string): string[] => [1, 2, 3].map((k) => Q1.replace(/Q\[1\]$/, `theta[${k}]`));

/** lin on the tangent space of the quaternions `groups` (state names Q[1..4] each); unchanged without any */
export function onTangentSpace(lin: Linearization, groups: readonly (readonly string[])[]): Linearization {
  if (groups.length === 0) return lin;
  const N = lin.states.length;
  // column j of T (the tangent coordinates') as sparse entries of the full states; rows of P likewise
  const T: [number, number][][] = [],
    P: [number, number][][] = [],
    states: string[] = [],
    x: number[] = [];
  const first = new Map(groups.map((g) => [lin.states.indexOf(g[0]), g.map((name) => lin.states.indexOf(name))]));
  const inGroup = new Set(groups.flatMap((g) => g.map((name) => lin.states.indexOf(name))));
  for (let i = 0; i < N; i++) {
    const at = first.get(i);
    if (at) {
      const Q = at.map((k) => lin.x[k]),
        n2 = Q[0] ** 2 + Q[1] ** 2 + Q[2] ** 2 + Q[3] ** 2;
      for (let axis = 0; axis < 3; axis++) {
        const e = halfTurn(Q, axis);
        T.push(at.map((k, m) => [k, e[m]]));
        // theta_axis = 2 vec(conj(Q0) (x) dQ)_axis / |Q0|^2 = e . dQ * 4 / |Q0|^2 (e orthogonal to Q0, |e|^2 = |Q0|^2 / 4)
        P.push(at.map((k, m) => [k, (4 * e[m]) / n2]));
        states.push(thetaNames(lin.states[i])[axis]);
        x.push(0);
      }
    } else if (!inGroup.has(i)) {
      T.push([[i, 1]]);
      P.push([[i, 1]]);
      states.push(lin.states[i]);
      x.push(lin.x[i]);
    }
  }
  const left = (M: number[][]) => P.map((row) => M[0]?.map((_, j) => row.reduce((s, [k, v]) => s + v * M[k][j], 0)) ?? []);
  const right = (M: number[][]) => M.map((r) => T.map((col) => col.reduce((s, [k, v]) => s + r[k] * v, 0)));
  const A = right(left(lin.A));
  return {
    ...lin,
    states,
    x,
    dx: P.map((row) => row.reduce((s, [k, v]) => s + v * lin.dx[k], 0)),
    A,
    B: left(lin.B),
    C: right(lin.C),
    eigenvalues: eigenvalues(A),
  };
}

/** 1/2 Q (x) (0, e_axis): dQ/dtheta_axis of Q (x) exp(theta / 2) at theta = 0 */
function halfTurn([w, x, y, z]: readonly number[], axis: number): number[] {
  const h = [
    [-x, w, z, -y],
    [-y, -z, w, x],
    [-z, y, -x, w],
  ][axis];
  return h.map((v) => v / 2);
}
