// Analytical derivatives of a tree's inverse dynamics, O(n d) (d the depth),
// after Carpentier & Mansard (RSS 2018, "Analytical derivatives of rigid
// body dynamics algorithms": the recursive Newton-Euler algorithm in the
// world frame, where turning joint j turns its whole subtree about S_j).
// (rigid tree, q, qd, qdd) => tau, dtau/dq, dtau/dqd and M, all at once;
// plain numbers on the tree of rigid-tree.ts, nothing allocated per call.
//
// World frame, spatial vectors about the world origin, angular part first
// (motion (w, v_O), force (n_O, f)); a_0 = (0, -g), so gravity needs no term
// (Luh, Walker & Paul). Per body: S its joint's axis, v, a its velocity and
// acceleration, I its inertia, f = I a + v x* I v, and over its subtree (the
// composites): Ic = sum I, B = sum dI/dt = sum (v x* I - I v x), hc = sum I v,
// F = sum f; tau_i = S_i . F_i + c (q - q0) + d qd. Turning q_j turns every
// quantity of j's subtree by S_j x (the world-frame identity dS_k/dq_j =
// S_j x S_k), except what enters from j's parent (lambda): v_lambda,
// a_lambda. Differentiating with that (our derivation, in the paper's
// terms; S.(m x* F) = -(m x S).F makes the turn of S_i and of F_i cancel),
// with beta_j = S_j x v_lambda and alpha_j = S_j x a_lambda - beta_j x v_lambda:
//   dF_i/dq_j  = S_j x* F_i - Ic_i alpha_j - B_i beta_j - beta_j x* hc_i   (j <= i)
//   dtau_i/dq_j  = -(P_i . alpha_j + Q_i . beta_j)                          (j <= i)
//   dtau_i/dqd_j = Q_i . S_j - 2 P_i . beta_j                               (j <= i)
//   dtau_i/dq_j  = S_i . D_j,  dtau_i/dqd_j = S_i . E_j                    (i < j)
//   M_ij = P_i . S_j                                                       (j <= i)
// with P_i = Ic_i S_i, Q_i = B_i S_i + c_i (c_i . x = S_i . (x x* hc_i)),
// D_j = dF_j/dq_j, E_j = dF_j/dqd_j = B_j S_j + S_j x* hc_j - 2 Ic_j beta_j.
// j <= i: j is i or an ancestor of i. B is symmetric (the time derivative of
// an inertia) and has the inertia's form with no mass term, so every
// composite is 10 numbers: m, h (first moment m c), J (rotational inertia
// about the world origin, symmetric: xx yy zz xy xz yz).
import type { RigidTree } from './rigid-tree.ts';
import * as spatial from './spatial-ops.ts';

// local bindings: under tsx's module interop every call of an imported name
// goes through a getter, which the hot loops below would pay per call
const { crossFAdd, crossM, dot6, inertia } = spatial;

export class TreeDerivatives {
  readonly n: number;
  // per body: world pose, axis, velocity, acceleration; its own inertia (Ih, IJ) and momentum hb
  private readonly Rw: Float64Array;
  private readonly o: Float64Array;
  private readonly S: Float64Array;
  private readonly v: Float64Array;
  private readonly a: Float64Array;
  private readonly Ih: Float64Array;
  private readonly IJ: Float64Array;
  private readonly hb: Float64Array;
  // composites over the subtree: Ic = (Cm, Ch, CJ), B = (0, Bh, BJ), hc, F
  private readonly Cm: Float64Array;
  private readonly Ch: Float64Array;
  private readonly CJ: Float64Array;
  private readonly Bh: Float64Array;
  private readonly BJ: Float64Array;
  private readonly hc: Float64Array;
  private readonly F: Float64Array;
  // per body: P, Q, alpha, beta, D, E of the header; t a scratch vector
  private readonly P: Float64Array;
  private readonly Q: Float64Array;
  private readonly al: Float64Array;
  private readonly be: Float64Array;
  private readonly D: Float64Array;
  private readonly E: Float64Array;
  private readonly t = new Float64Array(6);
  private readonly a0: Float64Array;

