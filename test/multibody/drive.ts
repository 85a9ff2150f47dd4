// Shared by the oracle tests: put a compiled mechanism at a random state with
// random drives, evaluate it, and return what an inverse-dynamics oracle needs.
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import type { TreeBody } from './random-tree.ts';

export type Passive = Pick<TreeBody, 'c' | 'q0' | 'd'>;

export interface DrivenState {
  q: number[];
  qd: number[];
  tau: number[];
  /** generalized force on each joint: drive plus spring-damper */
  total: number[];
  /** der(jk.qd) from the compiled model */
  qdd: number[];
}

// (model, joint names, passive elements, random source) => state, drives and computed accelerations
export function driveAtRandom(
  model: CompiledModel,
  joints: readonly string[],
  passive: readonly (Passive | undefined)[] | undefined,
  rnd: () => number,
): DrivenState {
  const q = joints.map(() => -Math.PI + 2 * Math.PI * rnd());
  const qd = joints.map(() => -2 + 4 * rnd());
  const tau = joints.map(() => -5 + 10 * rnd());
  const x = new Float64Array(2 * joints.length);
  joints.forEach((j, i) => {
    x[model.stateNames.indexOf(`${j}.q`)] = q[i];
    x[model.stateNames.indexOf(`${j}.qd`)] = qd[i];
    model.setInput(`${j}.tau`, tau[i]);
  });
  model.derivatives(0, x, new Float64Array(x.length));
  const qdd = joints.map((j) => model.signal(`der(${j}.qd)`));
  const total = tau.map((v, i) => {
    const p = passive?.[i];
    return p ? v - p.c * (q[i] - p.q0) - p.d * qd[i] : v;
  });
  return { q, qd, tau, total, qdd };
}
