// Symbolic differentiation with memoisation: d e / d v, one memo per variable,
// so differentiating many equations by the same variable shares the work.
import type { Expr, Sym } from './node.ts';
import { ExprError, localMemo } from './node.ts';
import { ONE, ZERO, add, call, cos, div, mul, neg, num, pow, sin, sqrt, step, sub } from './build.ts';
import { fold, foldWeak } from './fold.ts';
import { dependsOn, symsOf } from './analysis.ts';

/** differentiation by one variable: its memo, and the fold's two functions made once, not per call */
interface ByVariable {
  /**
   * weak outside a compile; inside, by node id: the compile's table holds its
   * nodes until it returns anyway, and a WeakMap's entries are ephemerons the
   * collector traces one by one (the RC grid's compile made one per variable)
   */
  readonly memo: WeakMap<Expr, Expr> | Map<number, Expr>;
  readonly rule: (n: Expr, d: Expr[]) => Expr;
  readonly free: (n: Expr) => Expr | undefined;
}

// weak both ways: a memo lives as long as its variable, an entry as long as its node;
// inside a compile, the compile's own (node.ts, localMemo)
const shared = new WeakMap<Sym, ByVariable>();
const fresh = () => new WeakMap<Sym, ByVariable>();

function byVariable(v: Sym, inCompile: boolean): ByVariable {
  return {
    memo: inCompile ? new Map() : new WeakMap(),
    rule: (n, d) => derivative(n, d, (s) => (s.id === v.id ? ONE : ZERO)),
    // a subexpression free of v differentiates to ZERO exactly (every rule below folds to it): not visited
    free: (n) => (dependsOn(n, v.id) ? undefined : ZERO),
  };
}

// (e, v) => d e / d v, simplified
export function diff(e: Expr, v: Sym): Expr {
  const memos = localMemo(shared, fresh);
  let by = memos.get(v);
  if (!by) memos.set(v, (by = byVariable(v, memos !== shared)));
  return by.memo instanceof Map ? fold(e, by.memo, by.rule, by.free) : foldWeak(e, by.memo, by.rule, by.free);
}

// (e, the tangent of each symbol) => the directional derivative of e: sum over its symbols s of de/ds times
// s's tangent, by the chain rule node by node (forward mode), so that e's nesting is kept: a product
// (a + b)(c + d) differentiates to (a' + b')(c + d) + (a + b)(c' + d'), not one partial per symbol.
// `moves` says which symbols have a tangent (the others are constants): a subexpression of none is zero.
export function along(e: Expr, tangent: (s: Sym) => Expr, moves: (id: number) => boolean): Expr {
  return fold(
    e,
    new Map<number, Expr>(),
    (n, d) => derivative(n, d, tangent),
    (n) => (symsOf(n).some(moves) ? undefined : ZERO),
  );
}

function derivative(n: Expr, d: Expr[], tangent: (s: Sym) => Expr): Expr {
  const a = n.args;
  switch (n.op) {
    case 'const':
      return ZERO;
    case 'sym':
      return tangent(n.sym!);
    case 'add':
      return add(...d);
    case 'mul':
      return add(...d.map((di, i) => (di === ZERO ? ZERO : mul(di, ...a.filter((_, j) => j !== i)))));
    case 'div': // (u/w)' = u'/w - u w'/w^2
      return sub(div(d[0], a[1]), div(mul(a[0], d[1]), pow(a[1], 2)));
    case 'pow':
      return mul(n.value, pow(a[0], n.value - 1), d[0]);
    case 'relax':
      return d[0];
    case 'residue':
      return ZERO;
    case 'fn':
      return d.every((x) => x === ZERO) ? ZERO : chainRule(n, d);
  }
}

function chainRule(n: Expr, d: Expr[]): Expr {
  const x = n.args[0];
  const dx = d[0];
  switch (n.fn!) {
    case 'sin':
      return mul(cos(x), dx);
    case 'cos':
      return neg(mul(sin(x), dx));
    case 'tan':
      return mul(add(1, pow(n, 2)), dx);
    case 'asin':
      return div(dx, sqrt(sub(1, pow(x, 2))));
    case 'acos':
      return neg(div(dx, sqrt(sub(1, pow(x, 2)))));
    case 'atan':
      return div(dx, add(1, pow(x, 2)));
    case 'atan2': {
      // atan2(Y, X)' = (X Y' - Y X') / (X^2 + Y^2)
      const [Y, X] = n.args;
      return div(sub(mul(X, d[0]), mul(Y, d[1])), add(pow(X, 2), pow(Y, 2)));
    }
    case 'sqrt':
      return div(dx, mul(2, n));
    case 'exp':
      return mul(n, dx);
    case 'log':
      return div(dx, x);
    case 'abs':
      return mul(call('sign', x), dx);
    case 'sign':
      return num(0);
    case 'sinh':
      return mul(call('cosh', x), dx);
    case 'cosh':
      return mul(call('sinh', x), dx);
    case 'tanh':
      return mul(sub(1, pow(n, 2)), dx);
    case 'max': // max(a, b)' = step(a - b) a' + step(b - a) b' (1/2 each where a = b)
    case 'min': {
      // min(a, b)' = step(b - a) a' + step(a - b) b'
      const [a, b] = n.args;
      const s = n.fn === 'max' ? 1 : -1;
      return add(mul(step(mul(s, sub(a, b))), d[0]), mul(step(mul(s, sub(b, a))), d[1]));
    }
  }
  throw new ExprError(`no derivative rule for ${n.fn}`);
}