  constructor(readonly tree: RigidTree) {
    const N = (this.n = tree.N);
    const f = (k: number) => new Float64Array(k * N);
    [this.Rw, this.o, this.S, this.v, this.a, this.Ih, this.IJ, this.hb] = [f(9), f(3), f(6), f(6), f(6), f(3), f(6), f(6)];
    [this.Cm, this.Ch, this.CJ, this.Bh, this.BJ, this.hc, this.F] = [f(1), f(3), f(6), f(3), f(6), f(6), f(6)];
    [this.P, this.Q, this.al, this.be, this.D, this.E] = [f(6), f(6), f(6), f(6), f(6), f(6)];
    const g = tree.gravity;
    this.a0 = Float64Array.of(0, 0, 0, -g[0], -g[1], -g[2]);
  }

  /**
   * Poses, axes, velocities, inertias and their composites at (q, qd), and M
   * (n x n row-major, coordinate order) into M: everything that does not
   * depend on qdd
   */
  kinematics(q: ArrayLike<number>, qd: ArrayLike<number>, M: Float64Array): void {
    const { tree, n } = this;
    const { parent, coord } = tree;
    M.fill(0);
    for (let b = 0; b < n; b++) this.body(b, q[coord[b]], qd[coord[b]]);
    const { Cm, Ch, CJ, Bh, BJ, hc } = this;
    for (let b = n - 1; b >= 0; b--) {
      const p = parent[b];
      if (p < 0) continue;
      Cm[p] += Cm[b];
      for (let k = 0; k < 3; k++) ((Ch[3 * p + k] += Ch[3 * b + k]), (Bh[3 * p + k] += Bh[3 * b + k]));
      for (let k = 0; k < 6; k++) ((CJ[6 * p + k] += CJ[6 * b + k]), (BJ[6 * p + k] += BJ[6 * b + k]), (hc[6 * p + k] += hc[6 * b + k]));
    }
    const { S, P, Q, be, E, v } = this;
    for (let b = 0; b < n; b++) {
      const s = 6 * b,
        p = parent[b];
      inertia(Cm[b], Ch, 3 * b, CJ, s, S, s, P, s);
      inertia(0, Bh, 3 * b, BJ, s, S, s, Q, s);
      // c_b: S_b . (x x* hc_b) = c_b . x, hc = (n, f): c = (n x s_w + f x s_v, f x s_w)
      const n0 = hc[s],
        n1 = hc[s + 1],
        n2 = hc[s + 2],
        f0 = hc[s + 3],
        f1 = hc[s + 4],
        f2 = hc[s + 5];
      const w0 = S[s],
        w1 = S[s + 1],
        w2 = S[s + 2],
        u0 = S[s + 3],
        u1 = S[s + 4],
        u2 = S[s + 5];
      Q[s] += n1 * w2 - n2 * w1 + f1 * u2 - f2 * u1;
      Q[s + 1] += n2 * w0 - n0 * w2 + f2 * u0 - f0 * u2;
      Q[s + 2] += n0 * w1 - n1 * w0 + f0 * u1 - f1 * u0;
      Q[s + 3] += f1 * w2 - f2 * w1;
      Q[s + 4] += f2 * w0 - f0 * w2;
      Q[s + 5] += f0 * w1 - f1 * w0;
      if (p < 0) be.fill(0, s, s + 6);
      else crossM(S, s, v, 6 * p, be, s);
      // E_b = B_b S_b + S_b x* hc_b - 2 Ic_b beta_b
      inertia(0, Bh, 3 * b, BJ, s, S, s, E, s);
      crossFAdd(S, s, hc, s, 1, E, s);
      inertia(Cm[b], Ch, 3 * b, CJ, s, be, s, this.t, 0);
      for (let k = 0; k < 6; k++) E[s + k] -= 2 * this.t[k];
    }
    for (let i = 0; i < n; i++) {
      const ki = coord[i];
      for (let j = i; j >= 0; j = parent[j]) M[ki * n + coord[j]] = M[coord[j] * n + ki] = dot6(P, 6 * i, S, 6 * j);
    }
  }

