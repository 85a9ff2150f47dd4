// Computed-torque control in the model (mechanisms/puma560-computed-torque.ts):
// each joint's acceleration is prescribed, qdd = qdd_ref + kp e + kd e', and
// the compiler solves the multibody equations for the drive torques. Against
// two oracles: the error dynamics e'' + kd e' + kp e = 0 in closed form
// (critically damped, e' (0) = 0: e = e0 (1 + wn t) exp(-wn t)), and the
// Newton-Euler oracle's inverse dynamics tau = RNEA(q, qd, qdd) on the run's
// own states.
import { describe, expect, it } from 'vitest';
import buildComputedTorque, { parameters } from '../../mechanisms/puma560-computed-torque.ts';
import { amplitudes, reference } from '../../mechanisms/puma560-pd.ts';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { STANDARD_GRAVITY } from '../../src/library/multibody/index.ts';
import { rnea } from '../oracles/rnea.ts';
import { pumaTree } from './puma-tree.ts';

const joints = ['j1', 'j2', 'j3', 'j4', 'j5', 'j6'];

describe('PUMA 560 under computed-torque control', () => {
  const { wn, dq0 } = parameters;
  const tree = pumaTree(STANDARD_GRAVITY);
  const signals = [...joints.map((j) => `${j}.q`), ...joints.map((j) => `${j}.qd`), ...joints.map((j) => `${j}.tau`)];

  for (const mode of ['torn', 'relaxed'] as const) {
    it(`${mode}: no algebraic loop is left; the error is e0 (1 + wn t) exp(-wn t) (1e-9) and the torques are RNEA(q, qd, qdd) (1e-9)`, () => {
      const c = compile(buildComputedTorque(), { mode });
      expect(c.report.blocks).toEqual([]);
      expect(c.generated.layout.inputs).toEqual([]);
      const res = simulate(c, { stop: 2, step: 1e-3, interval: 0.05, signals });
      for (let i = 0; i < res.length; i++) {
        const t = res.time[i];
        const e = dq0 * (1 + wn * t) * Math.exp(-wn * t),
          ed = -dq0 * wn * wn * t * Math.exp(-wn * t);
        const q = joints.map((j) => res.get(`${j}.q`)[i]),
          qd = joints.map((j) => res.get(`${j}.qd`)[i]);
        // qdd = qdd_ref + kp e + kd e' with the run's own e, e' (w = 1: qdd_ref = A cos t)
        const qdd = joints.map((_, k) => amplitudes[k] * Math.cos(t) + wn * wn * (reference(k, t).q - q[k]) + 2 * wn * (reference(k, t).qd - qd[k]));
        const tau = rnea(tree, q, qd, qdd);
        joints.forEach((j, k) => {
          expect(Math.abs(reference(k, t).q - q[k] - e), `${j} e at ${t}`).toBeLessThan(1e-9);
          expect(Math.abs(reference(k, t).qd - qd[k] - ed), `${j} e' at ${t}`).toBeLessThan(1e-8);
          expect(Math.abs(res.get(`${j}.tau`)[i] - tau[k]), `${j}.tau at ${t}: ${res.get(`${j}.tau`)[i]} vs ${tau[k]}`).toBeLessThan(
            1e-9 * Math.max(1, Math.abs(tau[k])),
          );
        });
      }
    });
  }
});
