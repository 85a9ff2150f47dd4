// Derivatives of a tree's forward and inverse dynamics, and its mass matrix,
// by the analytical recursions generated as code for the tree
// (tree-generated.ts) in place of the generated tangents: (inverse dynamics
// of a compiled tree) => tau, dtau/d(q, qd), M, and qdd = FD(q, qd, tau)
// with dqdd/d(q, qd, tau) by Carpentier & Mansard's identities
// (dynamics-derivatives.ts' header), M^-1 from the tree's sparse
// L^T D L factor.
//
// The tree (rigid-tree.ts) holds the bodies, joints, springs and dampers of
// the mechanism; what else acts on the coordinates (an MJCF position servo,
// force = kp ctrl - kp q - kv qd) is found from the model's own code: the
// residue r = ID_model - ID_tree at q, qd must be, per joint, affine in its
// own q and qd, r_i = r0_i + k_i q_i + b_i qd_i. k, b, r0 are measured once
// (unit steps: r is affine, so the differences are exact to rounding) and
// checked at three seeded points (q, qd and qdd at once, which checks M
// too); at every call the model's own code gives h = ID(q, qd, 0) (or tau),
// and the tree's tau at the solved qdd plus r0 + k q + b qd must be the
// caller's tau (the same check as h_tree + r = h_model, without a second
// pass of the tree at qdd = 0) — inputs changed since (a servo's ctrl moves
// r0) make it measure again; a model that fails either check (a controller
// coupling joints, a force that is not affine, inputs that change at every
// call) keeps the generated tangents, with the reason (`TreeDynamics.make`).
// When the forces outside the tree are proven per-joint affine in (q, qd)
// from the model's equations (tree-proof.ts), the measurement holds at
// every point until a parameter or an input changes: a call then runs no
// model code, h comes from the tree's own pass at qdd = 0 (bias) plus r0 +
// k q + b qd, and only the inputs and parameters are compared with those
// measured with (`checked` says why a model keeps the per-call check).
// The mass matrix alone (massMatrix) needs no call of the model: the tree's
// M is the model's while the model's parameters are those it was measured
// with (checked per call; else measured again).
//
// Glossary: n coordinates, matrices n x n row-major in coordinate order;
// T the tree's values, `own` the model's code's.
import type { ForwardDerivatives, InverseDerivatives } from './dynamics-derivatives.ts';
import type { InverseDynamics } from './inverse.ts';
import type { RigidTree } from './rigid-tree.ts';
import { type TreeCodeReport, type TreeFunctions, treeFunctions, treeMassFunction } from './tree-generated.ts';
import { PRINTED_OPERATIONS, handFunctions, handMassFunction, printedOperations } from './tree-hand.ts';
import { coordinateSlots } from './coordinate-slots.ts';

/** how often the residue may be measured again (inputs changed) before the tangent code takes over */
const REMEASURES = 3;

export class TreeDynamics {
  readonly n: number;
  private readonly f: TreeFunctions;
  /** the forces outside the tree: k then b per coordinate (the generated pairs read them), r0 */
  private readonly kb: Float64Array;
  private readonly r0: Float64Array;
  private readonly own: Float64Array;
  private readonly T: Float64Array;
  private readonly zeros: Float64Array;
  private readonly w: Float64Array;
  /** the model's parameters when the forces were measured */
  private readonly p: Float64Array;
  private mass: { fn: (q: ArrayLike<number>, w: Float64Array, M: Float64Array) => void; w: Float64Array; report: TreeCodeReport } | undefined;
  private remeasured = 0;
  /** the recursions generated as code (else, for a tree too large to print, run as loops: tree-hand.ts) */
  readonly printed: boolean;
  /** why the analytical path stopped (set when it falls back for good) */
  stopped: string | undefined;
  /** why each call runs the model's own code to check the outside forces (undefined: proven affine, tree-proof.ts) */
  readonly checked: string | undefined;
  /** the inputs when the forces were measured, and which inputs count (not the inverse code's qdd slots) */
  private readonly u: Float64Array;
  private readonly inputs: Int32Array;

  private constructor(
    private readonly dynamics: InverseDynamics,
    private readonly tree: RigidTree,
    private readonly notPositive: (coordinate: number) => Error,
  ) {
    const n = (this.n = tree.N);
    this.printed = printedOperations(tree) <= PRINTED_OPERATIONS;
    this.f = this.printed ? treeFunctions(tree) : handFunctions(tree);
    [this.r0, this.own, this.T, this.zeros] = [0, 0, 0, 0].map(() => new Float64Array(n));
    this.kb = new Float64Array(2 * n);
    this.w = new Float64Array(this.f.slots);
    this.p = Float64Array.from(dynamics.state.p);
    this.u = Float64Array.from(dynamics.state.u);
    const qdd = new Set(coordinateSlots(dynamics.model).qddAt);
    this.inputs = Int32Array.from([...this.u.keys()].filter((k) => !qdd.has(k)));
    this.checked = tree.outsideForces;
  }

