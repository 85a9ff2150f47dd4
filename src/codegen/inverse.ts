// Inverse dynamics on a model compiled with { problem: 'inverse' }: the
// state joints' q, qd, qdd are known and the generated code computes their
// generalized forces tau (for a tree the sorted equations are the
// Newton-Euler recursion: velocities and accelerations outward, forces
// inward; for a loop the cut forces come from the loop's torn block).
// From it, the terms of the equations of motion
//   M(q) qdd + h(q, qd) = tau
// (the sign convention: h holds gravity, Coriolis and centrifugal terms,
// springs and dampers; tau the drives):
//   h = ID(q, qd, 0),   column j of M = ID(q, 0, e_j) - ID(q, 0, 0)
// (subtracting ID(q, 0, 0) removes gravity and springs, which do not depend
// on qdd; with qd = 0 nothing depends on qd). n + 1 evaluations for M.
//
// Glossary: n coordinates; qd, qdd, tau arrays of n in the order of
// compiled.coordinates; q an array of n_q in the order of compiled.positions
// (n_q = n, plus one per free or ball joint: its quaternion's four numbers
// for three rotations, coordinate-slots.ts); x the state vector, u the
// inputs, w the workspace.
import { ModelError, UsageError } from '../errors.ts';
import type { CompiledModel, SignalSource } from './compiled.ts';
import type { ModelState } from './state.ts';
import { coordinateSlots } from './coordinate-slots.ts';
import type { InverseTangents } from './inverse-tangents.ts';
import { DynamicsDerivatives, type ForwardDerivatives, type InverseDerivatives } from './dynamics-derivatives.ts';

/** what the derivatives are taken by, besides the coordinates */
export interface DerivativeOptions {
  /**
   * parameters left symbolic (compiled with foldParameters: false), by
   * name: adds dqdd_dp (forward) or dtau_dp (inverse), n x P row-major
   */
  readonly parameters?: readonly string[];
}

/** forwardDerivatives' options: out, arrays to write the results into (returned; nothing allocated on the analytical path) */
export interface ForwardOptions extends DerivativeOptions {
  /** qdd (n) and the Jacobians (n x n) are written into these and returned */
  readonly out?: ForwardDerivatives;
}

/** inverseDerivatives' options: out, arrays to write the results into (returned; nothing allocated on the analytical path) */
export interface InverseOptions extends DerivativeOptions {
  /** tau (n) and the Jacobians (n x n) are written into these and returned */
  readonly out?: InverseDerivatives;
}

/** the names of one generalized coordinate: position, speed, acceleration, force */
export interface CoordinateNames {
  /** the coordinate, e.g. "j1.q" or "ball.Q[2]" */
  readonly q: string;
  /** its speed */
  readonly qd: string;
  /** its acceleration */
  readonly qdd: string;
  /** its generalized force (the joint's input) */
  readonly tau: string;
  /** a free or ball joint's rotation about frame_b's axis `axis`: the names of its quaternion Q[1..4] (coordinate-slots.ts) */
  readonly quaternion?: {
    /** the names of the quaternion's states Q[1..4] */
    readonly Q: readonly string[];
    /** the frame_b axis (0..2) this coordinate turns about */
    readonly axis: number;
  };
}

/**
 * What makes a tree's tangent code (inverse-tangents.ts, which loads the
 * code generator): registered by the compiler (compile.ts), so that a model
 * run from the compile cache does not load generate.ts at start-up. A model
 * compiled in this process always has it.
 */
let tangentCode: ((model: CompiledModel) => InverseTangents | string) | undefined;
export function registerTangentCode(make: (model: CompiledModel) => InverseTangents | string): void {
  tangentCode = make;
}

/** a run of inverse dynamics: its own state (inputs, workspace, Newton warm starts of loops) */
export class InverseDynamics {
  /** number of coordinates (velocities, accelerations, forces) */
  readonly n: number;
  /** number of positions q: n, plus one per free or ball joint (its quaternion's four numbers for three rotations) */
  readonly nq: number;
  private readonly x: Float64Array;
  private readonly positionAt: Int32Array;
  private readonly dx: Float64Array;
  private readonly qdAt: Int32Array;
  private readonly qddAt: Int32Array;
  private readonly tauFrom: readonly SignalSource[];
  private readonly zeros: Float64Array;
  private readonly unit: Float64Array;
  private readonly base: Float64Array;

