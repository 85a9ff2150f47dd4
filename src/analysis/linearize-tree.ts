// Linearization of a tree by its analytical derivatives: (forward model of a
// revolute/prismatic tree, the point it solved) => A, B from the generated
// recursions of codegen/tree-generated.ts (Carpentier & Mansard, RSS 2018,
// eq. 7: dqdd/dq = -M^-1 dID/dq, dqdd/dqd = -M^-1 dID/dqd, dqdd/dtau =
// M^-1), in place of the tangents of the model's whole forward code
// (linearize-generated.ts): one pass of O(n) recursions and the tree's
// sparse L^T D L solves instead of 2n + m tangent directions through the
// model's code.
//
// The states must be the joints' q and qd and nothing else, with der(q) = qd
// (checked at every call). What acts on the coordinates besides the tree's
// bodies, springs and dampers (a joint's tau input, an MJCF servo kp ctrl -
// kp q - kv qd) is found from the model's own code, as tree-dynamics.ts does
// for an inverse model: F = ID_tree(q, qd, FD_model(q, qd, u)) must be, per
// joint, affine in its own q and qd and affine in the inputs,
//   F_i = r0_i + k_i q_i + b_i qd_i + sum_m G_im u_m,
// measured once by unit steps (exact to rounding for an affine F), checked
// at three seeded points, and at every call at the point itself (the tree's
// tau at the model's qdd must be F there). Then M qdd + h_tree = F gives
//   dqdd/dq = -M^-1 (dID_tree/dq - diag k),   dqdd/dqd = -M^-1 (dID_tree/dqd - diag b),
//   dqdd/du = M^-1 G,
// the tree's pairs taking -k, -b on their diagonal (the kb input). The
// parameters changed since the measurement measure again.
//
// Glossary: n coordinates (the q states in state order), nu the model's
// inputs, m the chosen ones; qAt/qdAt a coordinate's q and qd state index.
import type { CompiledModel } from '../codegen/compiled.ts';
import type { ModelState } from '../codegen/state.ts';
import { rigidTree } from '../codegen/rigid-tree.ts';
import { type TreeFunctions, treeFunctions } from '../codegen/tree-generated.ts';
import { PRINTED_OPERATIONS, handFunctions, printedOperations } from '../codegen/tree-hand.ts';
import type { GeneratedLinearization } from './linearize-generated.ts';

/** a fixed Park-Miller sequence: the same points at every measurement */
function points(seed: number): (length: number) => Float64Array {
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  return (length) => Float64Array.from({ length }, () => 2 * rand() - 1);
}

export class TreeLinearization {
  private readonly n: number;
  private readonly nu: number;
  private readonly f: TreeFunctions;
  private readonly w: Float64Array;
  /** the outside forces: -k then -b (the pairs' kb), r0, G (n x nu row-major) */
  private readonly kb: Float64Array;
  private readonly r0: Float64Array;
  private readonly G: Float64Array;
  /** the tree's tau at the last point; a, b, c: dqdd/dq, dqdd/dqd, M^-1 */
  private readonly T: Float64Array;
  private readonly out: Float64Array[];
  private readonly q: Float64Array;
  private readonly qd: Float64Array;
  private readonly qdd: Float64Array;
  /** a state of our own for the measurements, and its x and dx */
  private readonly own: ModelState;
  private readonly x: Float64Array;
  private readonly dx: Float64Array;
  private readonly zeros: Float64Array;

  private constructor(
    private readonly compiled: CompiledModel,
    tree: NonNullable<Exclude<ReturnType<typeof rigidTree>, string>>,
    private readonly qAt: Int32Array,
    private readonly qdAt: Int32Array,
  ) {
    const n = (this.n = qAt.length);
    this.nu = compiled.generated.layout.inputs.length;
    this.f = printedOperations(tree) <= PRINTED_OPERATIONS ? treeFunctions(tree) : handFunctions(tree);
    this.w = new Float64Array(this.f.slots);
    this.kb = new Float64Array(2 * n);
    this.zeros = new Float64Array(2 * n);
    [this.r0, this.T, this.q, this.qd, this.qdd] = [0, 0, 0, 0, 0].map(() => new Float64Array(n));
    this.G = new Float64Array(n * this.nu);
    this.out = [0, 0, 0].map(() => new Float64Array(n * n));
    this.own = compiled.createState();
    this.x = compiled.x0();
    this.dx = new Float64Array(this.x.length);
  }

