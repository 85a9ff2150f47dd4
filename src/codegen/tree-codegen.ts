// A tree's recursions written out as code for one model: (rigid tree) =>
// straight-line text of the world-frame kinematics, inertias and their
// composites, M, the forces at a given qdd and the derivative pairs of
// tree-derivatives.ts (whose header derives them; the symbols are its), with
// the tree's constants folded by the emitter (tree-emit.ts): a unit axis, a
// placement without rotation or offset, a diagonal inertia, the composite
// masses cost nothing at run time, and the branch structure is unrolled
// (M_ij only for j on i's path to the root). Emitted into the caller's
// functions (tree-generated.ts); what a later function reads is stored in
// the workspace w.
//
// Inputs the text reads: q, qd, qdd (coordinate order), kb (the forces
// outside the tree: k then b per coordinate, tree-dynamics.ts).
import type { RigidTree } from './rigid-tree.ts';
import type { Emitter, Sym, Term } from './tree-emit.ts';
import { type Inertia, type Terms6, type Vec, crossF, crossM, dotTerms, emit6, plus, store, terms, times } from './tree-spatial-sym.ts';

const ZERO6: Vec = [0, 0, 0, 0, 0, 0];

/** per body, the stored symbols of each recursion */
interface Body {
  R: Sym[];
  o: Sym[];
  S: Sym[];
  v: Vec;
  /** own inertia, its time derivative (m 0), momentum I v */
  I: Inertia;
  B: Inertia;
  hb: Vec;
  /** composites over the subtree */
  Ic: Inertia;
  Bc: Inertia;
  hc: Vec;
  /** (v x S) qd and v x* I v: the accelerations' and forces' velocity terms */
  cb: Vec;
  fb: Vec;
  P: Vec;
  Q: Vec;
  be: Vec;
  /** -2 beta: the factor folded once per body, not once per term of E and of each dtau/dqd pair */
  be2: Vec;
  E: Vec;
}

export class TreeRecursions {
  readonly N: number;
  /** ancestors of b, nearest first (not b) */
  readonly anc: number[][];
  /** all descendants of b */
  readonly desc: number[][];
  readonly bodies: Body[] = [];
  /** lower triangle of M in body order: M[i][j], j on i's path (j = i first) */
  M: Map<number, Sym> = new Map();
  private readonly children: number[][];

  constructor(
    private readonly e: Emitter,
    readonly tree: RigidTree,
    private readonly velocities: boolean,
  ) {
    const N = (this.N = tree.N);
    this.children = Array.from({ length: N }, () => []);
    this.anc = [];
    for (let b = 0; b < N; b++) {
      const p = tree.parent[b];
      if (p >= 0) this.children[p].push(b);
      this.anc.push(p < 0 ? [] : [p, ...this.anc[p]]);
    }
    this.desc = Array.from({ length: N }, () => []);
    for (let b = 0; b < N; b++) for (const a of this.anc[b]) this.desc[a].push(b);
  }

  /** the key of pair (i, j) */
  key(i: number, j: number): number {
    return i * this.N + j;
  }

  /** poses, axes, velocities, inertias of every body, outward */
  kinematics(): void {
    for (let b = 0; b < this.N; b++) {
      this.body(b);
      this.e.boundary();
    }
  }