  /** proven, and the parameters and inputs are those the forces were measured with: no model code need run */
  private proven(): boolean {
    if (this.checked !== undefined) return false;
    const { p, u } = this.dynamics.state;
    for (let i = 0; i < p.length; i++) if (p[i] !== this.p[i]) return false;
    for (const k of this.inputs) if (u[k] !== this.u[k]) return false;
    return true;
  }

  /** the model's h (into own) from the tree's: h_tree + r0 + k q + b qd, after point() */
  private bias(q: ArrayLike<number>, qd: ArrayLike<number>): void {
    const { n, own, r0, kb } = this;
    this.f.bias(q, qd, this.w, own);
    for (let i = 0; i < n; i++) own[i] += r0[i] + kb[i] * q[i] + kb[n + i] * qd[i];
  }

  /** the analytical derivatives of this inverse model, or why it keeps the generated tangents; notPositive: the error of a mass matrix that is not positive definite at coordinate k */
  static make(dynamics: InverseDynamics, read: () => RigidTree | string, notPositive: (coordinate: number) => Error): TreeDynamics | string {
    if (dynamics.nq !== dynamics.n) return 'free and ball joints keep the generated tangents';
    const tree = read();
    if (typeof tree === 'string') return tree;
    const made = new TreeDynamics(dynamics, tree, notPositive);
    const why = made.measure(0);
    return why ?? made;
  }

  /** what making the generated code cost: the derivatives' functions, and the mass matrix's once made */
  get report(): { printed: boolean; derivatives: TreeCodeReport; mass?: TreeCodeReport } {
    return { printed: this.printed, derivatives: this.f.report, mass: this.mass?.report };
  }

  /** the tree at (q, qd, qdd): its tau into T (the workspace then holds the pairs there) */
  private treeAt(q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>): Float64Array {
    const { f, w, T } = this;
    f.point(q, qd, w);
    f.pairs(q, qd, qdd, this.kb, w, T);
    return T;
  }

  /** ID_model - ID_tree at (q, qd, qdd) into r (the tree's workspace left at the point) */
  private residue(t: number, q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, r: Float64Array): Float64Array {
    const T = this.treeAt(q, qd, qdd);
    this.dynamics.evaluate(t, q, qd, qdd, this.own);
    for (let i = 0; i < this.n; i++) r[i] = this.own[i] - T[i];
    return r;
  }

  /** k, b, r0 measured and checked at seeded points; a reason when the residue is not per-joint affine */
  private measure(t: number): string | undefined {
    const { n, r0 } = this,
      k = this.kb.subarray(0, n),
      b = this.kb.subarray(n);
    this.p.set(this.dynamics.state.p);
    this.u.set(this.dynamics.state.u);
    let seed = 33;
    // a fixed Park-Miller sequence: the same points at every measurement
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647,
      point = () => Float64Array.from({ length: n }, () => 2 * rand() - 1);
    const q = point(),
      qd = point(),
      base = this.residue(t, q, qd, this.zeros, new Float64Array(n)),
      r = new Float64Array(n);
    const tol = (v: ArrayLike<number>) => 1e-9 * (1 + Math.max(...Array.from(v, Math.abs), ...Array.from(this.own, Math.abs)));
    for (const [x, slope] of [
      [q, k],
      [qd, b],
    ] as const) {
      for (let j = 0; j < n; j++) {
        x[j] += 1;
        this.residue(t, q, qd, this.zeros, r);
        x[j] -= 1;
        for (let i = 0; i < n; i++) {
          const d = r[i] - base[i];
          if (i === j) slope[i] = d;
          else if (!(Math.abs(d) <= tol(base))) return `a force outside the tree couples ${this.names(i, j)}`;
        }
      }
    }
    for (let i = 0; i < n; i++) r0[i] = base[i] - k[i] * q[i] - b[i] * qd[i];
    for (let s = 0; s < 3; s++) {
      const [p, pd, pdd] = [point(), point(), point()];
      this.treeAt(p, pd, pdd);
      this.dynamics.evaluate(t, p, pd, pdd, this.own);
      if (!this.agrees(p, pd, this.own)) return 'a force outside the tree is not affine in its joint’s q and qd (or the tree is not the model’s)';
    }
    return undefined;
  }

