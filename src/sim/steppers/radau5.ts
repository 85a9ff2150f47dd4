// Radau IIA of order 5 (3 stages), error-controlled and implicit: the
// stiff integrator, after Hairer & Wanner's RADAU5 (Solving Ordinary
// Differential Equations II, 2nd ed. 1996, §IV.8; the Fortran code of
// 2002). Why Radau IIA rather than variable-order BDF (DASSL, CVODE): it
// is L-stable at its full order 5 (BDF loses A-stability beyond order 2,
// and mechanisms with lightly damped joints have eigenvalues near the
// imaginary axis, where BDF 3-5 are unstable), it is one-step (restarts
// after an event cost nothing, no history to rebuild), and its collocation
// polynomial is a dense output of its own for the event locator (of
// order 3, the stage order: not what the error estimate controls, so its
// error between long steps can exceed the tolerance).
//
// Statistics as RADAU5 counts them, but: rejected counts every failed
// attempt (RADAU5's NSTEP - NACCPT: Newton's failures, the first step's
// tenths), and evaluations include those of difference Jacobians (RADAU5's
// NFCN leaves them out). Comments name the subsections of §IV.8.
//
// Glossary (RADAU5's names)
//   y, y0        the state at the step's start and f(t, y) there
//   Z1..Z3       stage increments Y_i - y at t + c_i h (§IV.8, 'Reformulation of the Nonlinear System')
//   F1..F3       W = T⁻¹ Z, the transformed increments ('Simplified Newton Iterations')
//   J            ∂f/∂x at (t, y), row-major n × n
//   E1           (γ/h) I - J, real        (γ = u1, the real eigenvalue of A⁻¹)
//   E2           ((α + iβ)/h) I - J, complex (α ± iβ the other two)
//   cont1..3     the collocation polynomial's divided differences (dense output)
//   scal         atol' + rtol' |y_i|, the error weights
//
// E1 and E2 are factored in place, E2 as a complex matrix (radau-lu.ts, as
// RADAU5's DECOMR and DECOMC): once E2 in its real 2n × 2n form through the
// implicit function theorem's LU (analysis/dense-lu.ts, which equilibrates
// and allocates), but radau factors at every change of step size, and on
// the falling humanoid that was a fifth of the run's time.
import * as K from './radau-constants.ts';
import { factorComplex, factorReal, solveComplex, solveReal } from './radau-lu.ts';
import { NonFiniteError } from '../../codegen/state.ts';
import { SimulationError } from '../../errors.ts';
import { type Derivatives, type Stepper, type StepperSettings, StepFailure, attempt, counted, emptyStats, tooManySteps } from './stepper.ts';

/**
 * Newton's outcome: converged, or h to be cut by shrink; nonFinite when f was not finite at a
 * stage, failed with the model's own error (a loop that did not close at a stage value)
 */
type Newton = { converged: true } | { converged: false; shrink: number; nonFinite?: boolean; failed?: SimulationError };