  /** body b's pose, axis and velocity at its joint's q, qd (its parent's done), then its inertias */
  private body(b: number, qb: number, qdb: number): void {
    const { tree, Rw, o, S, v } = this;
    const p = tree.parent[b],
      R = tree.R,
      r = 9 * b,
      s = 6 * b;
    // the parent's rotation and origin (the world's: 1, 0)
    let P00 = 1,
      P01 = 0,
      P02 = 0,
      P10 = 0,
      P11 = 1,
      P12 = 0,
      P20 = 0,
      P21 = 0,
      P22 = 1,
      o0 = 0,
      o1 = 0,
      o2 = 0;
    if (p >= 0) {
      const pr = 9 * p;
      [P00, P01, P02, P10, P11, P12, P20, P21, P22] = [Rw[pr], Rw[pr + 1], Rw[pr + 2], Rw[pr + 3], Rw[pr + 4], Rw[pr + 5], Rw[pr + 6], Rw[pr + 7], Rw[pr + 8]];
      o0 = o[3 * p];
      o1 = o[3 * p + 1];
      o2 = o[3 * p + 2];
    }
    // the placement R0 = Rw_p R_b, origin o_p + Rw_p pos_b
    const r00 = R[r],
      r01 = R[r + 1],
      r02 = R[r + 2],
      r10 = R[r + 3],
      r11 = R[r + 4],
      r12 = R[r + 5],
      r20 = R[r + 6],
      r21 = R[r + 7],
      r22 = R[r + 8];
    const A00 = P00 * r00 + P01 * r10 + P02 * r20,
      A01 = P00 * r01 + P01 * r11 + P02 * r21,
      A02 = P00 * r02 + P01 * r12 + P02 * r22;
    const A10 = P10 * r00 + P11 * r10 + P12 * r20,
      A11 = P10 * r01 + P11 * r11 + P12 * r21,
      A12 = P10 * r02 + P11 * r12 + P12 * r22;
    const A20 = P20 * r00 + P21 * r10 + P22 * r20,
      A21 = P20 * r01 + P21 * r11 + P22 * r21,
      A22 = P20 * r02 + P21 * r12 + P22 * r22;
    const d0 = tree.pos[3 * b],
      d1 = tree.pos[3 * b + 1],
      d2 = tree.pos[3 * b + 2];
    let x0 = o0 + P00 * d0 + P01 * d1 + P02 * d2,
      x1 = o1 + P10 * d0 + P11 * d1 + P12 * d2,
      x2 = o2 + P20 * d0 + P21 * d1 + P22 * d2;
    const x = tree.axis[3 * b],
      y = tree.axis[3 * b + 1],
      z = tree.axis[3 * b + 2];
    const e0 = A00 * x + A01 * y + A02 * z,
      e1 = A10 * x + A11 * y + A12 * z,
      e2 = A20 * x + A21 * y + A22 * z;
    if (tree.hinge[b]) {
      // Rw = R0 Rot(axis, q), Rot = c 1 + (1 - c) a a^T + s [a]x (Rodrigues)
      const c = Math.cos(qb),
        sn = Math.sin(qb),
        k = 1 - c;
      const t00 = c + k * x * x,
        t01 = k * x * y - sn * z,
        t02 = k * x * z + sn * y;
      const t10 = k * x * y + sn * z,
        t11 = c + k * y * y,
        t12 = k * y * z - sn * x;
      const t20 = k * x * z - sn * y,
        t21 = k * y * z + sn * x,
        t22 = c + k * z * z;
      Rw[r] = A00 * t00 + A01 * t10 + A02 * t20;
      Rw[r + 1] = A00 * t01 + A01 * t11 + A02 * t21;
      Rw[r + 2] = A00 * t02 + A01 * t12 + A02 * t22;
      Rw[r + 3] = A10 * t00 + A11 * t10 + A12 * t20;
      Rw[r + 4] = A10 * t01 + A11 * t11 + A12 * t21;
      Rw[r + 5] = A10 * t02 + A11 * t12 + A12 * t22;
      Rw[r + 6] = A20 * t00 + A21 * t10 + A22 * t20;
      Rw[r + 7] = A20 * t01 + A21 * t11 + A22 * t21;
      Rw[r + 8] = A20 * t02 + A21 * t12 + A22 * t22;
      S[s] = e0;
      S[s + 1] = e1;
      S[s + 2] = e2;
      S[s + 3] = x1 * e2 - x2 * e1;
      S[s + 4] = x2 * e0 - x0 * e2;
      S[s + 5] = x0 * e1 - x1 * e0;
    } else {
      [Rw[r], Rw[r + 1], Rw[r + 2], Rw[r + 3], Rw[r + 4], Rw[r + 5], Rw[r + 6], Rw[r + 7], Rw[r + 8]] = [A00, A01, A02, A10, A11, A12, A20, A21, A22];
      x0 += e0 * qb;
      x1 += e1 * qb;
      x2 += e2 * qb;
      S[s] = S[s + 1] = S[s + 2] = 0;
      S[s + 3] = e0;
      S[s + 4] = e1;
      S[s + 5] = e2;
    }
    o[3 * b] = x0;
    o[3 * b + 1] = x1;
    o[3 * b + 2] = x2;
    for (let k = 0; k < 6; k++) v[s + k] = (p < 0 ? 0 : v[6 * p + k]) + S[s + k] * qdb;
    this.inertias(b);
  }

