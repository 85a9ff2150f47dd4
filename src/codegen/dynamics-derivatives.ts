// Exact derivatives of a tree's dynamics from the generated tangents of its
// inverse dynamics (inverse-tangents.ts), by Carpentier & Mansard (RSS 2018,
// "Analytical derivatives of rigid body dynamics algorithms", eq. 7): with
// ID(q, qd, qdd) = tau and M = dID/dqdd, at qdd = FD(q, qd, tau)
//   dqdd/dq = -M^-1 dID/dq,   dqdd/dqd = -M^-1 dID/dqd,   dqdd/dtau = M^-1,
// and along one direction (dq, dqd, dtau)
//   dqdd = M^-1 (dtau - ID'(dq, dqd, 0)),
// ID' the generated O(n) tangent at (q, qd, qdd). qdd itself is
// M^-1 (tau - h), h = ID(q, qd, 0) from the model's own inverse code.
//
// With a kinematic loop the same identities hold for the loop's reduced
// equations in the state joints' coordinates (the independent ones): the
// forward code closes the loop and ID(q, qd, FD(q, qd, tau)) = tau still,
// so differentiating that identity gives eq. 7 again, M the reduced mass
// matrix (symmetric positive definite for ideal joints). The inverse code's
// tangents go through the loop's blocks implicitly (plan-tangents.ts): at
// each point the model's own inverse code runs first, and its solved
// tearing variables and the blocks' J^-1 enter the generated code
// (torn-point.ts).
//
// A free or ball joint's quaternion: q holds its four numbers (n_q
// positions), and d/dq is along q (+) delta e_j, Q (x) exp(delta e_k / 2)
// for its rotation about frame_b's axis k (inverse-tangents.ts), so every
// Jacobian stays n x n, on the tangent space.
//
// Glossary: n coordinates; matrices n x n row-major; L the factor of M = L^T L
// (dense-cholesky.ts: a tree's M factors without fill-in).
import { SimulationError } from '../errors.ts';
import type { InverseDynamics } from './inverse.ts';
import type { InverseTangents } from './inverse-tangents.ts';
import type { DerivedCode } from './derived.ts';
import { ltlFactor, ltlSolveColumns } from './dense-cholesky.ts';
import { TreeDynamics } from './tree-dynamics.ts';

/** qdd = FD(q, qd, tau) and its Jacobians (n x n, row-major) */
export interface ForwardDerivatives {
  /** qdd = FD(q, qd, tau) at the point */
  qdd: Float64Array;
  /** dqdd/dq, n x n row-major */
  dqdd_dq: Float64Array;
  /** dqdd/dqd, n x n row-major */
  dqdd_dqd: Float64Array;
  /** dqdd/dtau = M^-1, n x n row-major */
  dqdd_dtau: Float64Array;
  /** dqdd/dp, n x P, when parameters were asked for (DerivativeOptions) */
  dqdd_dp?: Float64Array;
}

/** tau = ID(q, qd, qdd) and its Jacobians (n x n, row-major); dtau_dqdd is M */
export interface InverseDerivatives {
  /** tau = ID(q, qd, qdd) at the point */
  tau: Float64Array;
  /** dtau/dq, n x n row-major */
  dtau_dq: Float64Array;
  /** dtau/dqd, n x n row-major */
  dtau_dqd: Float64Array;
  /** dtau/dqdd = M, n x n row-major */
  dtau_dqdd: Float64Array;
  /** dtau/dp, n x P, when parameters were asked for (DerivativeOptions) */
  dtau_dp?: Float64Array;
}

export class DynamicsDerivatives {
  readonly n: number;
  private readonly x: Float64Array;
  private readonly u: Float64Array;
  private readonly L: Float64Array;
  private readonly h: Float64Array;
  /** ID at the point, by the model's own code: what a loop's tangent code must reproduce */
  private readonly tau: Float64Array;
  private readonly zeros: Float64Array;
  /** u[dir]: the first entry of a direction given at run time */
  private readonly dir: number;