  /** body b's pose and axis (Rodrigues for a hinge, its parent's done), velocity, inertias */
  private body(b: number): void {
    const { e, tree } = this,
      p = tree.parent[b],
      co = tree.coord[b];
    const Pr: Sym[] = p < 0 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : this.bodies[p].R,
      op: Sym[] = p < 0 ? [0, 0, 0] : this.bodies[p].o;
    const Rb = [...tree.R.subarray(9 * b, 9 * b + 9)],
      pos = [...tree.pos.subarray(3 * b, 3 * b + 3)],
      ax = [...tree.axis.subarray(3 * b, 3 * b + 3)];
    const r3 = [0, 1, 2];
    // the placement A = Rw_p R_b, origin x = o_p + Rw_p pos, axis e = A axis
    const A = r3.flatMap((i) => r3.map((j) => e.sum(r3.map((k) => [Pr[3 * i + k], Rb[3 * k + j]]))));
    const x = r3.map((i) => e.sum([[op[i]], ...r3.map((k): Term => [Pr[3 * i + k], pos[k]])]));
    const ax3 = r3.map((i) => e.sum(r3.map((k) => [A[3 * i + k], ax[k]])));
    let R: Sym[], o: Sym[], S: Sym[];
    if (tree.hinge[b]) {
      // Rw = A Rot(axis, q), Rot = a a^T + c (1 - a a^T) + s [a]x
      const c = e.call('cos', `q[${co}]`),
        s = e.call('sin', `q[${co}]`);
      const X = [0, -ax[2], ax[1], ax[2], 0, -ax[0], -ax[1], ax[0], 0];
      const t = r3.flatMap((i) => r3.map((j) => e.sum([[ax[i] * ax[j]], [c, (i === j ? 1 : 0) - ax[i] * ax[j]], [s, X[3 * i + j]]])));
      R = r3.flatMap((i) => r3.map((j) => e.store(e.sum(r3.map((k) => [A[3 * i + k], t[3 * k + j]])))));
      o = x.map((xi) => e.store(xi));
      const u = [
        e.sum([
          [o[1], ax3[2]],
          [-1, o[2], ax3[1]],
        ]),
        e.sum([
          [o[2], ax3[0]],
          [-1, o[0], ax3[2]],
        ]),
        e.sum([
          [o[0], ax3[1]],
          [-1, o[1], ax3[0]],
        ]),
      ];
      S = store(e, [...ax3, ...u]);
    } else {
      R = A.map((a) => e.store(a));
      o = r3.map((i) => e.store(e.sum([[x[i]], [ax3[i], `q[${co}]`]])));
      S = store(e, [0, 0, 0, ...ax3]);
    }
    const v = this.velocities ? store(e, emit6(e, plus([1, terms(p < 0 ? ZERO6 : this.bodies[p].v)], [1, S.map((s) => [[s, `qd[${co}]`]])]))) : ZERO6;
    const body = { R, o, S, v } as Body;
    this.bodies.push(body);
    this.inertias(b, body);
  }

  /** body b's world inertia about the origin, dI/dt and momentum (Steiner, tree-derivatives.ts' inertias()) */
  private inertias(b: number, body: Body): void {
    const { e, tree } = this,
      { R, o, v } = body,
      r3 = [0, 1, 2];
    const m = tree.m[b],
      cb = [...tree.com.subarray(3 * b, 3 * b + 3)],
      Ib = [...tree.Ib.subarray(9 * b, 9 * b + 9)];
    const c = r3.map((i) => e.sum([[o[i]], ...r3.map((k): Term => [R[3 * i + k], cb[k]])]));
    // Ic = R Ib R^T about the centre of mass
    const BR = r3.flatMap((i) => r3.map((k) => e.sum(r3.map((l) => [R[3 * i + l], Ib[3 * l + k]]))));
    const Ic = (i: number, j: number): Sym => e.sum(r3.map((k) => [BR[3 * i + k], R[3 * j + k]]));
    const [I00, I11, I22, I01, I02, I12] = [Ic(0, 0), Ic(1, 1), Ic(2, 2), Ic(0, 1), Ic(0, 2), Ic(1, 2)];
    // about the origin (Steiner), with h = m c: m c_i c_j = h_i c_j, one product fewer
    const h = c.map((ci) => e.mul(m, ci));
    const J = [
      e.sum([[I00], [h[1], c[1]], [h[2], c[2]]]),
      e.sum([[I11], [h[0], c[0]], [h[2], c[2]]]),
      e.sum([[I22], [h[0], c[0]], [h[1], c[1]]]),
      e.sum([[I01], [-1, h[0], c[1]]]),
      e.sum([[I02], [-1, h[0], c[2]]]),
      e.sum([[I12], [-1, h[1], c[2]]]),
    ];
    body.I = { m, h: store(e, h), J: store(e, J) };
    if (!this.velocities) return;
    // dI/dt: c' = v_O + w x c, J' = A + A^T + m (2 (c . c') 1 - c' c^T - c c'^T), A = [w]x Ic (Ic about the centre of mass)
    const d = [
      e.sum([[v[3]], [v[1], c[2]], [-1, v[2], c[1]]]),
      e.sum([[v[4]], [v[2], c[0]], [-1, v[0], c[2]]]),
      e.sum([[v[5]], [v[0], c[1]], [-1, v[1], c[0]]]),
    ];
    const [w0, w1, w2] = [v[0], v[1], v[2]];
    const a = (i: number, j: number): Term[] => {
      const col = (r: number) =>
        [
          [I00, I01, I02],
          [I01, I11, I12],
          [I02, I12, I22],
        ][r][j];
      const rows: Term[][] = [
        [
          [w1, col(2)],
          [-1, w2, col(1)],
        ],
        [
          [w2, col(0)],
          [-1, w0, col(2)],
        ],
        [
          [w0, col(1)],
          [-1, w1, col(0)],
        ],
      ];
      return rows[i];
    };
    // with md = m c': the diagonal 2 (a_kk + sum over the other two l of c_l md_l), the factor 2 once
    const md = d.map((di) => e.mul(m, di));
    const twice = (t: Term[]): Sym => e.sum([[2, e.sum(t)]]);
    const BJ = [
      twice([...a(0, 0), [c[1], md[1]], [c[2], md[2]]]),
      twice([...a(1, 1), [c[0], md[0]], [c[2], md[2]]]),
      twice([...a(2, 2), [c[0], md[0]], [c[1], md[1]]]),
      e.sum([...a(0, 1), ...a(1, 0), [-1, md[0], c[1]], [-1, c[0], md[1]]]),
      e.sum([...a(0, 2), ...a(2, 0), [-1, md[0], c[2]], [-1, c[0], md[2]]]),
      e.sum([...a(1, 2), ...a(2, 1), [-1, md[1], c[2]], [-1, c[1], md[2]]]),
    ];
    body.B = { m: 0, h: store(e, md), J: store(e, BJ) };
    body.hb = store(e, emit6(e, times(body.I, v)));
  }