  /** the tree of a forward model whose states are its joints' q and qd, measured; or why not */
  static make(compiled: CompiledModel): TreeLinearization | string {
    if (compiled.problem !== 'forward') return 'not a forward model';
    const names = compiled.stateNames,
      index = new Map(names.map((s, i) => [s, i]));
    const qs = names.filter((s) => s.endsWith('.q'));
    const qdAt = qs.map((s) => index.get(`${s}d`) ?? -1);
    if (2 * qs.length !== names.length || qdAt.some((k) => k < 0))
      return `its states are not its joints' q and qd alone (${
        names
          .filter((s) => !/\.qd?$/.test(s))
          .slice(0, 3)
          .join(', ') || 'a q without its qd'
      })`;
    const tree = rigidTree(compiled, qs);
    if (typeof tree === 'string') return tree;
    const made = new TreeLinearization(
      compiled,
      tree,
      Int32Array.from(qs, (s) => index.get(s)!),
      Int32Array.from(qdAt),
    );
    return made.measure(compiled.state.p, compiled.state.u) ?? made;
  }

  /** F = the tree's tau at the model's qdd, at (q, qd, u) on our own state, into T */
  private force(t: number, q: ArrayLike<number>, qd: ArrayLike<number>, u: ArrayLike<number>): Float64Array {
    const { n, x, dx, qAt, qdAt, qdd, f, w } = this;
    for (let i = 0; i < n; i++) ((x[qAt[i]] = q[i]), (x[qdAt[i]] = qd[i]));
    this.own.u.set(u);
    this.own.derivatives(t, x, dx);
    for (let i = 0; i < n; i++) qdd[i] = dx[qdAt[i]];
    f.point(q, qd, w);
    f.pairs(q, qd, qdd, this.zeros, w, this.T);
    return this.T;
  }

  /** k, b, G and r0 measured at parameters p around inputs u, and checked at seeded points; a reason when F is not so affine */
  private measure(p: ArrayLike<number>, u0: ArrayLike<number>): string | undefined {
    const { n, nu, r0, G } = this,
      t = 0;
    this.own.p.set(p);
    const point = points(33);
    const q = point(n),
      qd = point(n),
      u = Float64Array.from(u0),
      base = Float64Array.from(this.force(t, q, qd, u));
    const tol = 1e-9 * (1 + Math.max(...Array.from(base, Math.abs))),
      // a slope within rounding of zero is zero (no spring, no damper, an input that does not act there)
      slope = (d: number) => (Math.abs(d) <= 1e-3 * tol ? 0 : d);
    const k = new Float64Array(n),
      b = new Float64Array(n);
    for (const [v, s] of [
      [q, k],
      [qd, b],
    ] as const) {
      for (let j = 0; j < n; j++) {
        v[j] += 1;
        const F = this.force(t, q, qd, u);
        v[j] -= 1;
        for (let i = 0; i < n; i++) {
          const d = F[i] - base[i];
          if (i === j) s[i] = slope(d);
          else if (!(Math.abs(d) <= tol)) return `a force outside the tree couples ${this.name(i, 'q')} and ${this.name(j, s === k ? 'q' : 'qd')}`;
        }
      }
    }
    for (let m = 0; m < nu; m++) {
      u[m] += 1;
      const F = this.force(t, q, qd, u);
      u[m] -= 1;
      for (let i = 0; i < n; i++) G[i * nu + m] = slope(F[i] - base[i]);
    }
    for (let i = 0; i < n; i++) {
      this.kb[i] = -k[i];
      this.kb[n + i] = -b[i];
      r0[i] = base[i] - k[i] * q[i] - b[i] * qd[i] - this.inputs(i, u);
    }
    for (let s = 0; s < 3; s++) {
      const [a, ad, du] = [point(n), point(n), point(nu)];
      for (let m = 0; m < nu; m++) du[m] += u0[m];
      this.force(t, a, ad, du);
      if (!this.agrees(a, ad, du, 0))
        return 'a force outside the tree is not affine in its joint’s q and qd and in the inputs (or the tree is not the model’s)';
    }
    return undefined;
  }

  /** sum_m G_im u_m */
  private inputs(i: number, u: ArrayLike<number>): number {
    let s = 0;
    for (let m = 0; m < this.nu; m++) s += this.G[i * this.nu + m] * u[m];
    return s;
  }

