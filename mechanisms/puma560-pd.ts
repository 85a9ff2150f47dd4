// The PUMA 560 of puma560.ts with a PD controller on every joint (src/library/control/pd.ts),
// each law an equation of the model that defines the joint's drive torque:
//   tau_k = kp_k (q_ref,k - q_k) + kd_k (qd_ref,k - qd_k)
// following q_ref,k(t) = q0_k + A_k (1 - cos(w t)) from the nominal pose qn of Corke's
// toolbox (elbow up, wrist bent): smooth, and at rest at t = 0 like the arm, so the run
// starts on its reference. qd_ref is the PD's symbolic d/dt of q_ref.
// The gains put every joint at natural frequency wn with damping ratio 1 about a joint
// inertia I_k (the diagonal of M at qn, rounded up): kp = I wn^2, kd = 2 I wn. There is no
// gravity compensation: the arm lags below its reference by about (gravity + inertial
// torque) / kp, e.g. joint 2 holds ~30 N m at qn with kp = 8000: ~4 mrad.
// The same law from code, on plain puma560.ts: controllers/puma560-pd.ts.
import { Mechanism, Revolute, add, control, cos, mul, sub } from 'kron';
import build from './puma560.ts';

const pi = Math.PI;

/** joint inertias at qn (kg m^2, the diagonal of M rounded up) that the gains are tuned on */
export const inertias = [3.5, 5, 1, 0.01, 0.01, 0.001];
/** start pose qn and amplitudes of the reference (rad) */
export const q0 = [0, pi / 4, pi, 0, pi / 4, 0];
export const amplitudes = [0.5, 0.3, 0.3, 0.5, 0.4, 0.5];

/** w: frequency of the reference (rad/s); wn: closed-loop natural frequency (rad/s); g: gravity */
export const parameters = { w: 1, wn: 40, g: 9.80665 };

/** the reference of joint k (0-based) at time t, and its speed */
export function reference(k: number, t: number, w = parameters.w): { q: number; qd: number } {
  return { q: q0[k] + amplitudes[k] * (1 - Math.cos(w * t)), qd: amplitudes[k] * w * Math.sin(w * t) };
}

/** the PD gains of joint k (0-based) */
export function gains(k: number, wn = parameters.wn): { kp: number; kd: number } {
  return { kp: inertias[k] * wn * wn, kd: 2 * inertias[k] * wn };
}

export default function buildPd(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const start = Object.fromEntries(q0.map((q, k) => [`q${k + 1}`, q]));
  const mech = build({ g: o.g, ...start });
  q0.forEach((q, k) => {
    const joint = mech.children.find((c): c is Revolute => c instanceof Revolute && c.localName === `j${k + 1}`)!;
    const ref = (t: Parameters<typeof cos>[0]) => add(q, mul(amplitudes[k], sub(1, cos(mul(o.w, t)))));
    mech.add(new control.PD(`pd${k + 1}`, joint, { ...gains(k, o.wn), ref }));
  });
  return mech;
}