  /** body b's world inertia (m, h = m c, J about the origin), dI/dt = (0, m c', J'), momentum I v; the composites start from them */
  private inertias(b: number): void {
    const { tree, Rw, o, v, Ih, IJ, hb } = this;
    const m = tree.m[b],
      r = 9 * b,
      s = 6 * b,
      cb = tree.com,
      I = tree.Ib;
    const R00 = Rw[r],
      R01 = Rw[r + 1],
      R02 = Rw[r + 2],
      R10 = Rw[r + 3],
      R11 = Rw[r + 4],
      R12 = Rw[r + 5],
      R20 = Rw[r + 6],
      R21 = Rw[r + 7],
      R22 = Rw[r + 8];
    // the centre of mass c = o + Rw com, and Ic = Rw Ib Rw^T about it
    const x = cb[3 * b],
      y = cb[3 * b + 1],
      z = cb[3 * b + 2];
    const c0 = o[3 * b] + R00 * x + R01 * y + R02 * z,
      c1 = o[3 * b + 1] + R10 * x + R11 * y + R12 * z,
      c2 = o[3 * b + 2] + R20 * x + R21 * y + R22 * z;
    const i00 = I[r],
      i01 = I[r + 1],
      i02 = I[r + 2],
      i11 = I[r + 4],
      i12 = I[r + 5],
      i22 = I[r + 8];
    const B00 = R00 * i00 + R01 * i01 + R02 * i02,
      B01 = R00 * i01 + R01 * i11 + R02 * i12,
      B02 = R00 * i02 + R01 * i12 + R02 * i22;
    const B10 = R10 * i00 + R11 * i01 + R12 * i02,
      B11 = R10 * i01 + R11 * i11 + R12 * i12,
      B12 = R10 * i02 + R11 * i12 + R12 * i22;
    const B20 = R20 * i00 + R21 * i01 + R22 * i02,
      B21 = R20 * i01 + R21 * i11 + R22 * i12,
      B22 = R20 * i02 + R21 * i12 + R22 * i22;
    const I00 = B00 * R00 + B01 * R01 + B02 * R02,
      I01 = B00 * R10 + B01 * R11 + B02 * R12,
      I02 = B00 * R20 + B01 * R21 + B02 * R22;
    const I11 = B10 * R10 + B11 * R11 + B12 * R12,
      I12 = B10 * R20 + B11 * R21 + B12 * R22,
      I22 = B20 * R20 + B21 * R21 + B22 * R22;
    const cc = c0 * c0 + c1 * c1 + c2 * c2;
    Ih[3 * b] = m * c0;
    Ih[3 * b + 1] = m * c1;
    Ih[3 * b + 2] = m * c2;
    IJ[s] = I00 + m * (cc - c0 * c0);
    IJ[s + 1] = I11 + m * (cc - c1 * c1);
    IJ[s + 2] = I22 + m * (cc - c2 * c2);
    IJ[s + 3] = I01 - m * c0 * c1;
    IJ[s + 4] = I02 - m * c0 * c2;
    IJ[s + 5] = I12 - m * c1 * c2;
    // dI/dt: c' = v_O + w x c, J' = A + A^T + m (2 (c . c') 1 - c' c^T - c c'^T), A = [w]x Ic
    const w0 = v[s],
      w1 = v[s + 1],
      w2 = v[s + 2];
    const d0 = v[s + 3] + w1 * c2 - w2 * c1,
      d1 = v[s + 4] + w2 * c0 - w0 * c2,
      d2 = v[s + 5] + w0 * c1 - w1 * c0;
    const a00 = w1 * I02 - w2 * I01,
      a01 = w1 * I12 - w2 * I11,
      a02 = w1 * I22 - w2 * I12;
    const a10 = w2 * I00 - w0 * I02,
      a11 = w2 * I01 - w0 * I12,
      a12 = w2 * I02 - w0 * I22;
    const a20 = w0 * I01 - w1 * I00,
      a21 = w0 * I11 - w1 * I01,
      a22 = w0 * I12 - w1 * I02;
    const cd2 = 2 * (c0 * d0 + c1 * d1 + c2 * d2);
    const { Cm, Ch, CJ, Bh, BJ, hc } = this;
    BJ[s] = 2 * a00 + m * (cd2 - 2 * d0 * c0);
    BJ[s + 1] = 2 * a11 + m * (cd2 - 2 * d1 * c1);
    BJ[s + 2] = 2 * a22 + m * (cd2 - 2 * d2 * c2);
    BJ[s + 3] = a01 + a10 - m * (d0 * c1 + c0 * d1);
    BJ[s + 4] = a02 + a20 - m * (d0 * c2 + c0 * d2);
    BJ[s + 5] = a12 + a21 - m * (d1 * c2 + c1 * d2);
    Cm[b] = m;
    Ch[3 * b] = m * c0;
    Ch[3 * b + 1] = m * c1;
    Ch[3 * b + 2] = m * c2;
    Bh[3 * b] = m * d0;
    Bh[3 * b + 1] = m * d1;
    Bh[3 * b + 2] = m * d2;
    for (let k = 0; k < 6; k++) CJ[s + k] = IJ[s + k];
    inertia(m, Ih, 3 * b, IJ, s, v, s, hb, s);
    for (let k = 0; k < 6; k++) hc[s + k] = hb[s + k];
  }

