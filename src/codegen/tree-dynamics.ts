// Derivatives of a tree's forward and inverse dynamics by the analytical
// recursions (tree-derivatives.ts) in place of the generated tangents:
// (inverse dynamics of a compiled tree) => tau, dtau/d(q, qd), M, and
// qdd = FD(q, qd, tau) with dqdd/d(q, qd, tau) by Carpentier & Mansard's
// identities (dynamics-derivatives.ts' header), M^-1 from its L^T L factor.
//
// The tree (rigid-tree.ts) holds the bodies, joints, springs and dampers of
// the mechanism; what else acts on the coordinates (an MJCF position servo,
// force = kp ctrl - kp q - kv qd) is found from the model's own code: the
// residue r = ID_model - ID_tree at q, qd must be, per joint, affine in its
// own q and qd, r_i = r0_i + k_i q_i + b_i qd_i. k, b, r0 are measured once
// (unit steps: r is affine, so the differences are exact to rounding) and
// checked at three seeded points (q, qd and qdd at once, which checks M
// too); at every call the model's own code gives tau (or h = ID(q, qd, 0)),
// and its residue must still be r0 + k q + b qd — inputs changed since (a
// servo's ctrl moves r0) make it measure again; a model that fails either
// check (a controller coupling joints, a force that is not affine, inputs
// that change at every call) keeps the generated tangents, with the reason
// (`TreeDynamics.make`).
//
// Glossary: n coordinates, matrices n x n row-major in coordinate order;
// T the tree's values, `own` the model's code's.
import type { ForwardDerivatives, InverseDerivatives } from './dynamics-derivatives.ts';
import type { InverseDynamics } from './inverse.ts';
import { ltlSolveColumns } from './dense-cholesky.ts';
import type { RigidTree } from './rigid-tree.ts';
import { TreeDerivatives } from './tree-derivatives.ts';

/** how often the residue may be measured again (inputs changed) before the tangent code takes over */
const REMEASURES = 3;

export class TreeDynamics {
  readonly n: number;
  private readonly td: TreeDerivatives;
  private readonly k: Float64Array;
  private readonly b: Float64Array;
  private readonly r0: Float64Array;
  private readonly own: Float64Array;
  private readonly T: Float64Array;
  private readonly zeros: Float64Array;
  private readonly M: Float64Array;
  /** scratch: the tree's dtau/dq, dtau/dqd, and the n x 3n right-hand sides of forward() */
  private readonly dq: Float64Array;
  private readonly dqd: Float64Array;
  private readonly W: Float64Array;
  private remeasured = 0;
  /** why the analytical path stopped (set when it falls back for good) */
  stopped: string | undefined;

  private constructor(
    private readonly dynamics: InverseDynamics,
    tree: RigidTree,
    private readonly factor: (M: Float64Array) => Float64Array,
  ) {
    const n = (this.n = tree.N);
    this.td = new TreeDerivatives(tree);
    [this.k, this.b, this.r0, this.own, this.T, this.zeros] = [0, 0, 0, 0, 0, 0].map(() => new Float64Array(n));
    this.M = new Float64Array(n * n);
    [this.dq, this.dqd] = [0, 0].map(() => new Float64Array(n * n));
    this.W = new Float64Array(3 * n * n);
  }

  /** the analytical derivatives of this inverse model, or why it keeps the generated tangents */
  static make(dynamics: InverseDynamics, read: () => RigidTree | string, factor: (M: Float64Array) => Float64Array): TreeDynamics | string {
    if (dynamics.nq !== dynamics.n) return 'free and ball joints keep the generated tangents';
    const tree = read();
    if (typeof tree === 'string') return tree;
    const made = new TreeDynamics(dynamics, tree, factor);
    const why = made.measure(0);
    return why ?? made;
  }

  /** ID_model - ID_tree at (q, qd, qdd) into r (tree's kinematics left at q, qd; M into this.M) */
  private residue(t: number, q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, r: Float64Array): Float64Array {
    this.td.kinematics(q, qd, this.M);
    this.td.dynamics(q, qd, qdd, this.T);
    this.dynamics.evaluate(t, q, qd, qdd, this.own);
    for (let i = 0; i < this.n; i++) r[i] = this.own[i] - this.T[i];
    return r;
  }

