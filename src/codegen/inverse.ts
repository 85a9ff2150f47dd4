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
// Glossary: n coordinates; q, qd, qdd, tau arrays of n in the order of
// compiled.coordinates; x the state vector, u the inputs, w the workspace.
import { UsageError } from '../errors.ts';
import type { CompiledModel, SignalSource } from './compiled.ts';
import type { ModelState } from './state.ts';

/** the names of one generalized coordinate: position, speed, acceleration, force */
export interface CoordinateNames {
  readonly q: string;
  readonly qd: string;
  readonly qdd: string;
  readonly tau: string;
}

/** a run of inverse dynamics: its own state (inputs, workspace, Newton warm starts of loops) */
export class InverseDynamics {
  /** number of coordinates */
  readonly n: number;
  private readonly x: Float64Array;
  private readonly dx: Float64Array;
  private readonly qAt: Int32Array;
  private readonly qdAt: Int32Array;
  private readonly qddAt: Int32Array;
  private readonly tauFrom: readonly SignalSource[];
  private readonly zeros: Float64Array;
  private readonly unit: Float64Array;
  private readonly base: Float64Array;

  constructor(
    readonly model: CompiledModel,
    /** the state the generated code runs on (other inputs, e.g. a rest joint's drive, are set on it) */
    readonly state: ModelState = model.createState(),
  ) {
    if (model.problem !== 'inverse') {
      throw new UsageError('inverse dynamics needs a model compiled for the inverse problem', {
        hint: "compile(model, { problem: 'inverse' }) (kron compile --inverse)",
      });
    }
    const k = model.coordinates;
    this.n = k.length;
    const source = (name: string) => model.signalSource(name);
    const index = (name: string, from: SignalSource['from']) => {
      const s = source(name);
      if (s.from !== from || s.sign !== 1 || s.offset !== 0) throw new Error(`inverse: ${name} is not ${from}[i] (${JSON.stringify(s)})`);
      return s.index;
    };
    this.qAt = Int32Array.from(k, (c) => index(c.q, 'x'));
    this.qdAt = Int32Array.from(k, (c) => index(c.qd, 'x'));
    this.qddAt = Int32Array.from(k, (c) => index(c.qdd, 'u'));
    this.tauFrom = k.map((c) => source(c.tau));
    this.x = model.x0();
    this.dx = new Float64Array(this.x.length);
    this.zeros = new Float64Array(this.n);
    this.unit = new Float64Array(this.n);
    this.base = new Float64Array(this.n);
  }

  /** tau = ID(q, qd, qdd) into tau (returned); allocates nothing */
  evaluate(t: number, q: ArrayLike<number>, qd: ArrayLike<number>, qdd: ArrayLike<number>, tau: Float64Array = new Float64Array(this.n)): Float64Array {
    const { x, n } = this;
    if (q.length !== n || qd.length !== n || qdd.length !== n || tau.length !== n) {
      throw new UsageError(`inverse dynamics takes ${n} coordinates (${this.model.coordinates.map((c) => c.q).join(', ')}), got q ${q.length}, qd ${qd.length}, qdd ${qdd.length}, tau ${tau.length}`);
    }
    const u = this.state.u;
    for (let i = 0; i < n; i++) {
      x[this.qAt[i]] = q[i];
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

  /** M(q) of M qdd + h = tau, n x n row-major in out: column j = ID(q, 0, e_j) - ID(q, 0, 0) */
  massMatrix(q: ArrayLike<number>, out: Float64Array = new Float64Array(this.n * this.n), t = 0): Float64Array {
    const n = this.n;
    if (out.length !== n * n) throw new UsageError(`the mass matrix has ${n * n} entries, got an array of ${out.length}`);
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
}