  constructor(
    readonly dynamics: InverseDynamics,
    readonly code: InverseTangents,
    /** false: the generated tangents only (the analytical recursions' oracle in the tests) */
    analytical = true,
  ) {
    if (!analytical) this.tree = 'the generated tangents asked for';
    this.n = code.n;
    this.x = dynamics.model.x0();
    this.dir = dynamics.state.u.length + code.loopInputs;
    this.u = new Float64Array(this.dir + 3 * this.n);
    this.L = new Float64Array(this.n * this.n);
    this.h = new Float64Array(this.n);
    this.tau = new Float64Array(this.n);
    this.zeros = new Float64Array(this.n);
  }

  /**
   * the point (q, qd, qdd) and a direction (dq, dqd, dqdd: the jvp code's
   * extra inputs) written, then `code` run; with a loop the model's own
   * inverse code solves the point first (its z and J^-1 are inputs too)
   */
  private run(
    code: DerivedCode,
    t: number,
    q: ArrayLike<number>,
    qd: ArrayLike<number> | undefined,
    qdd: ArrayLike<number> | undefined,
    direction?: ArrayLike<number>[],
  ): void {
    const { x, u, n, dir } = this,
      s = this.code.slots,
      state = this.dynamics.state;
    if (this.code.loopInputs > 0) {
      const fallbacks = state.fallbackEvaluations();
      this.dynamics.evaluate(t, q, qd ?? this.zeros, qdd ?? this.zeros, this.tau);
      if (state.fallbackEvaluations() !== fallbacks) throw this.fellBack();
    }
    u.set(state.u);
    for (let i = 0; i < s.positionAt.length; i++) x[s.positionAt[i]] = q[i];
    for (let i = 0; i < n; i++) {
      x[s.qdAt[i]] = qd ? qd[i] : 0;
      u[s.qddAt[i]] = qdd ? qdd[i] : 0;
    }
    if (this.code.loopInputs > 0) this.code.loops.fill(t, x, u, state.p, state.w);
    if (direction)
      direction.forEach((d, k) => {
        for (let i = 0; i < n; i++) u[dir + k * n + i] = d[i];
      });
    code.run(t, x, u, state.p);
  }

  /** a relaxed loop's pivot was not trusted at the point: its derivatives would be the relaxed code's, inaccurate there */
  private fellBack(): SimulationError {
    return new SimulationError(
      `the derivatives of ${this.dynamics.model.report.model}'s dynamics: a relaxed loop's pivot is near zero at this point (its torn fallback solved it)`,
      {
        variables: this.dynamics.model.coordinates.map((c) => c.q),
        hint: 'compile the model with { mode: "torn" } for derivatives at this point',
      },
    );
  }

  /** with a loop: the tangent code's tau is the model's own (else a relaxed pivot fell back there and the code's primal differs) */
  private same(tau: Float64Array): Float64Array {
    if (this.code.loopInputs === 0) return tau;
    for (let i = 0; i < this.n; i++) {
      if (!(Math.abs(tau[i] - this.tau[i]) <= 1e-9 * (1 + Math.abs(this.tau[i])))) {
        const name = this.dynamics.model.coordinates[i].tau;
        throw new SimulationError(
          `the derivatives of ${this.dynamics.model.report.model}'s dynamics: their code computes ${name} = ${tau[i]} here, the compiled model ${this.tau[i]}`,
          {
            variables: [name],
            hint: 'the relaxed loop is near a singular pivot here (its torn fallback ran): compile the model with { mode: "torn" } for derivatives at this point',
          },
        );
      }
    }
    return tau;
  }

  /** outputs from .. from + out.length of the code last run into out, checked finite (`what` names entry k) */
  private read(code: DerivedCode, from: number, out: Float64Array, what: (k: number) => string): Float64Array {
    const { w, slots } = code;
    for (let k = 0; k < out.length; k++) out[k] = w[slots[from + k]];
    for (let k = 0; k < out.length; k++) if (!Number.isFinite(out[k])) throw notFinite(this.dynamics, what(k), out[k]);
    return out;
  }

  /** M(q) into out (n x n, row-major), from its generated lower triangle */
  massMatrix(q: ArrayLike<number>, out: Float64Array, t = 0): Float64Array {
    const tree = this.analytical()?.massMatrix(q, out, t);
    if (tree) return tree;
    const code = this.code.mass;
    this.run(code, t, q, undefined, undefined);
    return this.lowerTriangle(code, out);
  }

