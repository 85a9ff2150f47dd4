// Is a torn H symmetric as a function, though its two triangles are
// different expressions? The relaxed elimination with the qdd kept forms a
// mass matrix's H_ij and H_ji along two paths (the force of body j's
// acceleration carried to joint i, and the other way round), so the planner
// cannot see the symmetry in the expressions. Both triangles are evaluated at
// a few random points of every symbol they read: expressions that agree there
// to rounding are the same function (the randomised identity test of
// Schwartz and Zippel, for the polynomials in sines and cosines a mechanism's
// H is). Then only one triangle needs forming at run time: Featherstone's
// CRBA forms H_ij for i >= j only.
import { type Expr, FUNCTIONS } from '../expr/index.ts';
import type { Assign } from './plan-types.ts';

/** random points to evaluate at, and the agreement required, relative to sqrt(H_ii H_jj) as choleskySolve scales */
const POINTS = 3;
const AGREE = 1e-10;

/**
 * Functions that are not analytic where they are defined (a kink, a jump, a
 * branch cut): two expressions can agree on a half-space and differ on the
 * other (sqrt(x^2) and x, |x| and x), where a few random points may all fall
 * on one side. The identity test holds only without them; an H that reads one
 * keeps forming both triangles and its run-time symmetry test.
 */
const NOT_ANALYTIC = new Set(['abs', 'sign', 'max', 'min', 'sqrt', 'atan2']);

// (prelude, H row-major k x k) => whether H_ij = H_ji at every point tried
export function symmetricByValue(prelude: readonly Assign[], H: readonly Expr[], k: number): boolean {
  const at = new Points();
  for (const a of prelude) at.setTemp(a.target.id, at.index(a.expr));
  const h = H.map((e) => at.index(e));
  if (at.notAnalytic) return false;
  const v = at.values;
  for (let point = 0; point < POINTS; point++) {
    // a prelude that is not finite at a point: no verdict there, so none at all
    for (const a of prelude) if (!Number.isFinite(v[at.index(a.expr) * POINTS + point])) return false;
    const of = (i: number, j: number) => v[h[i * k + j] * POINTS + point];
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < i; j++) {
        const d = Math.abs(of(i, j) - of(j, i));
        if (!(d <= AGREE * Math.sqrt(Math.abs(of(i, i) * of(j, j))))) return false;
      }
    }
  }
  return true;
}

/**
 * The expressions' values at all POINTS at once, in one walk over the DAG
 * (one per point through evaluate() and a Map of boxed numbers, and another
 * for the non-analytic functions, were a third of forming a torn H): node i
 * of the walk holds values[i * POINTS + point]. The arithmetic is evaluate()'s,
 * term by term in the same order, so every value is the same double. A
 * prelude temporary reads its value from the point it is set on (before
 * anything reads it), any other symbol a seeded random value in [-1, 1].
 */
class Points {
  values = new Float64Array(POINTS * 1024);
  /** a node's function is not analytic (NOT_ANALYTIC): the identity test does not hold */
  notAnalytic = false;
  private readonly slot = new Map<number, number>();
  private readonly temps = new Map<number, number>();
  private size = 0;
  private readonly stack: Expr[] = [];
  private readonly expanded: boolean[] = [];
  /** an argument's first value, per argument of the node being computed */
  private args: number[] = [];

  /** the temporary sym id now holds the values of node slot `from` */
  setTemp(id: number, from: number): void {
    this.temps.set(id, from);
  }

  /** e's slot, its values computed (and those of everything below it) */
  index(e: Expr): number {
    const hit = this.slot.get(e.id);
    if (hit !== undefined) return hit;
    const { stack, expanded } = this;
    stack.push(e);
    expanded.push(false);
    while (stack.length > 0) {
      const top = stack.length - 1;
      const n = stack[top];
      if (!expanded[top]) {
        if (this.slot.has(n.id)) {
          stack.pop();
          expanded.pop();
          continue;
        }
        expanded[top] = true;
        for (let i = n.args.length - 1; i >= 0; i--) if (!this.slot.has(n.args[i].id)) (stack.push(n.args[i]), expanded.push(false));
        continue;
      }
      stack.pop();
      expanded.pop();
      this.slot.set(n.id, this.compute(n));
    }
    return this.slot.get(e.id)!;
  }

  // no closures here: tsx names every closure it makes, a call per node
  private compute(n: Expr): number {
    const at = this.size++;
    if (this.values.length < this.size * POINTS) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    const v = this.values,
      o = at * POINTS,
      args = this.args;
    for (let i = 0; i < n.args.length; i++) args[i] = this.slot.get(n.args[i].id)! * POINTS;
    if (n.op === 'fn' && NOT_ANALYTIC.has(n.fn!)) this.notAnalytic = true;
    for (let point = 0; point < POINTS; point++) {
      let x = 0;
      switch (n.op) {
        case 'const':
          x = n.value;
          break;
        case 'sym': {
          const t = this.temps.get(n.sym!.id);
          x = t === undefined ? seeded(n.sym!.id, point + 1) : v[t * POINTS + point];
          break;
        }
        case 'add':
          for (let i = 0; i < n.args.length; i++) x += v[args[i] + point];
          break;
        case 'mul':
          x = 1;
          for (let i = 0; i < n.args.length; i++) x *= v[args[i] + point];
          break;
        case 'div':
          x = v[args[0] + point] / v[args[1] + point];
          break;
        case 'pow':
          x = v[args[0] + point] ** n.value;
          break;
        case 'fn': {
          const f = FUNCTIONS[n.fn!].eval;
          x = n.args.length === 1 ? f(v[args[0] + point]) : f(v[args[0] + point], v[args[1] + point]);
          break;
        }
        case 'relax':
          x = v[args[0] + point];
          break;
        case 'residue':
          break;
      }
      v[o + point] = x;
    }
    return at;
  }
}

/** a value in [-1, 1] fixed by the symbol and the point: the same compile makes the same decision */
export function seeded(id: number, point: number): number {
  let s = (Math.imul(id + 1, 0x9e3779b1) ^ Math.imul(point, 0x85ebca6b)) >>> 0;
  s = Math.imul(s ^ (s >>> 16), 0x7feb352d) >>> 0;
  s = Math.imul(s ^ (s >>> 15), 0x846ca68b) >>> 0;
  return ((s ^ (s >>> 16)) >>> 0) / 2147483647.5 - 1;
}