  /** k, b, r0 measured and checked at seeded points; a reason when the residue is not per-joint affine */
  private measure(t: number): string | undefined {
    const { n, k, b, r0 } = this;
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
      if (!this.holds(t, p, pd, pdd)) return 'a force outside the tree is not affine in its joint’s q and qd (or the tree is not the model’s)';
    }
    return undefined;
  }

  /** the model's residue at (q, qd, qdd) is r0 + k q + b qd (this.own: the model's tau there) */
  private holds(t: number, q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>): boolean {
    const { n, T, own } = this;
    this.residue(t, q, qd, qdd, T);
    let scale = 1;
    for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(own[i]));
    for (let i = 0; i < n; i++) {
      if (!(Math.abs(T[i] - (this.r0[i] + this.k[i] * q[i] + this.b[i] * qd[i])) <= 1e-9 * scale)) return false;
    }
    // T was overwritten by the residue: the tree's tau again
    for (let i = 0; i < n; i++) T[i] = own[i] - T[i];
    return true;
  }

  /** the residue checked at the call's point (measured again if the inputs moved it); false: use the tangents */
  private checked(t: number, q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>): boolean {
    if (this.stopped) return false;
    if (this.holds(t, q, qd, qdd)) return true;
    const why = ++this.remeasured > REMEASURES ? `the forces outside the tree changed ${REMEASURES} times between calls` : this.measure(t);
    if (why) {
      this.stopped = why;
      return false;
    }
    return this.holds(t, q, qd, qdd);
  }

  /** tau, dtau/dq, dtau/dqd, M at (q, qd, qdd); undefined when the tangents must answer (stopped says why) */
  inverse(q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, t: number, out?: InverseDerivatives): InverseDerivatives | undefined {
    if (!this.checked(t, q, qd, qdd)) return undefined;
    const n = this.n;
    const o = out ?? { tau: new Float64Array(n), dtau_dq: new Float64Array(n * n), dtau_dqd: new Float64Array(n * n), dtau_dqdd: new Float64Array(n * n) };
    o.dtau_dq.fill(0);
    o.dtau_dqd.fill(0);
    this.jacobians(o.dtau_dq, o.dtau_dqd);
    o.tau.set(this.own);
    o.dtau_dqdd.set(this.M);
    return o;
  }

  /** the tree's dtau/dq, dtau/dqd at its last point, with the residue's k and b on the diagonal */
  private jacobians(dq: Float64Array, dqd: Float64Array): void {
    this.td.derivatives(dq, dqd);
    for (let i = 0, n = this.n; i < n; i++) {
      dq[i * n + i] += this.k[i];
      dqd[i * n + i] += this.b[i];
    }
  }

  /** qdd = M^-1 (tau - h) and dqdd/d(q, qd, tau); undefined when the tangents must answer */
  forward(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, t: number, out?: ForwardDerivatives): ForwardDerivatives | undefined {
    const { n } = this;
    if (!this.checked(t, q, qd, this.zeros)) return undefined;
    const L = this.factor(this.M);
    const qdd = out?.qdd ?? new Float64Array(n);
    for (let i = 0; i < n; i++) qdd[i] = tau[i] - this.own[i];
    ltlSolveColumns(n, L, qdd, 1);
    // the tree at qdd (its kinematics and M stay): alpha and D move with the accelerations
    this.td.dynamics(q, qd, qdd, this.T);
    const { dq, dqd, W } = this;
    dq.fill(0);
    dqd.fill(0);
    this.jacobians(dq, dqd);
    // W = [-dtau/dq, -dtau/dqd, 1] (n x 3n), solved with M in one pass: M^-1 W = [dqdd/dq, dqdd/dqd, M^-1]
    const m = 3 * n;
    W.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        W[i * m + j] = -dq[i * n + j];
        W[i * m + n + j] = -dqd[i * n + j];
      }
      W[i * m + 2 * n + i] = 1;
    }
    ltlSolveColumns(n, L, W, m);
    const a = out?.dqdd_dq ?? new Float64Array(n * n),
      b = out?.dqdd_dqd ?? new Float64Array(n * n),
      c = out?.dqdd_dtau ?? new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        a[i * n + j] = W[i * m + j];
        b[i * n + j] = W[i * m + n + j];
        c[i * n + j] = W[i * m + 2 * n + j];
      }
    return { qdd, dqdd_dq: a, dqdd_dqd: b, dqdd_dtau: c };
  }

  private names(i: number, j: number): string {
    const c = this.dynamics.model.coordinates;
    return `${c[i].tau} and ${c[j].q}`;
  }
}