  constructor(
    /** the model compiled with problem 'inverse' */
    readonly model: CompiledModel,
    /** the state the generated code runs on (other inputs, e.g. a rest joint's drive, are set on it) */
    readonly state: ModelState = model.createState(),
  ) {
    if (model.problem !== 'inverse') {
      throw new UsageError('inverse dynamics needs a model compiled for the inverse problem', {
        hint: "compile(model, { problem: 'inverse' }) (kron compile --inverse)",
      });
    }
    const slots = coordinateSlots(model);
    this.n = slots.qAt.length;
    this.nq = slots.positionAt.length;
    this.positionAt = slots.positionAt;
    this.qdAt = slots.qdAt;
    this.qddAt = slots.qddAt;
    this.tauFrom = slots.tauFrom;
    this.x = model.x0();
    this.dx = new Float64Array(this.x.length);
    this.zeros = new Float64Array(this.n);
    this.unit = new Float64Array(this.n);
    this.base = new Float64Array(this.n);
  }

  /** tau = ID(q, qd, qdd) into tau (returned); allocates nothing */
  evaluate(t: number, q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, tau: Float64Array = new Float64Array(this.n)): Float64Array {
    const { x, n, nq } = this;
    if (q.length !== nq || qd.length !== n || qdd.length !== n || tau.length !== n) {
      const got = `got q ${q.length}, qd ${qd.length}, qdd ${qdd.length}, tau ${tau.length}`;
      throw new UsageError(
        nq === n
          ? `inverse dynamics takes ${n} coordinates (${this.model.coordinates.map((c) => c.q).join(', ')}), ${got}`
          : `inverse dynamics takes ${nq} positions (${this.model.positions.join(', ')}) and ${n} coordinates (${this.model.coordinates.map((c) => c.qd).join(', ')}), ${got}`,
      );
    }
    const u = this.state.u;
    for (let i = 0; i < nq; i++) x[this.positionAt[i]] = q[i];
    for (let i = 0; i < n; i++) {
      x[this.qdAt[i]] = qd[i];
      u[this.qddAt[i]] = qdd[i];
    }
    this.state.derivatives(t, x, this.dx);
    const w = this.state.w;
    for (let i = 0; i < n; i++) {
      const s = this.tauFrom[i];
      tau[i] = s.sign * (s.from === 'w' ? w[s.index] : s.from === 'u' ? u[s.index] : 0) + s.offset;
    }
    return tau;
  }

  /** h(q, qd) of M qdd + h = tau: ID(q, qd, 0) */
  bias(q: ArrayLike<number>, qd: ArrayLike<number>, out: Float64Array = new Float64Array(this.n), t = 0): Float64Array {
    return this.evaluate(t, q, qd, this.zeros, out);
  }

  /**
   * M(q) of M qdd + h = tau, n x n row-major in out: from generated code
   * (the tangents of ID along qdd, made on first use, inverse-tangents.ts;
   * through a kinematic loop's blocks implicitly); where there is none, from
   * n + 1 evaluations (massMatrixByColumns)
   */
  massMatrix(q: ArrayLike<number>, out: Float64Array = new Float64Array(this.n * this.n), t = 0): Float64Array {
    this.check(q, out, n2(this.n), 'the mass matrix');
    const d = this.derivatives();
    return typeof d === 'string' ? this.massMatrixByColumns(q, out, t) : d.massMatrix(q, out, t);
  }

