// A PD-controlled revolute whose axis is vertical (parallel to gravity, so no
// gravity torque) is the linear oscillator I q'' + kd q' + kp q = kp q_r + kd qd_r,
// I the body's inertia about the axis. Against its closed forms: a step to a
// constant reference (the homogeneous solution) and a sinusoidal reference
// (the steady response through the transfer function plus the transient).
import { describe, expect, it } from 'vitest';
import { Mechanism, type Ex, type Expr, type Controller, compile, control, mul, sin, simulate } from '../../src/api.ts';

const m = 1.5,
  r = 0.4,
  Iyy = 0.02;
const I = Iyy + m * r * r; // about the joint axis y, through the centre of mass offset r
const kp = 30,
  kd = 2.5; // under-damped: zeta = kd / (2 sqrt(kp I)) ~ 0.3

/** one revolute about y (gravity along -y: no torque about the axis) and a body r out along x */
function arm(ref?: Ex | ((t: Expr) => Ex), q = 0, qd = 0, withPd = true): Mechanism {
  const mech = new Mechanism('arm');
  const j1 = mech.revolute('j1', { axis: [0, 1, 0], q, qd });
  const body = mech.body('body', { m, rcm: [r, 0, 0], I: [0.01, Iyy, 0.01] });
  mech.connect(mech.world.frame_b, j1.frame_a);
  mech.connect(j1.frame_b, body.frame_a);
  if (withPd) mech.add(new control.PD('pd', j1, { kp, kd, ref }));
  return mech;
}

/** q(t) of I q'' + kd q' + kp q = f with q - q_p = homogeneous (q_p the particular solution), from q(0), qd(0) */
function homogeneous(e0: number, ed0: number, t: number): number {
  const wn = Math.sqrt(kp / I),
    zeta = kd / (2 * Math.sqrt(kp * I)),
    wd = wn * Math.sqrt(1 - zeta * zeta);
  return Math.exp(-zeta * wn * t) * (e0 * Math.cos(wd * t) + ((ed0 + zeta * wn * e0) / wd) * Math.sin(wd * t));
}

describe('PD on a vertical-axis revolute against the closed form', () => {
  it('step to a constant reference: q(t) = q_r + e^(-zeta wn t)(...) to 1e-8, torn and relaxed', () => {
    const qr = 0.7,
      q0 = -0.2,
      qd0 = 0.5;
    for (const mode of ['torn', 'relaxed'] as const) {
      const c = compile(arm(qr, q0, qd0), { mode });
      expect(c.generated.layout.inputs, 'j1.tau is no longer an input').not.toContain('j1.tau');
      const res = simulate(c, { stop: 3, step: 1e-3, interval: 0.05, signals: ['j1.q', 'j1.qd', 'j1.tau', 'pd.e'] });
      for (let k = 0; k < res.length; k++) {
        const t = res.time[k];
        const want = qr + homogeneous(q0 - qr, qd0, t);
        expect(Math.abs(res.get('j1.q')[k] - want), `${mode} q at t = ${t}`).toBeLessThan(1e-8);
        expect(res.get('pd.e')[k]).toBeCloseTo(qr - res.get('j1.q')[k], 14);
      }
      // the drive torque is the law itself at the end
      expect(res.final('j1.tau')).toBeCloseTo(kp * (qr - res.final('j1.q')) - kd * res.final('j1.qd'), 12);
    }
  });

  it('sinusoidal reference A sin(w t) with qd_ref its symbolic derivative: steady response through H(iw) plus transient, to 1e-8', () => {
    const A = 0.3,
      w = 2.5;
    const c = compile(arm((t) => mul(A, sin(mul(w, t)))));
    const res = simulate(c, { stop: 4, step: 1e-3, interval: 0.05, signals: ['j1.q', 'pd.ref'] });
    // I q'' + kd q' + kp q = kp A sin(wt) + kd A w cos(wt): q_p = A |H| sin(wt + phi), H = (kp + i kd w) / (kp - I w^2 + i kd w)
    const nr = kp,
      ni = kd * w,
      dr = kp - I * w * w,
      di = kd * w;
    const den = dr * dr + di * di;
    const hr = (nr * dr + ni * di) / den,
      hi = (ni * dr - nr * di) / den;
    const qp = (t: number) => A * (hr * Math.sin(w * t) + hi * Math.cos(w * t));
    const qpd = (t: number) => A * w * (hr * Math.cos(w * t) - hi * Math.sin(w * t));
    for (let k = 0; k < res.length; k++) {
      const t = res.time[k];
      const want = qp(t) + homogeneous(-qp(0), -qpd(0), t);
      expect(Math.abs(res.get('j1.q')[k] - want), `q at t = ${t}`).toBeLessThan(1e-8);
      expect(res.get('pd.ref')[k]).toBeCloseTo(A * Math.sin(w * t), 14);
    }
  });

  it('the same law from code (simulate({ controller })) on the arm without PD gives the same trajectory to 1e-12', () => {
    const A = 0.3,
      w = 2.5;
    const inModel = simulate(compile(arm((t) => mul(A, sin(mul(w, t))))), { stop: 2, step: 1e-3, interval: 0.1 });
    const law: Controller = (t, state, inputs) => {
      inputs['j1.tau'] = kp * (A * Math.sin(w * t) - state['j1.q']) + kd * (A * w * Math.cos(w * t) - state['j1.qd']);
    };
    for (const integrator of ['rk4', 'adaptive'] as const) {
      const fromCode = simulate(compile(arm(undefined, 0, 0, false)), {
        stop: 2,
        step: 1e-3,
        interval: 0.1,
        controller: law,
        integrator,
        rtol: 1e-12,
        atol: 1e-14,
      });
      const modelRun =
        integrator === 'rk4'
          ? inModel
          : simulate(compile(arm((t) => mul(A, sin(mul(w, t))))), { stop: 2, step: 1e-3, interval: 0.1, integrator, rtol: 1e-12, atol: 1e-14 });
      for (const s of ['j1.q', 'j1.qd']) {
        modelRun.get(s).forEach((v, k) => expect(Math.abs(fromCode.get(s)[k] - v), `${integrator} ${s} at ${modelRun.time[k]}`).toBeLessThan(1e-12));
      }
    }
  });
});
