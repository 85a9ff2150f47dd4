// Forward-mode differentiation (tangents) of straight-line code, done on the
// solve plan's symbolic assignments before they are printed: transforms a
// list of assignments v = e(s1, ..., sk) into the same list with, right
// after each v, its tangents in D directions
//   dv_d = sum over s of (de/ds) ds_d,     d = 0 .. D-1,
// the directions given as seeds (the tangents of chosen states and inputs:
// 1 and 0 for unit directions, or symbols for a direction given at run time).
// An assignment that moves in many directions is differentiated by its
// partials de/ds (expr/diff.ts diff), each bound to a temporary when several
// directions use it; one that moves in one or two, along each direction by
// the chain rule node by node (diff.ts along), which keeps its nesting. A
// tangent that is zero, a constant or one symbol gets no assignment, so
// structural zeros propagate and cost nothing: in a tree only a joint's
// subtree moves with its acceleration, and only the subtree and the path to
// the root with its angle, which keeps the Jacobians of Newton-Euler code
// O(n * depth), O(n^2) for a chain as Carpentier & Mansard's (RSS 2018).
//
// Why here and not on the printed IR: the plan's expressions are still
// symbolic, so the simplifier folds zeros and ones and the emitter shares
// the partials with the primal code as common subexpressions; the result is
// an ordinary list of assignments that generate() prints like any other.
//
// Glossary: D directions; seeds symbol id -> its tangent per direction;
// tangent(id) the tangent of any symbol (undefined: zero in every direction).
import { type Expr, type Sym, ZERO, add, along, diff, mul, symsOf } from '../expr/index.ts';
import { type Assign, Temp } from '../structure/plan-types.ts';

export interface Tangents {
  /** the assignments in order, each followed by its partials and tangents */
  readonly assigns: readonly Assign[];
  /** the tangent of a symbol per direction; undefined when it is zero in every direction */
  tangent(id: number): readonly Expr[] | undefined;
  /** every symbol's tangents after the list: the seeds of a list that follows (plan-tangents.ts) */
  readonly map: ReadonlyMap<number, readonly Expr[]>;
}

/** no assignment needed to reuse it: a number or one symbol */
const atomic = (e: Expr): boolean => e.op === 'const' || e.op === 'sym';
const isZero = (e: Expr): boolean => e.op === 'const' && e.value === 0;
/**
 * An assignment that moves in at most this many directions is differentiated
 * along each (expr/diff.ts along), else by its partials: one direction costs
 * the PUMA's tangent of ID 2988 operations along, 4080 by partials; with 2n
 * directions (dID/dq, dID/dqd) partials are 7841, along 10163.
 */
const ALONG = 2;

// (assignments, seeds, directions, symbol by id) => the assignments with their tangents
export function tangents(list: readonly Assign[], seeds: ReadonlyMap<number, readonly Expr[]>, D: number, symbol: (id: number) => Sym): Tangents {
  const tangent = new Map<number, readonly Expr[]>(seeds);
  const out: Assign[] = [];
  // few directions: each by the chain rule along the expression (its nesting kept)
  const alongEach = (a: Assign, directions: readonly number[]) =>
    directions.map((d) =>
      along(
        a.expr,
        (s) => tangent.get(s.id)?.[d] ?? ZERO,
        (id) => tangent.has(id) && !isZero(tangent.get(id)![d]),
      ),
    );
  // many: the partials de/ds once, each a temporary when two directions or more read it, then sum de/ds ds_d
  const byPartials = (a: Assign, moving: readonly number[], directions: readonly number[]) => {
    const partials = moving.map((id) => {
      const p = diff(a.expr, symbol(id));
      const ds = tangent.get(id)!;
      if (atomic(p) || directions.filter((d) => !isZero(ds[d])).length < 2) return p;
      const t = new Temp(`d(${a.target.name})/d(${symbol(id).name})`);
      out.push({ target: t, expr: p });
      return t.e;
    });
    return directions.map((d) => {
      const terms: Expr[] = [];
      moving.forEach((id, k) => {
        const ds = tangent.get(id)![d];
        if (!isZero(ds) && !isZero(partials[k])) terms.push(mul(partials[k], ds));
      });
      return terms.length === 0 ? ZERO : add(...terms);
    });
  };
  for (const a of list) {
    out.push(a);
    const moving = symsOf(a.expr).filter((id) => tangent.has(id));
    if (moving.length === 0) continue;
    const live = (d: number) => moving.some((id) => !isZero(tangent.get(id)![d]));
    const directions = Array.from({ length: D }, (_, d) => d).filter(live);
    const dv = directions.length <= ALONG ? alongEach(a, directions) : byPartials(a, moving, directions);
    const all = new Array<Expr>(D).fill(ZERO);
    let any = false;
    directions.forEach((d, k) => {
      let e = dv[k];
      if (!atomic(e)) {
        const t = new Temp(`${a.target.name}'${d}`);
        out.push({ target: t, expr: e });
        e = t.e;
      }
      all[d] = e;
      any ||= !isZero(e);
    });
    if (any) tangent.set(a.target.id, all);
  }
  return { assigns: out, tangent: (id) => tangent.get(id), map: tangent };
}

// (assignments in order, what must be computed) => the assignments those need, in order
export function needed(list: readonly Assign[], roots: readonly Expr[]): Assign[] {
  const need = new Set<number>();
  for (const r of roots) for (const id of symsOf(r)) need.add(id);
  const keep: Assign[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const a = list[i];
    if (!need.has(a.target.id)) continue;
    keep.push(a);
    for (const id of symsOf(a.expr)) need.add(id);
  }
  return keep.reverse();
}