  /** the composites over each subtree, inward: Ic, and with velocities B and hc */
  composites(): void {
    const { e, bodies } = this;
    const sum = (own: Vec, of: (c: Body) => Vec, ch: number[]) => own.map((x, k) => e.store(e.sum([[x], ...ch.map((c): Term => [of(bodies[c])[k]])])));
    for (let b = this.N - 1; b >= 0; b--) {
      const B = bodies[b],
        ch = this.children[b];
      const m = ch.reduce((s, c) => s + (bodies[c].Ic.m as number), B.I.m as number);
      B.Ic = ch.length === 0 ? B.I : { m, h: sum(B.I.h, (c) => c.Ic.h, ch), J: sum(B.I.J, (c) => c.Ic.J, ch) };
      if (this.velocities) {
        B.Bc = ch.length === 0 ? B.B : { m: 0, h: sum(B.B.h, (c) => c.Bc.h, ch), J: sum(B.B.J, (c) => c.Bc.J, ch) };
        B.hc = ch.length === 0 ? B.hb : sum(B.hb, (c) => c.hc, ch);
      }
      e.boundary();
    }
  }

  /** P = Ic S per body and M_ij = P_i . S_j (j on i's path) */
  mass(): void {
    const { e, bodies } = this;
    for (let i = 0; i < this.N; i++) {
      const B = bodies[i];
      B.P = store(e, emit6(e, times(B.Ic, B.S)));
      for (const j of [i, ...this.anc[i]]) this.M.set(this.key(i, j), e.store(e.sum(dotTerms(B.P, bodies[j].S))));
      e.boundary();
    }
  }

  /** Q, beta, E of tree-derivatives.ts' header, and the velocity terms cb, fb of the accelerations and forces */
  velocityTerms(): void {
    const { e, bodies, tree } = this;
    for (let b = 0; b < this.N; b++) {
      const B = bodies[b],
        p = tree.parent[b],
        { S, hc } = B,
        qd = `qd[${tree.coord[b]}]`;
      // B S and X = S x* hc, read by Q and E: emitted once. Q's c_b . x =
      // S_b . (x x* hc_b) is (n x s_w + f x s_v, f x s_w) = -X, hc = (n, f)
      const BS = terms(emit6(e, times(B.Bc, S))),
        X = terms(emit6(e, crossF(S, hc)));
      B.Q = store(e, emit6(e, plus([1, BS], [-1, X])));
      B.be = p < 0 ? ZERO6 : store(e, emit6(e, crossM(S, bodies[p].v)));
      B.be2 = store(
        e,
        B.be.map((x) => e.sum([[-2, x]])),
      );
      // E = B S + S x* hc - 2 Ic beta
      B.E = store(e, emit6(e, plus([1, BS], [1, X], [1, times(B.Ic, B.be2)])));
      // a = a_p + S qdd + (v x S) qd, and v x S = (v_p + S qd) x S = v_p x S = -beta
      B.cb =
        p < 0
          ? ZERO6
          : store(
              e,
              B.be.map((x) => e.sum([[-1, x, qd]])),
            );
      B.fb = store(e, emit6(e, crossF(B.v, B.hb)));
      e.boundary();
    }
  }