  /** M from the lower triangle the code just run computed first, mirrored, into out */
  private lowerTriangle(code: DerivedCode, out: Float64Array): Float64Array {
    const { n } = this,
      w = code.w,
      slots = code.slots;
    for (let i = 0, k = 0; i < n; i++) {
      for (let j = 0; j <= i; j++, k++) {
        const v = w[slots[k]];
        if (!Number.isFinite(v)) throw notFinite(this.dynamics, `M[${i}][${j}]`, v);
        out[i * n + j] = out[j * n + i] = v;
      }
    }
    return out;
  }

  private tree: TreeDynamics | string | undefined = undefined;

  /**
   * The analytical recursions of a tree (tree-dynamics.ts), made on first
   * use; undefined where they do not cover the model (a loop, a free or ball
   * joint, forces they cannot see: `method` says why)
   */
  private analytical(): TreeDynamics | undefined {
    if (this.tree === undefined)
      this.tree =
        this.code.loopInputs > 0
          ? 'a kinematic loop'
          : TreeDynamics.make(
              this.dynamics,
              () => this.code.rigidTree(),
              (k) => this.notPositive(k),
            );
    return typeof this.tree === 'string' || this.tree.stopped ? undefined : this.tree;
  }

  /** the analytical path's generated code (what making it cost, its size), when it runs */
  get analyticalCode(): TreeDynamics['report'] | undefined {
    return this.analytical()?.report;
  }

  /**
   * how forward() and inverse() differentiate: 'analytical' (the forces
   * outside the tree proven affine: no model code runs per call),
   * 'analytical, checked per call: ' and why the proof failed, or
   * 'tangents: ' and why the recursions do not cover the model
   */
  get method(): string {
    this.analytical();
    const t = this.tree!;
    if (typeof t === 'string' || t.stopped) return `tangents: ${typeof t === 'string' ? t : t.stopped}`;
    return t.checked === undefined ? 'analytical' : `analytical, checked per call: ${t.checked}`;
  }

  /** M factored L^T L into L; a typed error when M is not positive definite */
  private checkFactor(M: Float64Array): Float64Array {
    const f = ltlFactor(this.n, M, this.L);
    if (typeof f === 'number') throw this.notPositive(f);
    return f;
  }

  /** the error of a mass matrix that is not positive definite at coordinate k's pivot */
  private notPositive(k: number): SimulationError {
    const c = this.dynamics.model.coordinates[k],
      name = c.quaternion ? c.qd : c.q;
    return new SimulationError(`the mass matrix of ${this.dynamics.model.report.model} is not positive definite at this q (pivot ${k}, coordinate ${name})`, {
      variables: [name],
      hint: 'a coordinate that moves no mass (a massless end link, a zero inertia about its axis), or two that move the same masses alike (a free joint on a massless root whose first joint turns about the same axis), have no acceleration to differentiate: give the link mass or inertia',
    });
  }

  /**
   * qdd = FD(q, qd, tau) and dqdd/d(q, qd, tau). One run of the massBias
   * code at (q, qd, 0) gives M and h (with a loop: after one solve of the
   * loop and one inversion of its blocks' J), then the Jacobians' code runs
   * at qdd on the same J^-1, the loops' z moved to qdd along their tangents
   */
  forward(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, t = 0, out?: ForwardDerivatives): ForwardDerivatives {
    const analytical = this.analytical()?.forward(q, qd, tau, t, out);
    if (analytical) return analytical;
    const f = this.forwardByTangents(q, qd, tau, t);
    return out ? copyInto(out, f) : f;
  }

  /** forward() by the generated tangents */
  private forwardByTangents(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, t: number): ForwardDerivatives {
    const { n } = this;
    const M = new Float64Array(n * n);
    const qdd = this.solveForward(q, qd, tau, t, M);
    const id = this.atAccelerations(q, qd, qdd, tau, t, M);
    const L = this.L;
    // -M^-1 dID/dq and -M^-1 dID/dqd; M^-1 from the identity
    for (const J of [id.dtau_dq, id.dtau_dqd]) for (let k = 0; k < J.length; k++) J[k] = -J[k];
    const dq = ltlSolveColumns(n, L, id.dtau_dq, n);
    const dqd = ltlSolveColumns(n, L, id.dtau_dqd, n);
    const eye = new Float64Array(n * n);
    for (let i = 0; i < n; i++) eye[i * n + i] = 1;
    return { qdd, dqdd_dq: dq, dqdd_dqd: dqd, dqdd_dtau: ltlSolveColumns(n, L, eye, n) };
  }

