// Subexpressions that several assignments of a step read, bound to
// temporaries of their own. Code generation prints each node once per
// generated function, so a node that two functions read was computed in both:
// in the relaxed chain, the dot product w . c_k of a body's centripetal term
// (a row's constant, formed early in the elimination) and of its gyroscopic
// torque (formed when the body's torque is pivoted, one function later), about
// 15 operations per body. Bound here, it is computed once and read back; a
// temporary read only in the function that computes it stays a local there
// (codegen/generate.ts), so binding costs nothing where nothing was repeated.
import { type Expr, fold, rebuild } from '../expr/index.ts';
import { modeCost, nodeOps, noOps } from './costs.ts';
import { type Assign, Temp } from './plan-types.ts';

/** nodes cheaper than this stay inline: a store and a load cost about what they would save */
const MIN_OPS = 3;

const isLeaf = (n: Expr): boolean => n.args.length === 0 || n.op === 'relax' || n.op === 'residue';

/** the cost of a node alone (nodeOps, weighed as modeCost weighs them: a pivot's reciprocal is bound too) */
function ownOps(n: Expr): number {
  const o = noOps();
  nodeOps(n, o);
  return modeCost(o);
}

/** what the walks over a step's assignments keep of a node */
interface Seen {
  /** the assignments reading it, and the first of them */
  users: number;
  first: number;
  /** the last walk that visited it (a walk visits a node once) */
  walk: number;
}

/**
 * Walks over the distinct nodes below the assignments' expressions: one
 * record per node for all of them, where a set per walk cost a set per
 * assignment.
 */
class Walks {
  readonly nodes = new Map<number, Seen>();
  private count = 0;
  /** one for all walks (each empties it): a walk per assignment, tens of thousands */
  private readonly stack: Expr[] = [];
  /** every distinct node below root (root included), each once, leaves skipped; visit returns false to skip what is below a node */
  each(root: Expr, visit: (n: Expr, seen: Seen) => boolean | void): void {
    const walk = ++this.count;
    const stack = this.stack;
    stack.push(root);
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (isLeaf(n)) continue;
      let seen = this.nodes.get(n.id);
      if (seen === undefined) this.nodes.set(n.id, (seen = { users: 0, first: -1, walk: 0 }));
      else if (seen.walk === walk) continue;
      seen.walk = walk;
      if (visit(n, seen) === false) continue; // not below this one
      for (const a of n.args) stack.push(a);
    }
  }
}

// (assignments in order, name prefix) => the same values, shared subexpressions bound to temporaries
export function bindShared(assigns: readonly Assign[], prefix: string): Assign[] {
  // the assignments reading each node, and the first of them
  const walks = new Walks();
  // the visits read the assignment's index k: one function for all walks, not one per assignment
  let k = 0;
  const count = (_: Expr, seen: Seen): void => {
    seen.users++;
    if (seen.first < 0) seen.first = k;
  };
  for (k = 0; k < assigns.length; k++) walks.each(assigns[k].expr, count);
  // operations and height of each node's tree (an estimate: shared parts counted twice)
  const cost = new Map<number, number>();
  const height = new Map<number, number>();
  const costOf = (e: Expr): number => fold(e, cost, (n, args) => ownOps(n) + args.reduce((s, x) => s + x, 0));
  const heightOf = (e: Expr): number => fold(e, height, (_, args) => 1 + Math.max(0, ...args));
  // top-down in each assignment, the first shared node met on a path is bound; below it, its own assignment decides
  const bound = new Map<number, { node: Expr; temp: Temp }>();
  // the assignments that read a bound node below their own: only they are rewritten
  const reading = new Set<number>();
  const bind = (n: Expr, seen: Seen): boolean => {
    if (n === assigns[k].expr) return true; // computed by this assignment
    if (!bound.has(n.id)) {
      if (seen.users < 2 || costOf(n) < MIN_OPS) return true;
      bound.set(n.id, { node: n, temp: new Temp(`${prefix}shared`) });
    }
    reading.add(k);
    return false; // read from its temporary
  };
  for (k = 0; k < assigns.length; k++) walks.each(assigns[k].expr, bind);
  if (bound.size === 0) return [...assigns];
  // each expression with the bound nodes below it read from their temporaries
  const memo = new Map<number, Expr>();
  const same = (n: Expr, args: readonly Expr[]) => args.every((x, i) => x === n.args[i]);
  const rewrite = (e: Expr): Expr =>
    fold(
      e,
      memo,
      (n, args) => (same(n, args) ? n : rebuild(n, args)),
      (n) => bound.get(n.id)?.temp.e,
    );
  const own = (e: Expr): Expr => {
    if (isLeaf(e)) return e;
    const args = e.args.map(rewrite);
    return same(e, args) ? e : rebuild(e, args);
  };
  // a bound node is computed just before its first reader, inner ones before outer ones
  const before = new Map<number, { node: Expr; temp: Temp }[]>();
  for (const b of bound.values()) {
    const k = walks.nodes.get(b.node.id)!.first;
    if (!before.has(k)) before.set(k, []);
    before.get(k)!.push(b);
  }
  const out: Assign[] = [];
  assigns.forEach((a, k) => {
    for (const b of (before.get(k) ?? []).sort((x, y) => heightOf(x.node) - heightOf(y.node))) out.push({ target: b.temp, expr: own(b.node) });
    const expr = bound.has(a.expr.id) ? bound.get(a.expr.id)!.temp.e : reading.has(k) ? own(a.expr) : a.expr;
    out.push(a.pivot ? { target: a.target, expr, pivot: true } : { target: a.target, expr });
  });
  return out;
}
