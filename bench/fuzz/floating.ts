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
//          fromCardanAccelerations (dw = J dda + dJ da)
import { appliedForces, biasForces, floatingModel, massMatrix } from '../../test/oracles/floating.ts';
import { fromCardanAccelerations } from '../../test/oracles/floating-cardan.ts';
import { type LoopSolution, type LoopSystem, loopDynamics } from '../../test/oracles/loops.ts';
import { type SpdSolution, solveSymmetricPsd } from '../../test/oracles/symmetric.ts';
import { floatingTree, oracleCoordinates, velocityCount } from './describe.ts';
import type { MechanismSpec } from './spec.ts';

// (spec, q, v, tau in Kron's numbers) => dv of a floating tree, or "singular"
export function floatingTreeDynamics(spec: MechanismSpec, q: readonly number[], v: readonly number[], tau: readonly number[]): SpdSolution {
  const model = floatingModel(floatingTree(spec));
  const Q = appliedForces(model, q, v, tau), C = biasForces(model, q, v);
  return solveSymmetricPsd(massMatrix(model, q), Q.map((x, i) => x - C[i]));
}

/**
 * (spec, the oracle's system with its cut drives, q, v, tau in Kron's
 * numbers) => loops.ts's answer with qdd = dv and the data sensitivity per
 * velocity coordinate: a Cardan angle's sensitivity s carried to w = J da
 * at most as sum_j |J_ij| s_j <= 3 max_j s_j (J's columns are unit axes)
 */
export function floatingLoopDynamics(spec: MechanismSpec, sys: LoopSystem, q: readonly number[], v: readonly number[], tau: readonly number[]): LoopSolution {
  const c = oracleCoordinates(spec, q, v, tau);
  const r = loopDynamics(sys, c.q, c.v, c.tau);
  if (r.singular) return r;
  const sensitivity = [...r.sensitivity];
  let at = 0;
  for (const l of spec.links) {
    const angular = l.joint === 'ball' ? at : l.joint === 'free' ? at + 3 : -1;
    if (angular >= 0) sensitivity.fill(3 * Math.max(...sensitivity.slice(angular, angular + 3)), angular, angular + 3);
    at += velocityCount(l.joint);
  }
  return { ...r, qdd: fromCardanAccelerations(floatingTree(spec, false), c.q, c.v, r.qdd), sensitivity };
}

/** per velocity coordinate: is it angular (a revolute's, a Cardan angle's, a ball's or free joint's w) */
export function angularCoordinates(spec: MechanismSpec): boolean[] {
  return spec.links.flatMap((l) => {
    const n = velocityCount(l.joint);
    return Array.from({ length: n }, (_, k) => (l.joint === 'free' ? k >= 3 : l.joint !== 'prismatic'));
  });
}
