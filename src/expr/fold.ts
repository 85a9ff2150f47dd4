// Iterative post-order folding over the expression DAG: every analysis
// (differentiation, substitution, evaluation, free symbols) is a fold with a
// memo, so shared subexpressions are visited once and deep expressions never
// overflow the call stack. A memo for one task is a Map keyed by node id; a
// memo that outlives the task is a WeakMap keyed by the node (derivatives)
// or a slot on the node itself (free symbols), so that it never keeps a node
// alive. The three are the same loop, written out: the hot path of compiling
// (codegen/emitter.ts Scope.value and codegen/share.ts Shapes.of write it out
// once more each, to keep a call and an array per node off the code generator).
import type { Expr, Node, Slot } from './node.ts';

// (root, memo by node id, f, leaf) => f applied bottom-up, each node once; memo is filled in place.
// A node whose leaf() is defined takes that value and its arguments are not visited.
export function fold<T>(root: Expr, memo: Map<number, T>, f: (node: Expr, args: T[]) => T, leaf?: (node: Expr) => T | undefined): T {
  const hit = memo.get(root.id);
  if (hit !== undefined) return hit;
  const stack: Expr[] = [root];
  const expanded: boolean[] = [false];
  while (stack.length > 0) {
    const top = stack.length - 1;
    const node = stack[top];
    if (!expanded[top]) {
      // a node pushed twice (two parents below one another) is folded by the later push
      if (memo.has(node.id)) {
        stack.pop();
        expanded.pop();
        continue;
      }
      const l = leaf?.(node);
      if (l !== undefined) {
        memo.set(node.id, l);
        continue;
      }
      expanded[top] = true;
      for (let i = node.args.length - 1; i >= 0; i--) {
        if (!memo.has(node.args[i].id)) {
          stack.push(node.args[i]);
          expanded.push(false);
        }
      }
      continue;
    }
    // expanded: everything above it was below it, so it cannot have been folded meanwhile
    stack.pop();
    expanded.pop();
    const args = new Array<T>(node.args.length);
    for (let i = 0; i < args.length; i++) args[i] = memo.get(node.args[i].id) as T;
    const value = f(node, args);
    memo.set(node.id, value);
    if (stack.length === 0) return value;
  }
  return memo.get(root.id) as T;
}

// like fold, with a memo that holds its entries only while their nodes live
export function foldWeak<T>(root: Expr, memo: WeakMap<Expr, T>, f: (node: Expr, args: T[]) => T, leaf?: (node: Expr) => T | undefined): T {
  const hit = memo.get(root);
  if (hit !== undefined) return hit;
  const stack: Expr[] = [root];
  const expanded: boolean[] = [false];
  while (stack.length > 0) {
    const top = stack.length - 1;
    const node = stack[top];
    if (!expanded[top]) {
      // a node pushed twice (two parents below one another) is folded by the later push
      if (memo.has(node)) {
        stack.pop();
        expanded.pop();
        continue;
      }
      const l = leaf?.(node);
      if (l !== undefined) {
        memo.set(node, l);
        continue;
      }
      expanded[top] = true;
      for (let i = node.args.length - 1; i >= 0; i--) {
        if (!memo.has(node.args[i])) {
          stack.push(node.args[i]);
          expanded.push(false);
        }
      }
      continue;
    }
    // expanded: everything above it was below it, so it cannot have been folded meanwhile
    stack.pop();
    expanded.pop();
    const args = new Array<T>(node.args.length);
    for (let i = 0; i < args.length; i++) args[i] = memo.get(node.args[i]) as T;
    const value = f(node, args);
    memo.set(node, value);
    if (stack.length === 0) return value;
  }
  return memo.get(root) as T;
}

// like fold, memoised in a slot of every node (node.ts: Node)
export function foldInSlot(root: Expr, slot: Slot, f: (node: Expr, args: (readonly number[])[]) => readonly number[]): readonly number[] {
  const hit = (root as Node)[slot];
  if (hit !== undefined) return hit;
  const stack: Node[] = [root as Node];
  const expanded: boolean[] = [false];
  while (stack.length > 0) {
    const top = stack.length - 1;
    const node = stack[top];
    if (!expanded[top]) {
      // a node pushed twice (two parents below one another) is folded by the later push
      if (node[slot] !== undefined) {
        stack.pop();
        expanded.pop();
        continue;
      }
      expanded[top] = true;
      for (let i = node.args.length - 1; i >= 0; i--) {
        const a = node.args[i] as Node;
        if (a[slot] === undefined) {
          stack.push(a);
          expanded.push(false);
        }
      }
      continue;
    }
    // expanded: everything above it was below it, so it cannot have been folded meanwhile
    stack.pop();
    expanded.pop();
    const args = new Array<readonly number[]>(node.args.length);
    for (let i = 0; i < args.length; i++) args[i] = (node.args[i] as Node)[slot]!;
    node[slot] = f(node, args);
  }
  return (root as Node)[slot]!;
}