export class Radau5Stepper implements Stepper {
  readonly name = 'radau';
  readonly stats = emptyStats();
  t: number;
  tPrev: number;
  readonly x: Float64Array;
  private readonly n: number;
  /** f at the states the run goes through: the start, every accepted step's end */
  private readonly f: Derivatives;
  /** f at trial states (Newton's stages, Jacobian columns, the error estimate's): settings.trial, else f */
  private readonly trial: Derivatives;
  /** the transformed tolerances (see constructor) and Newton's stopping tolerance κ Tol */
  private readonly rtol: number;
  private readonly atol: number;
  private readonly fnewt: number;
  private readonly hmax: number;
  /** the step size the next step tries */
  private h: number;
  /** the last accepted step, and the end time of the collocation polynomial (0: none) */
  private hold = 0;
  private hSol = 0;
  private tSol = 0;
  private readonly y0: Float64Array;
  private readonly scal: Float64Array;
  private readonly z1: Float64Array;
  private readonly z2: Float64Array;
  private readonly z3: Float64Array;
  private readonly f1: Float64Array;
  private readonly f2: Float64Array;
  private readonly f3: Float64Array;
  private readonly cont: Float64Array;
  private readonly cont1: Float64Array;
  private readonly cont2: Float64Array;
  private readonly cont3: Float64Array;
  private readonly work: Float64Array;
  private readonly rhs2: Float64Array;
  private readonly J: Float64Array;
  /** E1 (n × n) and E2 (n × n complex, re/im pairs) factored in place, their pivots, the factorisations' scratch */
  private readonly e1: Float64Array;
  private readonly e2: Float64Array;
  private readonly p1: Int32Array;
  private readonly p2: Int32Array;
  private readonly nz: Int32Array;
  /** E2's right-hand side's real and imaginary parts: views of rhs2 */
  private readonly r2re: Float64Array;
  private readonly r2im: Float64Array;
  /** the step size E1 and E2 were factored for (NaN: not factored) */
  private hLu = NaN;
  /** J is to be formed before the next attempt; J was formed at the current (t, y) */
  private needJacobian = true;
  private jacobianFresh = false;
  /** the last J kept parts formed at an earlier state (settings.jacobian said so); the next, after a failure, is to be formed whole */
  private jacobianKept = false;
  /** the next J is to be formed whole: after a failure with kept parts, and a stepper's first (after an event the model may have changed) */
  private jacobianWhole = true;
  /** the first step (or the first after a restart): no polynomial to start Newton from */
  private first = true;
  private reject = false;
  private faccon = 1;
  private theta = K.THET;
  /** θ below which J is kept: THET, or THET_DIFFERENCES when J is formed by differences */
  private readonly thet: number;
  /** Newton's iterations of the last attempt */
  private iterations = 0;
  /** Gustafsson's controller: the last accepted step and its error */
  private accepted = 0;
  private hacc = 0;
  private erracc = 0;

  constructor(
    x0: Float64Array,
    f: Derivatives,
    t0: number,
    private readonly settings: StepperSettings,
  ) {
    const n = (this.n = x0.length);
    this.x = Float64Array.from(x0);
    this.t = this.tPrev = t0;
    this.f = counted(f, this.stats);
    this.trial = settings.trial ? counted(settings.trial, this.stats) : this.f;
    this.thet = settings.jacobianTheta ?? (settings.jacobian ? K.THET : K.THET_DIFFERENCES);
    // RADAU5 transforms the tolerances (its §"ITOL"): the order-3 error estimate of an order-5
    // method overestimates the local error, so rtol' = 0.1 rtol^(2/3) and atol' = rtol' atol / rtol
    this.rtol = 0.1 * settings.rtol ** (2 / 3);
    this.atol = (this.rtol * settings.atol) / settings.rtol;
    // Newton stops at κ Tol ('Stopping Criterion'), RADAU5's FNEWT, on the transformed rtol
    this.fnewt = Math.max((10 * K.EPS) / this.rtol, Math.min(0.03, Math.sqrt(this.rtol)));
    this.hmax = settings.stop > t0 ? settings.stop - t0 : Infinity;
    this.h = Math.min(settings.step > 10 * K.EPS ? settings.step : 1e-6, this.hmax);
    const v = () => new Float64Array(n);
    [this.y0, this.scal, this.z1, this.z2, this.z3, this.f1, this.f2, this.f3] = [v(), v(), v(), v(), v(), v(), v(), v()];
    [this.cont, this.cont1, this.cont2, this.cont3, this.work] = [v(), v(), v(), v(), v()];
    this.rhs2 = new Float64Array(2 * n);
    this.r2re = this.rhs2.subarray(0, n);
    this.r2im = this.rhs2.subarray(n);
    this.J = new Float64Array(n * n);
    this.e1 = new Float64Array(n * n);
    this.e2 = new Float64Array(2 * n * n);
    [this.p1, this.p2, this.nz] = [new Int32Array(n), new Int32Array(n), new Int32Array(n)];
    if (n) attempt(t0, this.x, this.h, () => this.f(this.y0, this.x, t0));
    this.scale();
  }

  step(until: number): void {
    const t0 = this.t;
    if (t0 >= until) return;
    if (this.n === 0 || until - t0 <= 4 * K.EPS * Math.abs(until)) {
      this.t = until; // nothing to integrate, or a gap below rounding: onto until
      return;
    }
    const before = Float64Array.from(this.x);
    attempt(t0, before, this.h, () => this.advance(t0, until, before));
  }