  /** T (the tree's tau at the model's qdd) = r0 + k q + b qd + G u, to 1e-9 of the terms (`terms`: the size of M qdd) */
  private agrees(q: ArrayLike<number>, qd: ArrayLike<number>, u: ArrayLike<number>, terms: number): boolean {
    const { n, T, kb, r0 } = this;
    let scale = Math.max(1, terms);
    for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(T[i]));
    for (let i = 0; i < n; i++) if (!(Math.abs(r0[i] - kb[i] * q[i] - kb[n + i] * qd[i] + this.inputs(i, u) - T[i]) <= 1e-9 * scale)) return false;
    return true;
  }

  /**
   * A and B at the point the caller's state solved (x, its x' dx, the
   * state's inputs and parameters), the chosen inputs' columns of B; or why
   * the other paths must answer
   */
  at(state: ModelState, x: Float64Array, t: number, dx: Float64Array, inputs: readonly number[]): GeneratedLinearization | string {
    const { n, f, w, q, qd, qdd, qAt, qdAt, T, out } = this;
    const p = state.p,
      u = state.u;
    for (let i = 0; i < p.length; i++)
      if (p[i] !== this.own.p[i]) {
        const why = this.measure(p, u);
        if (why) return `${why} (with the parameters set at the point)`;
        break;
      }
    for (let i = 0; i < n; i++) {
      q[i] = x[qAt[i]];
      qd[i] = x[qdAt[i]];
      qdd[i] = dx[qdAt[i]];
      if (!(Math.abs(dx[qAt[i]] - qd[i]) <= 1e-12 * (1 + Math.abs(qd[i])))) return `der(${this.name(i, 'q')}) is not ${this.name(i, 'qd')}`;
    }
    f.point(q, qd, w);
    f.factor(w);
    if (f.pivot(w) >= 0) return 'its mass matrix is not positive definite at the point';
    f.pairs(q, qd, qdd, this.kb, w, T);
    let qddMax = 0;
    for (let i = 0; i < n; i++) qddMax = Math.max(qddMax, Math.abs(qdd[i]));
    if (!this.agrees(q, qd, u, f.massScale(w) * qddMax)) return 'the forces outside the tree changed since they were measured';
    const [a, b, c] = out;
    f.forwardOut(w, a, b, c);
    const N = x.length,
      m = inputs.length;
    const A = Array.from({ length: N }, () => new Array<number>(N).fill(0)),
      B = Array.from({ length: N }, () => new Array<number>(m).fill(0));
    for (let i = 0; i < n; i++) {
      A[qAt[i]][qdAt[i]] = 1;
      const row = A[qdAt[i]],
        Bi = B[qdAt[i]];
      for (let j = 0; j < n; j++) {
        row[qAt[j]] = a[i * n + j];
        row[qdAt[j]] = b[i * n + j];
      }
      // M^-1 G, the chosen columns
      for (let k = 0; k < m; k++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += c[i * n + j] * this.G[j * this.nu + inputs[k]];
        Bi[k] = s;
      }
    }
    for (const r of [...A, ...B]) for (const v of r) if (!Number.isFinite(v)) return 'its analytical derivatives are not finite at the point';
    return { A, B, C: [], D: [] };
  }

  private name(i: number, what: 'q' | 'qd'): string {
    return this.compiled.stateNames[(what === 'q' ? this.qAt : this.qdAt)[i]];
  }
}

const made = new WeakMap<CompiledModel, TreeLinearization | string>();

/**
 * A, B of a tree's forward model by its analytical derivatives, made on the
 * first call for a compiled model and kept; or why not (outputs asked for:
 * their rows C, D come from the other paths)
 */
export function treeLinearization(
  compiled: CompiledModel,
  state: ModelState,
  x: Float64Array,
  t: number,
  dx: Float64Array,
  inputs: readonly number[],
  outputs: readonly string[],
): GeneratedLinearization | string {
  if (outputs.length) return 'outputs were asked for (their rows C, D come from the generated tangents)';
  let tree = made.get(compiled);
  if (tree === undefined) made.set(compiled, (tree = TreeLinearization.make(compiled)));
  return typeof tree === 'string' ? tree : tree.at(state, x, t, dx, inputs);
}