  /** M (into M, factored into L) and h from one run of the massBias code at (q, qd, 0); qdd = M^-1 (tau - h) */
  private solveForward(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, t: number, M: Float64Array): Float64Array {
    const { n } = this,
      { code } = this.code.massBias,
      names = this.dynamics.model.coordinates;
    this.run(code, t, q, qd, undefined);
    this.lowerTriangle(code, M);
    this.checkFactor(M);
    const h = this.same(this.read(code, (n * (n + 1)) / 2, this.h, (i) => names[i].tau));
    const qdd = new Float64Array(n);
    for (let i = 0; i < n; i++) qdd[i] = tau[i] - h[i];
    return ltlSolveColumns(n, this.L, qdd, 1);
  }

  /**
   * tau, dID/dq, dID/dqd at (q, qd, qdd = FD(tau)) right after solveForward:
   * with a loop whose z are affine in qdd, the massBias run's z moved along
   * their tangents and its J^-1 kept (no second solve); else a run of its own
   */
  private atAccelerations(
    q: ArrayLike<number>,
    qd: ArrayLike<number>,
    qdd: Float64Array,
    tau: ArrayLike<number>,
    t: number,
    M: Float64Array,
  ): InverseDerivatives {
    const mb = this.code.massBias;
    if (this.code.loopInputs === 0 || !mb.affine) return this.inverse(q, qd, qdd, t, M);
    const { n, u, x } = this,
      m = this.dynamics.state.u.length,
      w = mb.code.w,
      slots = mb.code.slots,
      from = (n * (n + 1)) / 2 + n;
    for (let k = 0; k < mb.zs; k++) {
      let dz = 0;
      for (let j = 0; j < n; j++) dz += w[slots[from + k * n + j]] * qdd[j];
      u[m + k] += dz;
    }
    for (let i = 0; i < n; i++) u[this.code.slots.qddAt[i]] = qdd[i];
    this.code.jacobian.run(t, x, u, this.dynamics.state.p);
    // the code's tau must be the drive itself: ID(q, qd, FD(q, qd, tau)) = tau
    for (let i = 0; i < n; i++) this.tau[i] = tau[i];
    return this.jacobianOutputs(M);
  }

  /** tau = ID(q, qd, qdd), dID/dq and dID/dqd (one generated function), and M */
  inverse(q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, t = 0, M?: Float64Array, out?: InverseDerivatives): InverseDerivatives {
    const analytical = M ? undefined : this.analytical()?.inverse(q, qd, qdd, t, out);
    if (analytical) return analytical;
    if (out) return copyInto(out, this.inverse(q, qd, qdd, t, M));
    this.run(this.code.jacobian, t, q, qd, qdd);
    if (M) return this.jacobianOutputs(M);
    // M on the same inputs (a loop's z and J^-1 at this point: M does not depend on qd, qdd), no second solve
    const mass = this.code.mass;
    mass.run(t, this.x, this.u, this.dynamics.state.p);
    return this.jacobianOutputs(this.lowerTriangle(mass, new Float64Array(this.n * this.n)));
  }

  /** the outputs of the Jacobians' code just run: tau, dID/dq, dID/dqd; and M */
  private jacobianOutputs(M: Float64Array): InverseDerivatives {
    const { n } = this,
      code = this.code.jacobian;
    const names = this.dynamics.model.coordinates;
    const by = (what: 'q' | 'qd') => (k: number) => `d(${names[(k / n) | 0].tau})/d(${names[k % n][what]})`;
    const tau = this.same(this.read(code, 0, new Float64Array(n), (i) => names[i].tau));
    const dq = this.read(code, n, new Float64Array(n * n), by('q'));
    const dqd = this.read(code, n + n * n, new Float64Array(n * n), by('qd'));
    return { tau, dtau_dq: dq, dtau_dqd: dqd, dtau_dqdd: M };
  }

