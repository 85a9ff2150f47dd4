// ∂f/∂x for radau with contact, by the chain rule through the contact wrenches.
//
// With contact the state derivative is f(x) = F(x, w(x)): F the compiled
// model's derivatives (controller and input functions included) with the
// bodies' contact wrench inputs w held, w(x) the contact pass (contact/run.ts:
// frames, detection, force law). So
//
//   ∂f/∂x = F_x + Σ_b G_b D_b,   G_b = ∂F/∂w_b (n × 6),   D_b = ∂w_b/∂x (6 × n)
//
// over the bodies b whose wrench moves with x. Each part from where it is cheap
// and exact enough:
//   F_x  forward differences of F with w held (n evaluations):
//        the rigid dynamics, the controller, the quaternions' rates exactly as
//        the integrator's state derivative writes them, the joints' friction;
//   G_b  six evaluations of F with a unit added to one input: F is affine in w
//        (the wrench enters the body's Newton–Euler equations and the contact
//        power linearly), so the difference is exact up to rounding, and it
//        holds whatever frame the model reads the wrench in (world-resolved,
//        about frame_a's origin: body.ts);
//   D_b  central differences of the contact pass alone on the pairs in contact
//        (ContactRun.applyActive: their frames, narrow phase and law; ~2.5 µs
//        on Go2, against ~7 µs for the model's derivatives), at a step
//        of 1e-8 (1 + |x_j|), far below the friction's regularisation speed v_s
//        (1e-4 m/s), whose curvature μ fn / v_s² would spoil a coarser step
//        (truncation (δ / v_s)² ≈ 1e-8). By differences rather than the law's
//        derivative times the frames' Jacobians, because the narrow phase's
//        points, normals and manifolds have no derivative yet, and the contact
//        points moving over a surface (a rolling sphere's, a box's face) are
//        part of ∂w/∂x.
// What makes contact stiff (k, c, μ fn / v_s) is in D_b, and it changes fast
// (make, break, stick, slip); F_x and G_b (M⁻¹ J_bᵀ) change with the pose
// only. So a call forms D_b anew (forward differences: n passes, their error
// δ / v_s ≈ 1e-4 in the friction's stiffness is Newton's to ignore) and
// keeps F_x and G_b from the last whole
// formation for up to `keep` calls (returning true: radau then forms the
// whole J again after a failure at that state, steppers/radau5.ts). A kept F_x
// is an approximation for Newton alone: the solution is that of f, whatever J.
// Nothing is dropped when formed whole: the geometric stiffness ∂(J_bᵀ)/∂q w
// is in F_x (w held, its generalized force J_b(q)ᵀ w moves with q), the
// wrench's own motion in G_b D_b. Not used for F_x: the generated
// forwardDerivatives (analysis/), which on these robots costs more than the
// n differences (Go2 ~2 ms a call against 38 × ~11 µs, the humanoid ~3 ms
// against 56 × ~24 µs; measured under load, the ratio is what counts), and
// would leave the controller, input functions and quaternion rows to map.
import type { ModelState } from '../codegen/state.ts';
import type { ContactRun } from '../contact/run.ts';
import type { JacobianFn, StepperSettings } from './steppers/stepper.ts';
import { THET_DIFFERENCES } from './steppers/radau-constants.ts';

/**
 * F_x's forward-difference step, √eps max(1, |x_j|): not RADAU5's √(eps max(1e-5, |x_j|)), which is
 * 5e-11 at a state at zero, where a relaxed form's own evaluation noise (~5e-11 of an acceleration, its
 * iterations' tolerance) would be the whole difference
 */
const FX_STEP = Math.sqrt(2.220446049250313e-16);
/** the contact pass's central-difference step, per unit of max(1, |x_j|) */
const CONTACT_STEP = 1e-8;
/** calls that keep F_x and G_b before they are formed again (chosen, not tuned: 30 measured the same on Go2, within the machine's noise) */
export const DEFAULT_KEEP = 8;

/** what the Jacobian needs of the probe state: F with the contact inputs held, and a contact pass of its own */
export interface ContactJacobianParts {
  state: ModelState;
  /** F(x): the model's derivatives at (t, x) with the controller and input functions, the contact inputs as they are */
  held: (dx: Float64Array, x: Float64Array, t: number) => void;
  /** the contact pass on `state` (a ContactRun of its own: its sticking records are not the run's) */
  touch: ContactRun;
  /** a hook run before each call (syncs the probe state from the run's) */
  before?: () => void;
}

/** how a run with contact formed radau's Jacobians, for the report */
export interface ContactJacobianStats {
  /** 'chain rule' (this file), or 'differences' (of the whole derivatives, n evaluations each) and why */
  method: 'chain rule' | 'differences';
  reason?: string;
  /** the chain rule's Jacobians formed whole (F_x and G_b anew) */
  whole: number;
  /** the chain rule's Jacobians that kept F_x and G_b */
  kept: number;
}

/**
 * The settings that give radau (or auto, once it goes on with radau) the chain rule's Jacobian for a run
 * with contact, made at its first call; undefined where differences serve (the reason in `stats`).
 * Radau keeps it while Newton contracts by θ ≤ 0.1, as a Jacobian by differences (a whole one costs as much).
 */