  /** accelerations a and composite forces F at qdd (an array name; 0: none), and tau per body */
  forces(qdd: string | 0): { a: Vec[]; F: Vec[]; tau: Sym[] } {
    const { e, bodies, tree } = this;
    const g = tree.gravity,
      a0: Vec = [0, 0, 0, -g[0], -g[1], -g[2]];
    const a: Vec[] = [],
      f: Vec[] = [];
    for (let b = 0; b < this.N; b++) {
      const B = bodies[b],
        p = tree.parent[b],
        acc = qdd === 0 ? 0 : `${qdd}[${tree.coord[b]}]`;
      a.push(store(e, emit6(e, plus([1, terms(p < 0 ? a0 : a[p])], [1, terms(B.cb)], [1, B.S.map((s) => [[s, acc]])]))));
      f.push(store(e, emit6(e, plus([1, times(B.I, a[b])], [1, terms(B.fb)]))));
      e.boundary();
    }
    const F: Vec[] = [];
    for (let b = this.N - 1; b >= 0; b--) {
      const ch = this.children[b];
      F[b] = ch.length === 0 ? f[b] : store(e, emit6(e, plus([1, terms(f[b])], ...ch.map((c): [number, Terms6] => [1, terms(F[c])]))));
      e.boundary();
    }
    const tau = bodies.map((B, b) => {
      const k = tree.coord[b];
      return e.store(e.sum([...dotTerms(B.S, F[b]), [tree.c[b], `q[${k}]`], [-tree.c[b] * tree.q0[b]], [tree.d[b], `qd[${k}]`]]));
    });
    return { a, F, tau };
  }

  /**
   * dtau/dq and dtau/dqd at the accelerations and forces of forces(qdd), in
   * body order, keyed (i, j) for i, j on one path: the pairs of
   * tree-derivatives.ts' header, kb's k and b on the diagonal
   */
  derivatives(at: { a: Vec[]; F: Vec[] }): { dq: Map<number, Sym>; dqd: Map<number, Sym> } {
    const { e, bodies, tree } = this;
    const g = tree.gravity,
      a0: Vec = [0, 0, 0, -g[0], -g[1], -g[2]];
    const al: Vec[] = [],
      D: Vec[] = [];
    for (let b = 0; b < this.N; b++) {
      const B = bodies[b],
        p = tree.parent[b];
      // alpha = S x a_p - beta x v_p; D = S x* F - Ic alpha - B beta - beta x* hc
      al.push(store(e, emit6(e, p < 0 ? crossM(B.S, a0) : plus([1, crossM(B.S, at.a[p])], [-1, crossM(B.be, bodies[p].v)]))));
      D.push(store(e, emit6(e, plus([1, crossF(B.S, at.F[b])], [-1, times(B.Ic, al[b])], [-1, times(B.Bc, B.be)], [-1, crossF(B.be, B.hc)]))));
      e.boundary();
    }
    const dq = new Map<number, Sym>(),
      dqd = new Map<number, Sym>(),
      n = this.N;
    for (let i = 0; i < n; i++) {
      const { P, Q } = bodies[i],
        k = tree.coord[i];
      for (const j of [i, ...this.anc[i]]) {
        const Bj = bodies[j];
        const diag = (c: number, slot: number): Term[] => (i === j ? [[c], [`kb[${slot}]`]] : []);
        dq.set(
          this.key(i, j),
          e.store(e.sum([...dotTerms(P, al[j]).map((t) => [-1, ...t]), ...dotTerms(Q, Bj.be).map((t) => [-1, ...t]), ...diag(tree.c[i], k)])),
        );
        dqd.set(this.key(i, j), e.store(e.sum([...dotTerms(Q, Bj.S), ...dotTerms(P, Bj.be2), ...diag(tree.d[i], n + k)])));
        if (j !== i) {
          dq.set(this.key(j, i), e.store(e.sum(dotTerms(Bj.S, D[i]))));
          dqd.set(this.key(j, i), e.store(e.sum(dotTerms(Bj.S, bodies[i].E))));
        }
      }
      e.boundary();
    }
    return { dq, dqd };
  }
}