  /** tau = ID(q, qd, qdd) and dID/dp (n x P, row-major) for the symbolic parameters at these indices of the plan's */
  inverseByParameters(
    q: ArrayLike<number>,
    qd: ArrayLike<number>,
    qdd: ArrayLike<number>,
    indices: readonly number[],
    t = 0,
  ): { tau: Float64Array; dtau_dp: Float64Array } {
    const { n } = this,
      code = this.code.parameters(indices),
      P = indices.length;
    this.run(code, t, q, qd, qdd);
    const names = this.dynamics.model.coordinates,
      p = this.dynamics.model.generated.layout.parameters;
    const tau = this.same(this.read(code, 0, new Float64Array(n), (i) => names[i].tau));
    const dtau_dp = this.read(code, n, new Float64Array(n * P), (k) => `d(${names[(k / P) | 0].tau})/d(${p[indices[k % P]]})`);
    return { tau, dtau_dp };
  }

  /** qdd = FD(q, qd, tau) and dqdd/dp = -M^-1 dID/dp at that qdd (eq. 7 with p in place of q; n x P, row-major) */
  forwardByParameters(
    q: ArrayLike<number>,
    qd: ArrayLike<number>,
    tau: ArrayLike<number>,
    indices: readonly number[],
    t = 0,
  ): { qdd: Float64Array; dqdd_dp: Float64Array } {
    const { n } = this;
    const qdd = this.solveForward(q, qd, tau, t, new Float64Array(n * n));
    const { dtau_dp } = this.inverseByParameters(q, qd, qdd, indices, t);
    for (let k = 0; k < dtau_dp.length; k++) dtau_dp[k] = -dtau_dp[k];
    return { qdd, dqdd_dp: ltlSolveColumns(n, this.L, dtau_dp, indices.length) };
  }

  /** tau = ID(q, qd, qdd) and its directional derivative along (dq, dqd, dqdd): O(n) */
  inverseTangent(
    q: ArrayLike<number>,
    qd: ArrayLike<number>,
    qdd: ArrayLike<number>,
    dq: ArrayLike<number>,
    dqd: ArrayLike<number>,
    dqdd: ArrayLike<number>,
    t = 0,
  ): { tau: Float64Array; dtau: Float64Array } {
    const { n } = this,
      code = this.code.jvp;
    this.run(code, t, q, qd, qdd, [dq, dqd, dqdd]);
    const names = this.dynamics.model.coordinates;
    const tau = this.same(this.read(code, 0, new Float64Array(n), (i) => names[i].tau));
    const dtau = this.read(code, n, new Float64Array(n), (i) => `the tangent of ${names[i].tau}`);
    return { tau, dtau };
  }

  /** qdd = FD(q, qd, tau) and its directional derivative along (dq, dqd, dtau): the O(n) tangent of ID and one solve with M */
  forwardTangent(
    q: ArrayLike<number>,
    qd: ArrayLike<number>,
    tau: ArrayLike<number>,
    dq: ArrayLike<number>,
    dqd: ArrayLike<number>,
    dtau: ArrayLike<number>,
    t = 0,
  ): { qdd: Float64Array; dqdd: Float64Array } {
    const { n } = this;
    const qdd = this.solveForward(q, qd, tau, t, new Float64Array(n * n));
    const { dtau: dID } = this.inverseTangent(q, qd, qdd, dq, dqd, new Float64Array(n), t);
    const dqdd = Float64Array.from(dID, (v, i) => dtau[i] - v);
    return { qdd, dqdd: ltlSolveColumns(n, this.L, dqdd, 1) };
  }
}

/** each array of `from` copied into the same-named one of `into` (the caller's out), which is returned */
function copyInto<T extends object>(into: T, from: T): T {
  for (const key of Object.keys(into) as (keyof T)[]) {
    const a = into[key];
    if (a instanceof Float64Array) a.set(from[key] as Float64Array);
  }
  return into;
}

function notFinite(inverse: InverseDynamics, what: string, v: number): SimulationError {
  return new SimulationError(`the derivatives of ${inverse.model.report.model}'s dynamics are not finite: ${what} is ${v}`, {
    variables: [what],
    hint: 'a coordinate at a singular position of its joint (a division by zero in its equations), or q, qd, qdd not finite: check the point',
  });
}
