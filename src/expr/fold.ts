// Iterative post-order folding over the expression DAG: every analysis
// (differentiation, substitution, evaluation, free symbols) is a fold with a
// memo keyed by node id, so shared subexpressions are visited once and deep
// expressions never overflow the call stack.
import type { Expr } from './node.ts';

// (root, memo, f) => f applied bottom-up, each node once; memo is filled in place
export function fold<T>(root: Expr, memo: Map<number, T>, f: (node: Expr, args: T[]) => T): T {
  const hit = memo.get(root.id);
  if (hit !== undefined) return hit;
  const stack: Expr[] = [root];
  const expanded: boolean[] = [false];
  while (stack.length > 0) {
    const top = stack.length - 1;
    const node = stack[top];
    if (memo.has(node.id)) {
      stack.pop();
      expanded.pop();
      continue;
    }
    if (!expanded[top]) {
      expanded[top] = true;
      for (let i = node.args.length - 1; i >= 0; i--) {
        if (!memo.has(node.args[i].id)) {
          stack.push(node.args[i]);
          expanded.push(false);
        }
      }
      continue;
    }
    stack.pop();
    expanded.pop();
    memo.set(node.id, f(node, node.args.map((a) => memo.get(a.id) as T)));
  }
  return memo.get(root.id) as T;
}
