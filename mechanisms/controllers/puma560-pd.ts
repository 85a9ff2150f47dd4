// A controller module for `kron simulate mechanisms/puma560.ts --controller mechanisms/controllers/puma560-pd.ts`:
// the PD law of puma560-pd.ts written in code instead of equations,
//   tau_k = kp_k (q_ref,k - q_k) + kd_k (qd_ref,k - qd_k),
// same gains, same reference q_ref,k(t) = q0_k + A_k (1 - cos(w t)). Plain puma560.ts starts
// at qz (arm straight up), so start it on the reference with
//   --start j1.q=0 --start j2.q=0.7853981633974483 --start j3.q=3.141592653589793 --start j5.q=0.7853981633974483
// (the README's command); then both runs give the same trajectory (test/control/puma.test.ts).
import type { Controller } from 'kron';
import { gains, q0, reference } from '../puma560-pd.ts';

const joints = q0.map((_, k) => ({ q: `j${k + 1}.q`, qd: `j${k + 1}.qd`, tau: `j${k + 1}.tau`, ...gains(k) }));

const controller: Controller = (t, state, inputs) => {
  joints.forEach((j, k) => {
    const r = reference(k, t);
    inputs[j.tau] = j.kp * (r.q - state[j.q]) + j.kd * (r.qd - state[j.qd]);
  });
};
export default controller;
