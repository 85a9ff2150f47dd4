// Forward-mode differentiation (tangents) of straight-line code, done on the
// solve plan's symbolic assignments before they are printed: transforms a
// list of assignments v = e(s1, ..., sk) into the same list with, right
// after each v, its tangents in D directions
//   dv_d = sum over s of (de/ds) ds_d,     d = 0 .. D-1,
// the directions given as seeds (the tangents of chosen states and inputs:
// 1 and 0 for unit directions, or symbols for a direction given at run time).
// A partial de/ds is a symbolic derivative (expr/diff.ts) of one
// assignment's expression, bound to a temporary when several directions use
// it; a tangent that is zero, a constant or one symbol gets no assignment,
// so structural zeros propagate and cost nothing: in a tree only the
// descendants of a joint move with its acceleration, which keeps the
// Jacobians of Newton-Euler code O(n * depth) (Carpentier & Mansard, RSS
// 2018, get O(n^2) by hand).
//
// Why here and not on the printed IR: the plan's expressions are still
// symbolic, so the simplifier folds zeros and ones and the emitter shares
// the partials with the primal code as common subexpressions; the result is
// an ordinary list of assignments that generate() prints like any other.
//
// Glossary: D directions; seeds symbol id -> its tangent per direction;
// tangent(id) the tangent of any symbol (undefined: zero in every direction).
import { type Expr, type Sym, ZERO, add, diff, mul, symsOf } from '../expr/index.ts';
import { type Assign, Temp } from '../structure/plan-types.ts';

export interface Tangents {
  /** the assignments in order, each followed by its partials and tangents */
  readonly assigns: readonly Assign[];
  /** the tangent of a symbol per direction; undefined when it is zero in every direction */
  tangent(id: number): readonly Expr[] | undefined;
}

/** no assignment needed to reuse it: a number or one symbol */
const atomic = (e: Expr): boolean => e.op === 'const' || e.op === 'sym';

// (assignments, seeds, directions, symbol by id) => the assignments with their tangents
export function tangents(list: readonly Assign[], seeds: ReadonlyMap<number, readonly Expr[]>, D: number, symbol: (id: number) => Sym): Tangents {
  const tangent = new Map<number, readonly Expr[]>(seeds);
  const out: Assign[] = [];
  for (const a of list) {
    out.push(a);
    const moving = symsOf(a.expr).filter((id) => tangent.has(id));
    if (moving.length === 0) continue;
    // the partials by the symbols that move, each a temporary when two directions or more read it
    const partials = moving.map((id) => {
      const p = diff(a.expr, symbol(id));
      const ds = tangent.get(id)!;
      if (atomic(p) || ds.filter((d) => d !== ZERO).length < 2) return p;
      const t = new Temp(`d(${a.target.name})/d(${symbol(id).name})`);
      out.push({ target: t, expr: p });
      return t.e;
    });
    const dv = new Array<Expr>(D);
    let any = false;
    for (let d = 0; d < D; d++) {
      const terms: Expr[] = [];
      moving.forEach((id, k) => {
        const ds = tangent.get(id)![d];
        if (ds !== ZERO && partials[k] !== ZERO) terms.push(mul(partials[k], ds));
      });
      let e = terms.length === 0 ? ZERO : add(...terms);
      if (!atomic(e)) {
        const t = new Temp(`${a.target.name}'${d}`);
        out.push({ target: t, expr: e });
        e = t.e;
      }
      dv[d] = e;
      any ||= e !== ZERO;
    }
    if (any) tangent.set(a.target.id, dv);
  }
  return { assigns: out, tangent: (id) => tangent.get(id) };
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
