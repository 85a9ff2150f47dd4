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
import { type Expr, evaluate, fold } from '../expr/index.ts';
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
  if (readsNotAnalytic([...prelude.map((a) => a.expr), ...H])) return false;
  for (let point = 1; point <= POINTS; point++) {
    const value = evaluator(prelude, point);
    if (!value) return false;
    const h = H.map(value);
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < i; j++) {
        const d = Math.abs(h[i * k + j] - h[j * k + i]);
        if (!(d <= AGREE * Math.sqrt(Math.abs(h[i * k + i] * h[j * k + j])))) return false;
      }
    }
  }
  return true;
}

function readsNotAnalytic(exprs: readonly Expr[]): boolean {
  const memo = new Map<number, boolean>();
  return exprs.some((e) => fold(e, memo, (n, a) => (n.op === 'fn' && NOT_ANALYTIC.has(n.fn!)) || a.some(Boolean)));
}

/** evaluation of expressions over the prelude's temporaries, the other symbols at seeded random values in [-1, 1]; undefined if the prelude is not finite there */
function evaluator(prelude: readonly Assign[], point: number): ((e: Expr) => number) | undefined {
  const memo = new Map<number, number>();
  const temps = new Map<number, number>();
  // one memo for the whole point: the prelude's temporaries are set before anything reads them
  const value = (e: Expr) => evaluate(e, (s) => temps.get(s.id) ?? seeded(s.id, point), memo);
  for (const a of prelude) {
    const v = value(a.expr);
    if (!Number.isFinite(v)) return undefined;
    temps.set(a.target.id, v);
  }
  return value;
}

/** a value in [-1, 1] fixed by the symbol and the point: the same compile makes the same decision */
function seeded(id: number, point: number): number {
  let s = (Math.imul(id + 1, 0x9e3779b1) ^ Math.imul(point, 0x85ebca6b)) >>> 0;
  s = Math.imul(s ^ (s >>> 16), 0x7feb352d) >>> 0;
  s = Math.imul(s ^ (s >>> 15), 0x846ca68b) >>> 0;
  return ((s ^ (s >>> 16)) >>> 0) / 2147483647.5 - 1;
}