  /** M(q), n x n row-major in out, column j = ID(q, 0, e_j) - ID(q, 0, 0): n + 1 evaluations of the model's own code */
  massMatrixByColumns(q: ArrayLike<number>, out: Float64Array = new Float64Array(this.n * this.n), t = 0): Float64Array {
    const n = this.n;
    this.check(q, out, n2(n), 'the mass matrix');
    this.evaluate(t, q, this.zeros, this.zeros, this.base);
    const col = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      this.unit.fill(0);
      this.unit[j] = 1;
      this.evaluate(t, q, this.zeros, this.unit, col);
      for (let i = 0; i < n; i++) out[i * n + j] = col[i] - this.base[i];
    }
    this.unit.fill(0);
    return out;
  }

  /**
   * qdd = FD(q, qd, tau) and its exact Jacobians dqdd/dq, dqdd/dqd,
   * dqdd/dtau (n x n row-major), from generated tangents of the inverse
   * dynamics (dynamics-derivatives.ts); through kinematic loops too (the
   * state joints' coordinates are the independent ones)
   */
  forwardDerivatives(q: ArrayLike<number>, qd: ArrayLike<number>, tau: ArrayLike<number>, t = 0, options: ForwardOptions = {}): ForwardDerivatives {
    this.check(q, qd, this.n, 'qd', tau);
    if (options.out) this.checkOut(options.out, ['qdd', 'dqdd_dq', 'dqdd_dqd', 'dqdd_dtau']);
    const d = this.tree('forwardDerivatives'),
      f = d.forward(q, qd, tau, t, options.out);
    if (!options.parameters) return f;
    return { ...f, dqdd_dp: d.forwardByParameters(q, qd, tau, this.parameterIndices(options.parameters), t).dqdd_dp };
  }

  /** tau = ID(q, qd, qdd) and its exact Jacobians dtau/dq, dtau/dqd, dtau/dqdd = M */
  inverseDerivatives(q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, t = 0, options: InverseOptions = {}): InverseDerivatives {
    this.check(q, qd, this.n, 'qd', qdd);
    if (options.out) this.checkOut(options.out, ['tau', 'dtau_dq', 'dtau_dqd', 'dtau_dqdd']);
    const d = this.tree('inverseDerivatives'),
      b = d.inverse(q, qd, qdd, t, undefined, options.out);
    if (!options.parameters) return b;
    return { ...b, dtau_dp: d.inverseByParameters(q, qd, qdd, this.parameterIndices(options.parameters), t).dtau_dp };
  }

  /** the parameters' indices among the compiled code's symbolic ones; a typed error for a folded or unknown name */
  private parameterIndices(names: readonly string[]): number[] {
    const symbolic = this.model.generated.layout.parameters;
    return names.map((name) => {
      const k = symbolic.indexOf(name);
      if (k >= 0) return k;
      if (this.model.hasSignal(name)) {
        throw new UsageError(`${name} is folded into ${this.model.report.model}'s code: no derivative by it`, {
          hint: "compile with { problem: 'inverse', foldParameters: false } (kron compile --keep-parameters) to differentiate by parameters",
        });
      }
      throw new ModelError(`${this.model.report.model} has no parameter named ${name}`, {
        variables: [name],
        hint: symbolic.length
          ? `symbolic parameters: ${symbolic.slice(0, 8).join(', ')}${symbolic.length > 8 ? ', ...' : ''}`
          : 'compile with foldParameters: false to keep parameters symbolic',
      });
    });
  }

  /** tau = ID(q, qd, qdd) and its directional derivative along (dq, dqd, dqdd), in O(n) */
  inverseTangent(
    q: ArrayLike<number>,
    qd: ArrayLike<number>,
    qdd: ArrayLike<number>,
    dq: ArrayLike<number>,
    dqd: ArrayLike<number>,
    dqdd: ArrayLike<number>,
    t = 0,
  ): {
    /** the generalized forces */
    tau: Float64Array;
    /** their derivative along the direction */
    dtau: Float64Array;
  } {
    for (const [what, a] of [
      ['qd', qd],
      ['qdd', qdd],
      ['dq', dq],
      ['dqd', dqd],
      ['dqdd', dqdd],
    ] as const)
      this.check(q, a, this.n, what);
    return this.tree('inverseTangent').inverseTangent(q, qd, qdd, dq, dqd, dqdd, t);
  }

  /** qdd = FD(q, qd, tau) and its directional derivative along (dq, dqd, dtau): an O(n) tangent and a solve with M */
  forwardTangent(
    q: ArrayLike<number>,
    qd: ArrayLike<number>,
    tau: ArrayLike<number>,
    dq: ArrayLike<number>,
    dqd: ArrayLike<number>,
    dtau: ArrayLike<number>,
    t = 0,
  ): {
    /** the accelerations */
    qdd: Float64Array;
    /** their derivative along the direction */
    dqdd: Float64Array;
  } {
    for (const [what, a] of [
      ['qd', qd],
      ['tau', tau],
      ['dq', dq],
      ['dqd', dqd],
      ['dtau', dtau],
    ] as const)
      this.check(q, a, this.n, what);
    return this.tree('forwardTangent').forwardTangent(q, qd, tau, dq, dqd, dtau, t);
  }

  private made: DynamicsDerivatives | string | undefined;
  /** the generated derivatives of this model, or why there are none */
  derivatives(): DynamicsDerivatives | string {
    if (this.made === undefined) {
      const code = tangentCode ? tangentCode(this.model) : 'the code generator is not loaded (a model run from the compile cache or from its portable form)';
      this.made = typeof code === 'string' ? code : new DynamicsDerivatives(this, code);
    }
    return this.made;
  }

  private tree(what: string): DynamicsDerivatives {
    const d = this.derivatives();
    if (typeof d !== 'string') return d;
    if (!tangentCode)
      throw new UsageError(`${what} of ${this.model.report.model}: ${d}`, {
        hint: "compile the model in this process (compile(model, { problem: 'inverse' }))",
      });
    throw new UsageError(`${what} of ${this.model.report.model}: ${d}`, {
      hint: "linearize() differentiates it symbolically (kron linearize); massMatrix() and bias() work on it; a loop compiled with { mode: 'torn' } has implicit tangents",
    });
  }

  /** out's arrays: the first n, the others n x n Float64Arrays; else a UsageError naming the one that is not */
  private checkOut(out: object, keys: readonly string[]): void {
    const n = this.n;
    // a loop, not forEach: this runs at every call, and makes no closure
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k],
        a = (out as Record<string, unknown>)[key],
        size = k === 0 ? n : n * n;
      if (!(a instanceof Float64Array) || a.length !== size)
        throw new UsageError(`options.out.${key} must be a Float64Array of ${size} entries`, {
          hint: `${this.model.report.model} has ${n} coordinates: ${keys[0]} takes n, the Jacobians n x n (row-major)`,
        });
    }
  }

  /** q has nq entries, `a` n (named `what`, or an output of `size`), and so has b; else a UsageError */
  private check(q: ArrayLike<number>, a: ArrayLike<number>, size: number, what: string, b?: ArrayLike<number>): void {
    const n = this.n,
      names = coordinateList;
    if (q.length !== this.nq)
      throw new UsageError(
        this.nq === n
          ? `${this.model.report.model} has ${n} coordinates (${names(this.model)}), got q of ${q.length}`
          : `${this.model.report.model} has ${this.nq} positions (${this.model.positions.join(', ')}: a quaternion's four numbers for its joint's three rotations), got q of ${q.length}`,
        { hint: 'compiled.positions names the entries of q, compiled.coordinates those of qd, qdd and tau' },
      );
    if (a.length !== size)
      throw new UsageError(
        size === n ? `${what} takes ${n} entries (${names(this.model)}), got ${a.length}` : `${what} has ${size} entries, got an array of ${a.length}`,
      );
    if (b && b.length !== n) throw new UsageError(`${this.model.report.model} has ${n} coordinates (${names(this.model)}), got ${b.length} values`);
  }
}

const n2 = (n: number) => n * n;

/** the coordinates' names for a message (a function, not a closure per check: check() runs at every call) */
function coordinateList(model: CompiledModel): string {
  return model.coordinates.map((c) => (c.quaternion ? c.qd : c.q)).join(', ');
}
