// A tree's analytical derivatives and mass matrix as generated functions:
// (rigid tree) => the recursions of tree-codegen.ts and the factor and
// solves of tree-ltdl.ts printed for this tree and compiled once, sharing
// one workspace w. Made on first use (tree-dynamics.ts, inverse.ts), never
// by compile(). A forward-derivatives call runs
//   point(q, qd)        kinematics, composites, M, the velocity terms
//   bias(q, qd)         the tree's h (when the forces outside it are proven, tree-dynamics.ts)
//   factor()            M = L^T D L (the pivots checked by the caller)
//   solve(r)            r = M^-1 r in place: qdd = M^-1 (tau - h)
//   pairs(q, qd, qdd)   the forces at qdd, tau, dtau/dq and dtau/dqd
//   forwardOut(a, b, c) M^-1 [-dtau/dq, -dtau/dqd, 1] (3n solves, zeros folded)
// and an inverse one point, pairs and inverseOut. Matrices n x n row-major
// in coordinate order; vectors in coordinate order.
import type { RigidTree } from './rigid-tree.ts';
import { Emitter, type OpCount, type Sym, withoutDeadStores } from './tree-emit.ts';
import { TreeRecursions } from './tree-codegen.ts';
import { emitInverse, emitLtdl, emitSolve } from './tree-ltdl.ts';

/** a generated function: its arrays in the order its comment gives */
type Fn = (...args: ArrayLike<number>[]) => void;

/** what making the code cost and its size, per function */
export interface TreeCodeReport {
  ms: number;
  chars: number;
  lines: number;
  ops: OpCount;
  /** the operations of each function */
  parts?: Record<string, OpCount>;
}

export interface TreeFunctions {
  readonly n: number;
  /** (q, qd, w): everything at (q, qd) that does not depend on qdd */
  point: Fn;
  /** (q, qd, w, h): after point(), the tree's h = tau at qdd = 0 (gravity, velocity terms, springs, dampers) */
  bias: Fn;
  /** (w, M): M into M, both triangles */
  massOut: Fn;
  /** (w): the LTDL factor of M */
  factor: Fn;
  /** (w, r): r = M^-1 r */
  solve: Fn;
  /** (q, qd, qdd, kb, w, tau): the forces at qdd, tau, and the pairs dtau/d(q, qd) (kb: the outside forces' k, b) */
  pairs: Fn;
  /** (w, dq, dqd): dtau/dq, dtau/dqd, every entry written */
  inverseOut: Fn;
  /** (w, a, b, c): dqdd/dq, dqdd/dqd, dqdd/dtau */
  forwardOut: Fn;
  /** after factor(w): the coordinate of the first pivot D_k (from the last body up) that is not positive, else -1 */
  pivot(w: Float64Array): number;
  /** after point(): the largest diagonal entry of M (what the check of tau at the solved qdd rounds with) */
  massScale(w: Float64Array): number;
  readonly slots: number;
  readonly report: TreeCodeReport;
}

const add = (a: OpCount, b: OpCount): OpCount => ({ mul: a.mul + b.mul, add: a.add + b.add, div: a.div + b.div, fn: a.fn + b.fn });

/** the functions' texts compiled, with what making them cost */
function compiled(made: { text: string; ops: OpCount; lines: number }[], t0: number): { fns: Fn[]; report: TreeCodeReport } {
  const fns = made.map((m) => new Function(m.text)() as Fn);
  return {
    fns,
    report: {
      ms: performance.now() - t0,
      chars: made.reduce((s, m) => s + m.text.length, 0),
      lines: made.reduce((s, m) => s + m.lines, 0),
      ops: made.reduce((s, m) => add(s, m.ops), { mul: 0, add: 0, div: 0, fn: 0 }),
    },
  };
}

/** the check of the pivots as code, from the last body up: a pivot that cancels to nothing is relative to M's diagonal there */
function pivotCheck(D: readonly Sym[], Mkk: readonly Sym[], coord: Int32Array): (w: Float64Array) => number {
  const lines = D.map((d, b) => `if(!(${d}>${1e-14}*Math.abs(${Mkk[b]})))return ${coord[b]};`).reverse();
  return new Function(`return function(w){${lines.join('')}return -1;}`)() as (w: Float64Array) => number;
}

/** the largest magnitude of some workspace values (or folded numbers), as code */
function largest(xs: readonly Sym[]): (w: Float64Array) => number {
  return new Function(`return function(w){return Math.max(${xs.map((x) => `Math.abs(${x})`).join(',')});}`)() as (w: Float64Array) => number;
}