export function contactJacobianFor(
  parts: (() => ContactJacobianParts | undefined) | undefined,
  integrator: string,
  asked: 'contact' | 'differences' | undefined,
  n: number,
): { settings: Pick<StepperSettings, 'jacobian' | 'jacobianTheta'>; stats: ContactJacobianStats } | undefined {
  if (!parts || (integrator !== 'radau' && integrator !== 'auto')) return undefined;
  const stats: ContactJacobianStats = { method: 'chain rule', whole: 0, kept: 0 };
  if (asked === 'differences') return { settings: {}, stats: { ...stats, method: 'differences', reason: "asked for (jacobian: 'differences')" } };
  let made: JacobianFn | undefined;
  const jacobian: JacobianFn = (J, x, t, fx, full) => (made ??= contactJacobian(parts()!, n, stats))(J, x, t, fx, full);
  return { settings: { jacobian, jacobianTheta: THET_DIFFERENCES }, stats };
}

// (parts, n states, counts, keep) => a JacobianFn for radau
export function contactJacobian(parts: ContactJacobianParts, n: number, stats: ContactJacobianStats, keep = DEFAULT_KEEP): JacobianFn {
  const { state, held, touch } = parts;
  const inputs = touch.inputs,
    m = inputs.length;
  const Fx = new Float64Array(n * n),
    G = new Float64Array(n * m),
    D = new Float64Array(m * n);
  /** per body: G_b formed since the last whole formation */
  const formed = new Uint8Array(m / 6);
  const w0 = new Float64Array(m),
    wp = new Float64Array(m),
    wm = new Float64Array(m),
    f0 = new Float64Array(n),
    col = new Float64Array(n),
    z = new Float64Array(n);
  let calls = Infinity;

  // w(x) into out (the contact pass alone: frames, detection, law); near y, of the pairs in contact at y alone
  const wrench = (out: Float64Array, x: Float64Array, t: number, near: boolean) => {
    if (near) touch.applyActive(t, x);
    else (touch.apply(t, x), touch.keepActive());
    out.set(touch.wrench);
  };
  // the contact inputs back to w0 (the state's u holds them for F)
  const restore = () => {
    for (let k = 0; k < m; k++) state.u[inputs[k]] = w0[k];
  };

  const formFx = (y: Float64Array, t: number, fy: Float64Array) => {
    z.set(y);
    for (let j = 0; j < n; j++) {
      const keepj = z[j],
        delta = FX_STEP * Math.max(1, Math.abs(keepj));
      z[j] = keepj + delta;
      held(col, z, t);
      for (let i = 0; i < n; i++) Fx[i * n + j] = (col[i] - fy[i]) / delta;
      z[j] = keepj;
    }
  };

  // G_b: F with a unit more in each of body b's six inputs, less F (affine: exact but for rounding)
  const formG = (b: number, y: Float64Array, t: number, fy: Float64Array) => {
    for (let k = 6 * b; k < 6 * b + 6; k++) {
      state.u[inputs[k]] = w0[k] + 1;
      held(col, y, t);
      state.u[inputs[k]] = w0[k];
      for (let i = 0; i < n; i++) G[i * m + k] = col[i] - fy[i];
    }
    formed[b] = 1;
  };

  // D = ∂w/∂x: central differences for a whole J, forward ones (half the passes) for a kept one (header)
  const formD = (y: Float64Array, t: number, central: boolean) => {
    z.set(y);
    for (let j = 0; j < n; j++) {
      const keepj = z[j],
        delta = CONTACT_STEP * Math.max(1, Math.abs(keepj));
      z[j] = keepj + delta;
      wrench(wp, z, t, true);
      if (central) {
        z[j] = keepj - delta;
        wrench(wm, z, t, true);
        for (let k = 0; k < m; k++) D[k * n + j] = (wp[k] - wm[k]) / (2 * delta);
      } else for (let k = 0; k < m; k++) D[k * n + j] = (wp[k] - w0[k]) / delta;
      z[j] = keepj;
    }
  };

  // fy is f at y by the run's state: F_x and G_b difference F on the probe state, from F at y there (a
  // relaxed form's iterations, warm-started elsewhere, agree with the run's to 1e-10, not to a difference's 1e-16)
  const jacobian: JacobianFn = (J, y, t, _fy, full) => {
    parts.before?.();
    wrench(w0, y, t, false);
    const whole = full || calls >= keep;
    const fy = f0;
    if (whole || !formed.every((b) => b === 1)) held(fy, y, t);
    if (whole) {
      formFx(y, t, fy);
      formed.fill(0);
      calls = 0;
      stats.whole++;
    } else stats.kept++;
    calls++;
    formD(y, t, whole);
    restore();
    J.set(Fx);
    for (let b = 0; b < formed.length; b++) {
      if (!moves(D, 6 * b, n)) continue;
      if (!formed[b]) formG(b, y, t, fy);
      addProduct(J, G, D, n, m, 6 * b);
    }
    return !whole;
  };
  return jacobian;
}

/** any nonzero in rows at..at+5 of D (6 × n per body)? */
function moves(D: Float64Array, at: number, n: number): boolean {
  for (let k = at * n; k < (at + 6) * n; k++) if (D[k] !== 0) return true;
  return false;
}

/** J += G[:, at..at+5] D[at..at+5, :] (G n × m, D m × n, row-major) */
function addProduct(J: Float64Array, G: Float64Array, D: Float64Array, n: number, m: number, at: number): void {
  for (let i = 0; i < n; i++) {
    for (let k = at; k < at + 6; k++) {
      const g = G[i * m + k];
      if (g === 0) continue;
      const row = k * n;
      for (let j = 0; j < n; j++) J[i * n + j] += g * D[row + j];
    }
  }
}
