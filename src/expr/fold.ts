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

/** a fold's work stacks: the nodes, and whether each one's arguments were pushed */
interface Stacks {
  readonly nodes: Node[];
  readonly expanded: boolean[];
}

/**
 * Stacks by nesting depth (a fold's f or leaf can fold again: diff asks
 * symsOf), reused: a fold per assignment, per derivative, per fingerprint
 * made two arrays each (a twentieth of a compile's allocation).
 */
const pool: Stacks[] = [];
let depth = 0;

/** the stacks of this depth, root pushed on them; give them back with done() */
function take(root: Expr): Stacks {
  const s = (pool[depth] ??= { nodes: [], expanded: [] });
  depth++;
  s.nodes.push(root as Node);
  s.expanded.push(false);
  return s;
}

/** back to the pool: a fold that returned left them empty (and their room kept), one that threw is emptied here */
function done(s: Stacks): void {
  depth--;
  if (s.nodes.length > 0) {
    s.nodes.length = 0;
    s.expanded.length = 0;
  }
}

// (root, memo by node id, f, leaf) => f applied bottom-up, each node once; memo is filled in place.
// A node whose leaf() is defined takes that value and its arguments are not visited.
export function fold<T>(root: Expr, memo: Map<number, T>, f: (node: Expr, args: T[]) => T, leaf?: (node: Expr) => T | undefined): T {
  const hit = memo.get(root.id);
  if (hit !== undefined) return hit;
  const s = take(root);
  try {
    return foldOn(s.nodes, s.expanded, root, memo, f, leaf);
  } finally {
    done(s);
  }
}

function foldOn<T>(
  stack: Expr[],
  expanded: boolean[],
  root: Expr,
  memo: Map<number, T>,
  f: (node: Expr, args: T[]) => T,
  leaf?: (node: Expr) => T | undefined,
): T {
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
  const s = take(root);
  try {
    return foldWeakOn(s.nodes, s.expanded, root, memo, f, leaf);
  } finally {
    done(s);
  }
}

function foldWeakOn<T>(
  stack: Expr[],
  expanded: boolean[],
  root: Expr,
  memo: WeakMap<Expr, T>,
  f: (node: Expr, args: T[]) => T,
  leaf?: (node: Expr) => T | undefined,
): T {
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
  const s = take(root);
  try {
    return foldInSlotOn(s.nodes, s.expanded, root, slot, f);
  } finally {
    done(s);
  }
}

function foldInSlotOn(
  stack: Node[],
  expanded: boolean[],
  root: Expr,
  slot: Slot,
  f: (node: Expr, args: (readonly number[])[]) => readonly number[],
): readonly number[] {
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