/** M (n x n) entry (i, j) of body order written at coordinate order */
function writeMatrix(e: Emitter, r: TreeRecursions, name: string, entry: (i: number, j: number) => Sym): void {
  const { N, tree } = r;
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < N; j++) e.write(name, tree.coord[i] * N + tree.coord[j], entry(i, j));
    e.boundary();
  }
}

// (rigid tree) => its derivatives' functions
export function treeFunctions(tree: RigidTree): TreeFunctions {
  const t0 = performance.now();
  const e = new Emitter(),
    r = new TreeRecursions(e, tree, true),
    n = tree.N,
    { coord } = tree;
  const lower = (m: Map<number, Sym>) => (i: number, j: number) => m.get(r.key(i, j)) ?? m.get(r.key(j, i)) ?? 0;
  const point = e.fn('q,qd,w', () => {
    r.kinematics();
    r.composites();
    r.mass();
    r.velocityTerms();
  });
  const bias = e.fn('q,qd,w,h', () => r.forces(0).tau.forEach((x, b) => e.write('h', coord[b], x)));
  const massOut = e.fn('w,M', () => writeMatrix(e, r, 'M', lower(r.M)));
  let f!: ReturnType<typeof emitLtdl>;
  const factor = e.fn('w', () => (f = emitLtdl(e, r)));
  const solve = e.fn('w,r', () => {
    const x = emitSolve(
      e,
      r,
      f,
      Array.from({ length: n }, (_, b) => `r[${coord[b]}]`),
    );
    x.forEach((xb, b) => e.write('r', coord[b], xb));
  });
  let d!: ReturnType<TreeRecursions['derivatives']>;
  const pairs = e.fn('q,qd,qdd,kb,w,tau', () => {
    const at = r.forces('qdd');
    at.tau.forEach((x, b) => e.write('tau', coord[b], x));
    d = r.derivatives(at);
  });
  const inverseOut = e.fn('w,dq,dqd', () => {
    writeMatrix(e, r, 'dq', (i, j) => d.dq.get(r.key(i, j)) ?? 0);
    writeMatrix(e, r, 'dqd', (i, j) => d.dqd.get(r.key(i, j)) ?? 0);
  });
  const forwardOut = e.fn('w,a,b,c', () => {
    const column = (m: Map<number, Sym>, j: number) => Array.from({ length: n }, (_, i): Sym => m.get(r.key(i, j)) ?? 0);
    for (const [name, m] of [
      ['a', d.dq],
      ['b', d.dqd],
    ] as const) {
      for (let j = 0; j < n; j++) {
        emitSolve(e, r, f, column(m, j), -1).forEach((x, i) => e.write(name, coord[i] * n + coord[j], x));
        e.boundary();
      }
    }
    // dqdd/dtau = M^-1: its lower triangle solved, written to both halves
    const inv = emitInverse(e, r, f);
    writeMatrix(e, r, 'c', (i, j) => (i >= j ? inv.get(r.key(i, j))! : inv.get(r.key(j, i))!));
  });
  const Mkk = f.D.map((_, b) => r.M.get(r.key(b, b))!);
  const made = withoutDeadStores([point, massOut, factor, solve, pairs, inverseOut, forwardOut, bias], [...f.D, ...Mkk]);
  const { fns, report } = compiled(made, t0);
  report.parts = { point: point.ops, bias: bias.ops, factor: factor.ops, solve: solve.ops, pairs: pairs.ops, forwardOut: forwardOut.ops };
  return {
    n,
    point: fns[0],
    massOut: fns[1],
    factor: fns[2],
    solve: fns[3],
    pairs: fns[4],
    inverseOut: fns[5],
    forwardOut: fns[6],
    bias: fns[7],
    massScale: largest(Mkk),
    pivot: pivotCheck(f.D, Mkk, coord),
    slots: e.slots,
    report,
  };
}

/** the mass matrix alone (composite-rigid-body, no velocities): (q, w, M) */
export function treeMassFunction(tree: RigidTree): { fn: Fn; slots: number; report: TreeCodeReport } {
  const t0 = performance.now();
  const e = new Emitter(),
    r = new TreeRecursions(e, tree, false);
  const mass = e.fn('q,w,M', () => {
    r.kinematics();
    r.composites();
    r.mass();
    writeMatrix(e, r, 'M', (i, j) => r.M.get(r.key(i, j)) ?? r.M.get(r.key(j, i)) ?? 0);
  });
  const { fns, report } = compiled(withoutDeadStores([mass], []), t0);
  return { fn: fns[0], slots: e.slots, report };
}