  /** the tree's tau (T, at the workspace's point) plus r0 + k q + b qd is the model's tau there, to 1e-9 of the terms (`terms`: the size of M qdd) */
  private agrees(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, terms = 0): boolean {
    const { n, T, kb, r0 } = this;
    let scale = Math.max(1, terms);
    for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(tau[i]), Math.abs(this.own[i]));
    for (let i = 0; i < n; i++) if (!(Math.abs(T[i] + r0[i] + kb[i] * q[i] + kb[n + i] * qd[i] - tau[i]) <= 1e-9 * scale)) return false;
    return true;
  }

  /** measured again after the check failed (inputs or parameters changed); false: stopped, use the tangents */
  private remeasure(t: number): boolean {
    const why = ++this.remeasured > REMEASURES ? `the forces outside the tree changed ${REMEASURES} times between calls` : this.measure(t);
    if (why) this.stopped = why;
    return !why;
  }

  /** tau, dtau/dq, dtau/dqd, M at (q, qd, qdd); undefined when the tangents must answer (stopped says why) */
  inverse(q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, t: number, out?: InverseDerivatives): InverseDerivatives | undefined {
    if (this.stopped || !finite(q, qd, qdd)) return undefined;
    const T = this.treeAt(q, qd, qdd);
    if (this.proven()) {
      const { n, r0, kb } = this;
      for (let i = 0; i < n; i++) this.own[i] = T[i] + r0[i] + kb[i] * q[i] + kb[n + i] * qd[i];
    } else this.dynamics.evaluate(t, q, qd, qdd, this.own);
    if (!this.agrees(q, qd, this.own)) {
      if (!this.remeasure(t)) return undefined;
      return this.inverse(q, qd, qdd, t, out);
    }
    const n = this.n;
    const o = out ?? { tau: new Float64Array(n), dtau_dq: new Float64Array(n * n), dtau_dqd: new Float64Array(n * n), dtau_dqdd: new Float64Array(n * n) };
    this.f.inverseOut(this.w, o.dtau_dq, o.dtau_dqd);
    this.f.massOut(this.w, o.dtau_dqdd);
    o.tau.set(this.own);
    return o;
  }

  /** qdd = M^-1 (tau - h) and dqdd/d(q, qd, tau); undefined when the tangents must answer */
  forward(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, t: number, out?: ForwardDerivatives): ForwardDerivatives | undefined {
    if (this.stopped || !finite(q, qd, tau)) return undefined;
    const { n, f, w, own } = this;
    f.point(q, qd, w);
    if (this.proven()) this.bias(q, qd);
    else this.dynamics.evaluate(t, q, qd, this.zeros, own);
    f.factor(w);
    const bad = f.pivot(w);
    if (bad >= 0) throw this.notPositive(bad);
    const qdd = out?.qdd ?? new Float64Array(n);
    for (let i = 0; i < n; i++) qdd[i] = tau[i] - own[i];
    f.solve(w, qdd);
    f.pairs(q, qd, qdd, this.kb, w, this.T);
    // the model's h = the tree's + r0 + k q + b qd, checked as tau = T(qdd) + r0 + k q + b qd;
    // T(qdd) rounds like M qdd, which an ill-conditioned M makes much larger than tau
    let qddMax = 0;
    for (let i = 0; i < n; i++) qddMax = Math.max(qddMax, Math.abs(qdd[i]));
    if (!this.agrees(q, qd, tau, f.massScale(w) * qddMax)) {
      if (!this.remeasure(t)) return undefined;
      return this.forward(q, qd, tau, t, out);
    }
    const a = out?.dqdd_dq ?? new Float64Array(n * n),
      b = out?.dqdd_dqd ?? new Float64Array(n * n),
      c = out?.dqdd_dtau ?? new Float64Array(n * n);
    f.forwardOut(w, a, b, c);
    // the caller's out itself, as inverse() returns its out: no object made per call
    return out ?? { qdd, dqdd_dq: a, dqdd_dqd: b, dqdd_dtau: c };
  }

  /**
   * M(q) by the generated composite-rigid-body code (made on first use),
   * without a call of the model; undefined when the tangents must answer
   */
  massMatrix(q: ArrayLike<number>, out: Float64Array, t: number): Float64Array | undefined {
    if (this.stopped || !finite(q, q, q)) return undefined;
    const p = this.dynamics.state.p;
    for (let i = 0; i < p.length; i++) if (p[i] !== this.p[i] && !this.remeasure(t)) return undefined;
    const mass = (this.mass ??= this.massFunction());
    mass.fn(q, mass.w, out);
    return out;
  }

  /** the mass matrix's function: generated, or the loops for a tree too large to print */
  private massFunction(): NonNullable<TreeDynamics['mass']> {
    const t0 = performance.now(),
      m = this.printed ? treeMassFunction(this.tree) : handMassFunction(this.tree);
    const report = 'report' in m ? m.report : { ms: performance.now() - t0, chars: 0, lines: 0, ops: { mul: 0, add: 0, div: 0, fn: 0 } };
    return { fn: m.fn, w: new Float64Array(m.slots), report };
  }

  private names(i: number, j: number): string {
    const c = this.dynamics.model.coordinates;
    return `${c[i].tau} and ${c[j].q}`;
  }
}

/** every entry finite (else the tangents' path answers, with its typed error naming the entry); three arguments, no array made per call */
function finite(a: ArrayLike<number>, b: ArrayLike<number>, c: ArrayLike<number>): boolean {
  return allFinite(a) && allFinite(b) && allFinite(c);
}

function allFinite(x: ArrayLike<number>): boolean {
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return false;
  return true;
}
