// The PUMA 560 under PD control (mechanisms/puma560-pd.ts) along
// q_ref,k(t) = q0_k + A_k (1 - cos t), against an independent prediction of
// its tracking error, and against the same law run from code
// (mechanisms/controllers/puma560-pd.ts on plain puma560.ts).
//
// Why the error is predictable: with e = q_ref - q the closed loop is
//   M(q) e'' + Kd e' + Kp e = M(q) q_ref'' + h(q, q') =: tau_ff
// (the torque the reference needs, by inverse dynamics). The reference is slow
// against the loop (w = 1 rad/s, wn = 40 rad/s), so e follows tau_ff
// quasi-statically: e = Kp^-1 tau_ff - Kd Kp^-2 tau_ff' + O((w/wn)^2), and
// evaluating tau_ff on the reference instead of on q changes it by
// (d tau_ff / dq) e, a few mrad of a ~40 N m/rad gravity stiffness. tau_ff
// comes from our Newton-Euler oracle (test/oracles/rnea.ts) on the PUMA's DH
// table, not from Kron. Both effects are well under 2% here: (w/wn)^2 = 6e-4, and
// 40 N m/rad x 5 mrad = 0.2 N m of ~30 N m.
import { describe, expect, it } from 'vitest';
import buildPd, { amplitudes, gains, q0, reference } from '../../mechanisms/puma560-pd.ts';
import puma560 from '../../mechanisms/puma560.ts';
import controller from '../../mechanisms/controllers/puma560-pd.ts';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { STANDARD_GRAVITY } from '../../src/library/multibody/index.ts';
import { type RneaTree, rnea } from '../oracles/rnea.ts';
import { pumaTree } from './puma-tree.ts';

const joints = ['j1', 'j2', 'j3', 'j4', 'j5', 'j6'];
const STOP = 5;

/** the torque the reference needs at time t (oracle inverse dynamics on q_ref, q_ref', q_ref'') */
function feedforward(tree: RneaTree, t: number): number[] {
  const q = joints.map((_, k) => reference(k, t).q);
  const qd = joints.map((_, k) => reference(k, t).qd);
  const qdd = joints.map((_, k) => amplitudes[k] * Math.cos(t)); // w = 1: (A (1 - cos t))'' = A cos t
  return rnea(tree, q, qd, qdd);
}

describe('PUMA 560 under PD control', () => {
  const tree = pumaTree(STANDARD_GRAVITY);
  const signals = [...joints.map((j) => `${j}.q`), ...joints.map((j) => `${j}.qd`), ...joints.map((_, k) => `pd${k + 1}.e`)];
  const torn = simulate(compile(buildPd(), { mode: 'torn' }), { stop: STOP, step: 1e-3, interval: 0.01, signals });

  it('the oracle tree is the PUMA: the toolbox gravload at qz, [0 37.4837 0.2489 0 0 0] with g = 9.81', () => {
    const G = rnea(pumaTree(9.81), [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]);
    [0, 37.4837, 0.2489, 0, 0, 0].forEach((v, k) => expect(Math.abs(G[k] - v), `G${k + 1}`).toBeLessThan(5e-5));
  });

  it("tracking error at t = 5 within 2% of the quasi-static prediction Kp^-1 tau_ff - Kd Kp^-2 tau_ff' (+1e-6 rad), and below 1.2 max|tau_ff|/kp", () => {
    const h = 1e-4;
    const ff = feedforward(tree, STOP);
    const rate = feedforward(tree, STOP + h).map((v, k) => (v - feedforward(tree, STOP - h)[k]) / (2 * h));
    const peak = joints.map((_, k) => {
      let m = 0;
      for (let t = 0; t <= STOP; t += 0.01) m = Math.max(m, Math.abs(feedforward(tree, t)[k]));
      return m;
    });
    const rows: string[] = [];
    joints.forEach((j, k) => {
      const { kp, kd } = gains(k);
      const e = reference(k, STOP).q - torn.final(`${j}.q`);
      const predicted = ff[k] / kp - (kd / (kp * kp)) * rate[k];
      rows.push(`${j}: e = ${e.toExponential(4)} rad, predicted ${predicted.toExponential(4)}, bound ${((1.2 * peak[k]) / kp).toExponential(3)}`);
      expect(torn.final(`pd${k + 1}.e`)).toBeCloseTo(e, 12);
      expect(Math.abs(e - predicted), `${j}: e ${e}, predicted ${predicted}`).toBeLessThanOrEqual(0.02 * Math.abs(ff[k] / kp) + 1e-6);
      expect(Math.abs(e), `${j} bound`).toBeLessThanOrEqual((1.2 * peak[k]) / kp);
    });
    console.log(`PUMA-PD tracking error at t = ${STOP}:\n  ${rows.join('\n  ')}`);
  });

  it('relaxed mode gives the same trajectory (1e-9)', () => {
    const relaxed = simulate(compile(buildPd(), { mode: 'relaxed' }), { stop: STOP, step: 1e-3, interval: 0.01, signals });
    for (const s of signals) torn.get(s).forEach((v, i) => expect(Math.abs(relaxed.get(s)[i] - v), `${s} at ${torn.time[i]}`).toBeLessThan(1e-9));
  });

  it('the controller module on plain puma560.ts, started on the reference, gives the same trajectory (1e-10)', () => {
    const start = Object.fromEntries(q0.map((q, k) => [`j${k + 1}.q`, q]));
    const fromCode = simulate(compile(puma560()), { stop: STOP, step: 1e-3, interval: 0.01, start, controller, signals: signals.slice(0, 12) });
    for (const s of signals.slice(0, 12))
      torn.get(s).forEach((v, i) => expect(Math.abs(fromCode.get(s)[i] - v), `${s} at ${torn.time[i]}`).toBeLessThan(1e-10));
  });
});