  /** after kinematics(q, qd): accelerations, forces and tau at qdd (coordinate order, into tau) */
  dynamics(q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, tau: Float64Array): void {
    const { tree, n, S, v, a, F, Ih, IJ, hb, a0 } = this;
    const { parent, coord } = tree;
    for (let b = 0; b < n; b++) {
      const s = 6 * b,
        p = parent[b],
        A = p < 0 ? a0 : a,
        ap = p < 0 ? 0 : 6 * p;
      const qddb = qdd[coord[b]],
        qdb = qd[coord[b]];
      // a_b = a_p + S qdd + (v x S) qd
      const vw0 = v[s],
        vw1 = v[s + 1],
        vw2 = v[s + 2],
        vv0 = v[s + 3],
        vv1 = v[s + 4],
        vv2 = v[s + 5];
      const sw0 = S[s],
        sw1 = S[s + 1],
        sw2 = S[s + 2],
        sv0 = S[s + 3],
        sv1 = S[s + 4],
        sv2 = S[s + 5];
      a[s] = A[ap] + sw0 * qddb + (vw1 * sw2 - vw2 * sw1) * qdb;
      a[s + 1] = A[ap + 1] + sw1 * qddb + (vw2 * sw0 - vw0 * sw2) * qdb;
      a[s + 2] = A[ap + 2] + sw2 * qddb + (vw0 * sw1 - vw1 * sw0) * qdb;
      a[s + 3] = A[ap + 3] + sv0 * qddb + (vw1 * sv2 - vw2 * sv1 + vv1 * sw2 - vv2 * sw1) * qdb;
      a[s + 4] = A[ap + 4] + sv1 * qddb + (vw2 * sv0 - vw0 * sv2 + vv2 * sw0 - vv0 * sw2) * qdb;
      a[s + 5] = A[ap + 5] + sv2 * qddb + (vw0 * sv1 - vw1 * sv0 + vv0 * sw1 - vv1 * sw0) * qdb;
      // f_b = I a + v x* I v
      inertia(tree.m[b], Ih, 3 * b, IJ, s, a, s, F, s);
      crossFAdd(v, s, hb, s, 1, F, s);
    }
    for (let b = n - 1; b >= 0; b--) {
      const p = parent[b];
      if (p >= 0) for (let k = 0; k < 6; k++) F[6 * p + k] += F[6 * b + k];
    }
    for (let b = 0; b < n; b++) {
      const k = coord[b];
      tau[k] = dot6(S, 6 * b, F, 6 * b) + tree.c[b] * (q[k] - tree.q0[b]) + tree.d[b] * qd[k];
    }
  }

