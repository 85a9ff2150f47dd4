// The oracles' answers for the floating family (mechanisms with free and
// quaternion ball joints), in Kron's numbers: positions q (ball Q; free r,
// Q), velocities v (ball w; free v, w), and dv, their time derivatives, as
// test/oracles/floating.ts's conventions say (MuJoCo's qpos, qvel, qacc).
//   trees  test/oracles/floating.ts directly: H(q) by the composite-rigid-body
//          algorithm, C(q, v) by the RNEA, the force laws (a ball joint's
//          damper too), then H dv = Q - C by the tree oracle's scaled solve
//          (symmetric.ts), which also gives the singularity verdict and the
//          condition number check.ts widens its tolerance by
//   loops  the Cardan equivalent (describe.ts oracleSystem) through loops.ts:
//          the state carried over by toCardan, the accelerations back by
//          fromCardanAccelerations (dw = J dda + dJ da). Its singularity
//          verdict (the smallest eigenvalue of the reduced mass matrix in
//          mass-scaled coordinates) is one of Cardan coordinates; Kron's are
//          w = J da, in which that eigenvalue may differ by up to cond(J)^2,
//          the `spread` check.ts widens its grey zone by (fuzz seeds
//          16000168, 16000758: 4.3e-15 and 6.0e-15 with a 2.5e12 kg body on
//          ball joints at cos a2 = 0.37 and 0.28)
import { appliedForces, biasForces, floatingModel, massMatrix } from '../../test/oracles/floating.ts';
import { cardanJacobian, fromCardanAccelerations } from '../../test/oracles/floating-cardan.ts';
import type { V3 } from '../../test/oracles/rnea.ts';
import { type LoopSolution, type LoopSystem, loopDynamics } from '../../test/oracles/loops.ts';
import { type SpdSolution, solveSymmetricPsd, symmetricEigen } from '../../test/oracles/symmetric.ts';
import { floatingTree, isFloating, oracleCoordinates, velocityCount } from './describe.ts';
import type { MechanismSpec } from './spec.ts';

// (spec, q, v, tau in Kron's numbers) => dv of a floating tree, or "singular"
export function floatingTreeDynamics(spec: MechanismSpec, q: readonly number[], v: readonly number[], tau: readonly number[]): SpdSolution {
  const model = floatingModel(floatingTree(spec));
  const Q = appliedForces(model, q, v, tau),
    C = biasForces(model, q, v);
  return solveSymmetricPsd(
    massMatrix(model, q),
    Q.map((x, i) => x - C[i]),
  );
}

/**
 * (spec, the oracle's system with its cut drives, q, v, tau in Kron's
 * numbers) => loops.ts's answer with qdd = dv and the data sensitivity per
 * velocity coordinate: a Cardan angle's sensitivity s carried to w = J da
 * at most as sum_j |J_ij| s_j <= 3 max_j s_j (J's columns are unit axes)
 */
export function floatingLoopDynamics(
  spec: MechanismSpec,
  sys: LoopSystem,
  q: readonly number[],
  v: readonly number[],
  tau: readonly number[],
): LoopSolution & { spread: number } {
  const c = oracleCoordinates(spec, q, v, tau);
  const r = loopDynamics(sys, c.q, c.v, c.tau);
  const spread = cardanSpread(spec, c.q);
  if (r.singular) return { ...r, spread };
  const sensitivity = [...r.sensitivity];
  let at = 0;
  for (const l of spec.links) {
    const angular = l.joint === 'ball' ? at : l.joint === 'free' ? at + 3 : -1;
    if (angular >= 0) sensitivity.fill(3 * Math.max(...sensitivity.slice(angular, angular + 3)), angular, angular + 3);
    at += velocityCount(l.joint);
  }
  return { ...r, qdd: fromCardanAccelerations(floatingTree(spec, false), c.q, c.v, r.qdd), sensitivity, spread };
}

/**
 * (spec, the oracle tree's coordinates) => the largest cond(J)^2 of the Cardan Jacobians J(a) of the ball
 * and free joints (1 without them): how far apart the mass-scaled eigenvalues of the two coordinate sets may be
 */
export function cardanSpread(spec: MechanismSpec, cq: readonly number[]): number {
  if (!isFloating(spec)) return 1;
  let at = 0,
    spread = 1;
  for (const l of spec.links) {
    const a = l.joint === 'ball' ? at : l.joint === 'free' ? at + 3 : -1;
    if (a >= 0) {
      const J = cardanJacobian(cq.slice(a, a + 3) as V3);
      const JtJ = [0, 1, 2].map((i) => [0, 1, 2].map((j) => J[0][i] * J[0][j] + J[1][i] * J[1][j] + J[2][i] * J[2][j]));
      const { values } = symmetricEigen(JtJ);
      spread = Math.max(spread, values[2] / values[0]);
    }
    at += velocityCount(l.joint);
  }
  return spread;
}

/** per velocity coordinate: is it angular (a revolute's, a Cardan angle's, a ball's or free joint's w) */
export function angularCoordinates(spec: MechanismSpec): boolean[] {
  return spec.links.flatMap((l) => {
    const n = velocityCount(l.joint);
    return Array.from({ length: n }, (_, k) => (l.joint === 'free' ? k >= 3 : l.joint !== 'prismatic'));
  });
}