  /** one accepted step from t0, never past until (RADAU5's RADCOR from label 10 to the next acceptance) */
  private advance(t0: number, until: number, before: Float64Array): void {
    const proposal = this.h;
    let h = Math.min(proposal, this.hmax);
    let last = t0 + 1.0001 * h >= until;
    if (last) h = until - t0;
    let rejectedHere = false,
      singular = 0;
    for (let tries = 0; ; tries++) {
      if (tries >= K.MAX_ATTEMPTS || 0.1 * h <= Math.abs(t0) * K.EPS) throw this.stepTooSmall(t0, h, tries);
      if (this.needJacobian) this.formJacobian(t0);
      // a step cut to a sample time repeats the last one but for rounding (k h - t): its LU serves
      if (!(Math.abs(h - this.hLu) <= 1e-9 * h) && !this.factor(h)) {
        // a singular iteration matrix: RADAU5 halves h, five times at most
        if (++singular >= 5) throw this.singularMatrix(t0, h);
        ({ h, last, rejectedHere } = this.rejected(h * 0.5));
        continue;
      }
      const newton = this.newton(t0, h);
      if (!newton.converged) {
        const givingUp = tries + 1 >= K.MAX_ATTEMPTS || 0.05 * h <= Math.abs(t0) * K.EPS;
        if (givingUp && newton.failed) throw newton.failed; // the model's error, at a stage of the smallest step
        if (givingUp && newton.nonFinite) throw new StepFailure(t0, before, h);
        ({ h, last, rejectedHere } = this.rejected(h * newton.shrink));
        continue;
      }
      const err = this.estimate(t0, h);
      // h_new = h / quot, quot = err^(1/4) / fac within [1/8, 5] ('Step Size Selection'), fac lower when Newton needed many iterations
      const fac = Math.min(K.SAFE, (K.SAFE * (1 + 2 * K.NIT)) / (this.iterations + 2 * K.NIT));
      let quot = Math.max(K.FACR, Math.min(K.FACL, err ** 0.25 / fac));
      if (err < 1) {
        // Gustafsson's predictive controller ('Step Size Selection'): the last two accepted steps' errors
        if (this.accepted > 0) quot = Math.max(quot, Math.max(K.FACR, Math.min(K.FACL, ((this.hacc / h) * ((err * err) / this.erracc) ** 0.25) / K.SAFE)));
        this.hacc = h;
        this.erracc = Math.max(1e-2, err);
        this.accept(t0, h, last ? until : t0 + h);
        this.propose(h / quot, h, proposal, last, rejectedHere);
        if (this.stats.steps > this.settings.maxSteps) {
          throw tooManySteps(
            'radau',
            this.settings.maxSteps,
            this.t,
            until,
            h,
            'loosen --rtol/--atol, or check the model for fast oscillations (a stiff integrator follows every oscillation it can resolve)',
          );
        }
        return;
      }
      // rejected by the error estimate: a tenth at the first step (the estimate of a wrong start is unreliable), else h_new
      ({ h, last, rejectedHere } = this.rejected(this.first ? h * 0.1 : h / quot));
    }
  }

  /** after a rejected attempt: the step size to try, J to be formed again unless formed at this (t, y) */
  private rejected(h: number): { h: number; last: false; rejectedHere: true } {
    this.stats.rejected++;
    this.reject = true;
    if (!this.jacobianFresh) this.needJacobian = true;
    else if (this.jacobianKept) this.needJacobian = this.jacobianWhole = true; // formed here, but with kept parts: whole now
    return { h, last: false, rejectedHere: true };
  }

