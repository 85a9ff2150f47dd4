// The PUMA 560 of puma560.ts under computed-torque control (src/library/control/computed-torque.ts):
// each joint is told the acceleration it shall have,
//   qdd_k = qdd_ref,k + kp (q_ref,k - q_k) + kd (qd_ref,k - qd_k),
// on the reference of puma560-pd.ts, and its drive torque is what the compiler solves for: the
// inverse dynamics tau = M(q) qdd + h(q, qd) falls out of sorting the multibody equations
// (no loop is left: the derivatives cost 21 multiplications, the torques are computed in the
// outputs pass). The error obeys e'' + kd e' + kp e = 0; kp = wn^2, kd = 2 wn (critical damping).
// The arm starts dq0 off its reference on every joint, so the run shows that error decaying.
import { Mechanism, Revolute, add, control, cos, mul, sub } from 'kron';
import build from './puma560.ts';
import { amplitudes, q0 } from './puma560-pd.ts';

/** w: frequency of the reference (rad/s); wn: error dynamics' natural frequency (rad/s); dq0: start error (rad) */
export const parameters = { w: 1, wn: 10, dq0: 0.05, g: 9.80665 };

export default function buildComputedTorque(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const start = Object.fromEntries(q0.map((q, k) => [`q${k + 1}`, q - o.dq0]));
  const mech = build({ g: o.g, ...start });
  q0.forEach((q, k) => {
    const joint = mech.children.find((c): c is Revolute => c instanceof Revolute && c.localName === `j${k + 1}`)!;
    const ref = (t: Parameters<typeof cos>[0]) => add(q, mul(amplitudes[k], sub(1, cos(mul(o.w, t)))));
    mech.add(new control.ComputedTorque(`ct${k + 1}`, joint, { kp: o.wn * o.wn, kd: 2 * o.wn, ref }));
  });
  return mech;
}