  /** after dynamics(): alpha and D of the header, what the q-derivatives take from the accelerations and forces */
  private accelerationTerms(): void {
    const { tree, n, S, v, a, F, al, be, D, Cm, Ch, CJ, Bh, BJ, hc, t, a0 } = this;
    const parent = tree.parent;
    for (let b = 0; b < n; b++) {
      const s = 6 * b,
        p = parent[b];
      // alpha = S x a_p - beta x v_p
      crossM(S, s, p < 0 ? a0 : a, p < 0 ? 0 : 6 * p, al, s);
      if (p >= 0) {
        crossM(be, s, v, 6 * p, t, 0);
        for (let i = 0; i < 6; i++) al[s + i] -= t[i];
      }
      // D = S x* F - Ic alpha - B beta - beta x* hc
      inertia(Cm[b], Ch, 3 * b, CJ, s, al, s, D, s);
      inertia(0, Bh, 3 * b, BJ, s, be, s, t, 0);
      for (let i = 0; i < 6; i++) D[s + i] = -D[s + i] - t[i];
      crossFAdd(S, s, F, s, 1, D, s);
      crossFAdd(be, s, hc, s, -1, D, s);
    }
  }

  /** after dynamics(): dtau/dq and dtau/dqd (n x n row-major, coordinate order) into dq, dqd */
  derivatives(dq: Float64Array, dqd: Float64Array): void {
    this.accelerationTerms();
    const { tree, n, P, Q, al, be, S, D, E } = this;
    const { parent, coord } = tree;
    for (let i = 0; i < n; i++) {
      const ki = coord[i],
        si = 6 * i;
      // P_i, Q_i, S_i, D_i, E_i held while j walks up from i
      const p0 = P[si],
        p1 = P[si + 1],
        p2 = P[si + 2],
        p3 = P[si + 3],
        p4 = P[si + 4],
        p5 = P[si + 5];
      const q0 = Q[si],
        q1 = Q[si + 1],
        q2 = Q[si + 2],
        q3 = Q[si + 3],
        q4 = Q[si + 4],
        q5 = Q[si + 5];
      const d0 = D[si],
        d1 = D[si + 1],
        d2 = D[si + 2],
        d3 = D[si + 3],
        d4 = D[si + 4],
        d5 = D[si + 5];
      const e0 = E[si],
        e1 = E[si + 1],
        e2 = E[si + 2],
        e3 = E[si + 3],
        e4 = E[si + 4],
        e5 = E[si + 5];
      for (let j = i; j >= 0; j = parent[j]) {
        const kj = coord[j],
          sj = 6 * j;
        const a0 = al[sj],
          a1 = al[sj + 1],
          a2 = al[sj + 2],
          a3 = al[sj + 3],
          a4 = al[sj + 4],
          a5 = al[sj + 5];
        const b0 = be[sj],
          b1 = be[sj + 1],
          b2 = be[sj + 2],
          b3 = be[sj + 3],
          b4 = be[sj + 4],
          b5 = be[sj + 5];
        const s0 = S[sj],
          s1 = S[sj + 1],
          s2 = S[sj + 2],
          s3 = S[sj + 3],
          s4 = S[sj + 4],
          s5 = S[sj + 5];
        const Pb = p0 * b0 + p1 * b1 + p2 * b2 + p3 * b3 + p4 * b4 + p5 * b5;
        dq[ki * n + kj] = -(p0 * a0 + p1 * a1 + p2 * a2 + p3 * a3 + p4 * a4 + p5 * a5 + q0 * b0 + q1 * b1 + q2 * b2 + q3 * b3 + q4 * b4 + q5 * b5);
        dqd[ki * n + kj] = q0 * s0 + q1 * s1 + q2 * s2 + q3 * s3 + q4 * s4 + q5 * s5 - 2 * Pb;
        if (j !== i) {
          dq[kj * n + ki] = s0 * d0 + s1 * d1 + s2 * d2 + s3 * d3 + s4 * d4 + s5 * d5;
          dqd[kj * n + ki] = s0 * e0 + s1 * e1 + s2 * e2 + s3 * e3 + s4 * e4 + s5 * e5;
        }
      }
      dq[ki * n + ki] += tree.c[i];
      dqd[ki * n + ki] += tree.d[i];
    }
  }
}