  /**
   * The simplified Newton iteration for the stage increments Z in the transformed variables
   * W = T⁻¹ Z (§IV.8 'Simplified Newton Iterations'): per iteration one real and one complex
   * system. Stops at η ‖ΔW‖ ≤ κ Tol ('Stopping Criterion'); gives up (with the factor to cut h by) when the
   * contraction θ predicts no convergence within NIT iterations.
   */
  private newton(t0: number, h: number): Newton {
    const { n, x: y, z1, z2, z3, f1, f2, f3, work } = this;
    this.startingValues(h);
    const fac1 = K.U1 / h,
      alphn = K.ALPH / h,
      betan = K.BETA / h;
    this.faccon = Math.max(this.faccon, K.EPS) ** 0.8;
    this.theta = this.thet;
    let dynold = 0,
      thqold = 0;
    for (let newt = 0; ;) {
      if (newt >= K.NIT) return { converged: false, shrink: 0.5 };
      // f at the stages, into z1..z3
      try {
        for (const [z, c] of [
          [z1, K.C1],
          [z2, K.C2],
          [z3, 1],
        ] as const) {
          for (let i = 0; i < n; i++) work[i] = y[i] + z[i];
          this.trial(z, work, t0 + c * h);
        }
      } catch (e) {
        // a stage value of a long step may lie where the model cannot be evaluated (a loop that does
        // not close): a shorter step brings the stages closer to y; the error stands if none does
        if (e instanceof NonFiniteError) return { converged: false, shrink: 0.5, nonFinite: true };
        if (e instanceof SimulationError) return { converged: false, shrink: 0.5, failed: e };
        throw e;
      }
      if (!(K.finite(z1) && K.finite(z2) && K.finite(z3))) return { converged: false, shrink: 0.5, nonFinite: true };
      // right-hand sides T⁻¹ F(Z) - Λ W / h, solved with E1 and E2 (RADAU5's SLVRAD)
      const r2 = this.rhs2;
      for (let i = 0; i < n; i++) {
        const a1 = z1[i],
          a2 = z2[i],
          a3 = z3[i];
        z1[i] = K.TI11 * a1 + K.TI12 * a2 + K.TI13 * a3 - fac1 * f1[i];
        r2[i] = K.TI21 * a1 + K.TI22 * a2 + K.TI23 * a3 - alphn * f2[i] + betan * f3[i];
        r2[n + i] = K.TI31 * a1 + K.TI32 * a2 + K.TI33 * a3 - alphn * f3[i] - betan * f2[i];
      }
      (solveReal(n, this.e1, this.p1, z1), solveComplex(n, this.e2, this.p2, this.r2re, this.r2im));
      const d1 = z1,
        d23 = r2;
      newt++;
      this.iterations = newt;
      let dyno = 0;
      for (let i = 0; i < n; i++) {
        const s = this.scal[i];
        dyno += (d1[i] / s) ** 2 + (d23[i] / s) ** 2 + (d23[n + i] / s) ** 2;
      }
      dyno = Math.sqrt(dyno / (3 * n));
      if (!Number.isFinite(dyno)) return { converged: false, shrink: 0.5, nonFinite: true };
      // the rate of convergence θ and the predicted error after NIT iterations ('Stopping Criterion')
      if (newt > 1 && newt < K.NIT) {
        const thq = dyno / dynold;
        this.theta = newt === 2 ? thq : Math.sqrt(thq * thqold);
        thqold = thq;
        if (!(this.theta < 0.99)) return { converged: false, shrink: 0.5 };
        this.faccon = this.theta / (1 - this.theta);
        const dyth = (this.faccon * dyno * this.theta ** (K.NIT - 1 - newt)) / this.fnewt;
        if (dyth >= 1) {
          const qnewt = Math.max(1e-4, Math.min(20, dyth));
          return { converged: false, shrink: 0.8 * qnewt ** (-1 / (4 + K.NIT - 1 - newt)) };
        }
      }
      dynold = Math.max(dyno, K.EPS);
      for (let i = 0; i < n; i++) {
        const w1 = (f1[i] += d1[i]),
          w2 = (f2[i] += d23[i]),
          w3 = (f3[i] += d23[n + i]);
        z1[i] = K.T11 * w1 + K.T12 * w2 + K.T13 * w3;
        z2[i] = K.T21 * w1 + K.T22 * w2 + K.T23 * w3;
        z3[i] = K.T31 * w1 + w2;
      }
      if (this.faccon * dyno <= this.fnewt) return { converged: true };
    }
  }

  /** Z from the last step's collocation polynomial extrapolated to this step's nodes, zero at the first ('Starting Values') */
  private startingValues(h: number): void {
    const { n, z1, z2, z3, f1, f2, f3, cont1, cont2, cont3 } = this;
    if (this.first || this.hSol === 0) {
      for (const v of [z1, z2, z3, f1, f2, f3]) v.fill(0);
      return;
    }
    const c3q = h / this.hold,
      c1q = K.C1 * c3q,
      c2q = K.C2 * c3q;
    for (let i = 0; i < n; i++) {
      const ak1 = cont1[i],
        ak2 = cont2[i],
        ak3 = cont3[i];
      const a = (z1[i] = c1q * (ak1 + (c1q - K.C2M1) * (ak2 + (c1q - K.C1M1) * ak3)));
      const b = (z2[i] = c2q * (ak1 + (c2q - K.C2M1) * (ak2 + (c2q - K.C1M1) * ak3)));
      const c = (z3[i] = c3q * (ak1 + (c3q - K.C2M1) * (ak2 + (c3q - K.C1M1) * ak3)));
      f1[i] = K.TI11 * a + K.TI12 * b + K.TI13 * c;
      f2[i] = K.TI21 * a + K.TI22 * b + K.TI23 * c;
      f3[i] = K.TI31 * a + K.TI32 * b + K.TI33 * c;
    }
  }

  /**
   * The embedded error estimate filtered by (I - h γ0 J)⁻¹ (§IV.8 'Error Estimation'), RMS over the
   * weights; at the first step and after a rejection, when that is ≥ 1, the second
   * estimate with f evaluated at y + err, which stays bounded for stiff components.
   */
  private estimate(t0: number, h: number): number {
    const { n, x: y, y0, z1, z2, z3, f1, f2, cont, scal } = this;
    const hee1 = K.DD1 / h,
      hee2 = K.DD2 / h,
      hee3 = K.DD3 / h;
    for (let i = 0; i < n; i++) {
      f2[i] = hee1 * z1[i] + hee2 * z2[i] + hee3 * z3[i];
      cont[i] = f2[i] + y0[i];
    }
    const e = cont;
    solveReal(n, this.e1, this.p1, e);
    let err = K.rms(e, scal);
    if (err < 1 || !(this.first || this.reject)) return err;
    for (let i = 0; i < n; i++) cont[i] = y[i] + e[i];
    try {
      this.trial(f1, cont, t0);
    } catch (x) {
      if (x instanceof NonFiniteError) return Infinity;
      throw x;
    }
    for (let i = 0; i < n; i++) cont[i] = f1[i] + f2[i];
    solveReal(n, this.e1, this.p1, cont);
    err = K.rms(cont, scal);
    return Number.isFinite(err) ? err : Infinity;
  }

  /** the step to tEnd is taken: y + Z3, the collocation polynomial for the dense output, f at the new state */
  private accept(t0: number, h: number, tEnd: number): void {
    const { n, x: y, z1, z2, z3, cont1, cont2, cont3 } = this;
    for (let i = 0; i < n; i++) {
      y[i] += z3[i];
      // divided differences of the collocation polynomial through (0, y), (c_i, y + Z_i), in units of h (RADAU5's CONT)
      cont1[i] = (z2[i] - z3[i]) / K.C2M1;
      const ak = (z1[i] - z2[i]) / K.C1MC2;
      const acont3 = (ak - z1[i] / K.C1) / K.C2;
      cont2[i] = (ak - cont1[i]) / K.C1M1;
      cont3[i] = cont2[i] - acont3;
    }
    this.settings.project?.(y); // back onto the constraint manifold (unit quaternions) after every accepted step
    this.tPrev = t0;
    this.t = this.tSol = tEnd;
    this.hSol = this.hold = h;
    this.first = this.reject = false;
    this.jacobianFresh = false;
    this.accepted++;
    this.stats.steps++;
    this.f(this.y0, y, tEnd);
    this.scale();
  }

  /**
   * The next step size: h_new, not above h after a rejection; h itself (and its LU) when
   * J is kept and h_new / h is within [1, 1.2]; after a step cut short at until, the
   * proposal from before (RADAU5's HOPT) unless the error asks for less than the step taken.
   */
  private propose(hnew: number, h: number, proposal: number, last: boolean, rejectedHere: boolean): void {
    hnew = Math.min(hnew, this.hmax);
    if (rejectedHere) hnew = Math.min(hnew, h);
    const keep = this.theta <= this.thet;
    this.needJacobian = !keep;
    if (last && !rejectedHere) this.h = hnew < h ? hnew : Math.max(proposal, h);
    else if (keep && hnew / h >= K.QUOT1 && hnew / h <= K.QUOT2) this.h = h;
    else this.h = hnew;
  }

  /** J = ∂f/∂x at (t, y): the model's own, else forward differences, one column per state (RADAU5) */
  private formJacobian(t: number): void {
    const { n, x: y, y0, J, work, cont } = this;
    this.stats.jacobians++;
    this.needJacobian = false;
    this.jacobianFresh = true;
    this.hLu = NaN;
    if (this.settings.jacobian) {
      this.jacobianKept = this.settings.jacobian(J, y, t, y0, this.jacobianWhole) === true;
      this.jacobianWhole = false;
      return;
    }
    work.set(y);
    for (let j = 0; j < n; j++) {
      const ysafe = work[j];
      const delta = Math.sqrt(K.EPS * Math.max(1e-5, Math.abs(ysafe)));
      work[j] = ysafe + delta;
      this.trial(cont, work, t);
      for (let i = 0; i < n; i++) J[i * n + j] = (cont[i] - y0[i]) / delta;
      work[j] = ysafe;
    }
  }

  /** E1 = (u1/h) I - J and E2 = ((α + iβ)/h) I - J, factored in place; false when singular */
  private factor(h: number): boolean {
    const { n, J, e1, e2 } = this;
    const fac1 = K.U1 / h,
      alphn = K.ALPH / h,
      betan = K.BETA / h;
    for (let k = 0; k < n * n; k++) ((e1[k] = -J[k]), (e2[2 * k] = -J[k]), (e2[2 * k + 1] = 0));
    for (let i = 0; i < n; i++) {
      e1[i * n + i] += fac1;
      e2[2 * (i * n + i)] += alphn;
      e2[2 * (i * n + i) + 1] = betan;
    }
    this.stats.decompositions++;
    if (!factorReal(n, e1, this.p1, this.nz) || !factorComplex(n, e2, this.p2, this.nz)) {
      this.hLu = NaN;
      return false;
    }
    this.hLu = h;
    return true;
  }

  private scale(): void {
    for (let i = 0; i < this.n; i++) this.scal[i] = this.atol + this.rtol * Math.abs(this.x[i]);
  }

  /** the state at s in [tPrev, t]: the collocation polynomial of the last step (order 3 between steps) */
  interpolate(s: number, out: Float64Array): void {
    const { n, x, cont1, cont2, cont3 } = this;
    if (this.hSol === 0) {
      out.set(x);
      return;
    }
    const u = (s - this.tSol) / this.hSol;
    for (let i = 0; i < n; i++) out[i] = x[i] + u * (cont1[i] + (u - K.C2M1) * (cont2[i] + (u - K.C1M1) * cont3[i]));
  }

  /** a changed state at t (an event's reinit): no polynomial, J formed anew, the step size kept */
  restart(x: Float64Array): void {
    this.x.set(x);
    this.tPrev = this.t;
    this.hSol = 0;
    this.first = true;
    this.needJacobian = this.jacobianWhole = true;
    this.jacobianFresh = false;
    this.accepted = 0;
    this.faccon = 1;
    if (this.n) attempt(this.t, this.x, this.h, () => this.f(this.y0, this.x, this.t));
    this.scale();
  }

  private stepTooSmall(t: number, h: number, tries: number): SimulationError {
    const what =
      tries >= K.MAX_ATTEMPTS
        ? `${tries} attempts of the step failed, the last of ${h.toPrecision(3)} s`
        : `the step size fell to ${h.toPrecision(3)} s, below rounding`;
    return new SimulationError(`the radau integrator could not take a step from time ${t}: ${what}`, {
      hint: "Newton's iteration or the error control cannot succeed here: the model is probably discontinuous or not differentiable at this time (a switch, a kink, a state leaving its domain), or its solution runs away to infinity (after a small state that --atol does not resolve went astray: tighten --atol below the smallest state that matters), or the tolerances ask for more than double precision gives; check the model near this time",
    });
  }

  private singularMatrix(t: number, h: number): SimulationError {
    return new SimulationError(
      `the radau integrator's iteration matrix I - h γ ∂f/∂x is singular at time ${t} (step ${h.toPrecision(3)} s, five step sizes tried)`,
      {
        hint: "∂f/∂x is probably not K.finite or not consistent with f there (a kink, a division near zero, the model's own Jacobian wrong); check the model near this time, or try --integrator adaptive",
      },
    );
  }
}
