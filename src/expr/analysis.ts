// Structural questions about expressions: which symbols occur (incidence),
// substitution, numeric evaluation, and linear-coefficient extraction.
import { type Expr, type Node, type Sym, hasResidue } from './node.ts';
import { add, call, div, mul, num, pow, relax, residue } from './build.ts';
import { fold, foldInSlot } from './fold.ts';
import { diff } from './diff.ts';
import { FUNCTIONS } from './functions.ts';

/** a node's symbol ids, ascending; shared between nodes, never changed */
export type SymIds = readonly number[];

const EMPTY: SymIds = [];
const ascending = (a: number, b: number) => a - b;

// (ascending lists) => their ascending union; an argument's own list when the union is that argument
// (c*x, x + y*x: nodes share it). Plain arrays: a small Int32Array costs ~180 bytes with its
// ArrayBuffer, an array of small integers ~30.
function mergeSorted(lists: readonly SymIds[]): SymIds {
  if (lists.length > FEW_LISTS) return mergeMany(lists);
  let union = EMPTY;
  for (const l of lists) union = union2(union, l);
  return union;
}

/** lists merged pairwise up to this many (a node's arguments); more are sorted together */
const FEW_LISTS = 8;

/** a ∪ b, or a or b itself when it holds the other */
function union2(a: SymIds, b: SymIds): SymIds {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  let i = 0,
    j = 0,
    n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i],
      y = b[j];
    n++;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  n += a.length - i + b.length - j;
  if (n === a.length) return a;
  if (n === b.length) return b;
  const out = new Array<number>(n);
  i = j = n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i],
      y = b[j];
    out[n++] = x <= y ? x : y;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  while (i < a.length) out[n++] = a[i++];
  while (j < b.length) out[n++] = b[j++];
  return out;
}

function mergeMany(lists: readonly SymIds[]): SymIds {
  let widest = EMPTY;
  for (const l of lists) if (l.length > widest.length) widest = l;
  const all = lists.flat().sort(ascending);
  let w = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[w++] = all[i];
  all.length = w;
  return w === widest.length ? widest : all;
}

/** ids of the symbols occurring in e (residue() occurrences do not count: they are 0), ascending */
export function symsOf(e: Expr): SymIds {
  return foldInSlot(e, 'syms', (n, args) => symIds(n, args, false));
}

/** like symsOf, but occurrences inside relax() are invisible (relaxed incidence) */
export function unrelaxedSymsOf(e: Expr): SymIds {
  return foldInSlot(e, 'unrelaxedSyms', (n, args) => symIds(n, args, true));
}

function symIds(n: Expr, args: readonly SymIds[], skipRelaxed: boolean): SymIds {
  if (n.op === 'sym') return [n.sym!.id];
  if (n.op === 'residue' || (skipRelaxed && n.op === 'relax')) return EMPTY;
  return mergeSorted(args);
}

export function dependsOn(e: Expr, symId: number): boolean {
  const ids = symsOf(e);
  let lo = 0,
    hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] === symId) return true;
    if (ids[mid] < symId) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** rebuild a node from new arguments through the simplifying constructors */
export function rebuild(n: Expr, args: Expr[]): Expr {
  switch (n.op) {
    case 'const':
    case 'sym':
      return n;
    case 'add':
      return add(...args);
    case 'mul':
      return mul(...args);
    case 'div':
      return div(args[0], args[1]);
    case 'pow':
      return pow(args[0], n.value);
    case 'fn':
      return call(n.fn!, ...args);
    case 'relax':
      return relax(args[0]);
    case 'residue':
      return residue(args[0]);
  }
}

/**
 * A replacement map's work so far: the results, and the fold's functions,
 * made once for the map (at its present size), not per call.
 */
interface Substitution {
  size: number;
  memo: Map<number, Expr>;
  step: (n: Expr, args: Expr[]) => Expr;
  /** untouched(): a node without replaced symbols is itself */
  leaf: (n: Expr) => Expr | undefined;
  /** leaf reads the symbols analyses have listed: usable only below a root that has them */
  listedOnly: boolean;
}

/** per replacement map, the results so far: calls with one map share their subexpressions */
const substituted = new WeakMap<Map<number, Expr>, Substitution>();

// (e, symbol id -> replacement) => e with the symbols replaced, simplified.
// Calls with the same map share their work (flattening substitutes every
// equation with one map of parameter values); a map may gain entries between
// calls (the results are then recomputed), but must not change them.
export function substitute(e: Expr, replace: Map<number, Expr>): Expr {
  let s = substituted.get(replace);
  if (!s || s.size !== replace.size) substituted.set(replace, (s = substitution(replace)));
  // listed for the root means listed for every node below it (symsOf fills them all)
  return fold(e, s.memo, s.step, s.listedOnly && (e as Node).syms === undefined ? undefined : s.leaf);
}

function substitution(replace: Map<number, Expr>): Substitution {
  return {
    size: replace.size,
    memo: new Map(),
    step: (n, args) => (n.op === 'sym' ? (replace.get(n.sym!.id) ?? n) : sameArgs(n, args) ? n : rebuild(n, args)),
    leaf: untouched(replace),
    listedOnly: replace.size > FEW,
  };
}

/**
 * A node whose arguments all came back unchanged is itself: rebuilding it
 * through the constructors would look up its own arguments again (and the
 * parts a sum splits off its terms) only to find the same node.
 */
function sameArgs(n: Expr, args: readonly Expr[]): boolean {
  for (let i = 0; i < args.length; i++) if (args[i] !== n.args[i]) return false;
  return true;
}

/** replacement maps this small are checked against each node's symbols before it is visited */
const FEW = 4;
/** longer symbol lists are not scanned: the node is visited */
const SCAN = 32;

/**
 * A subexpression without replaced symbols is itself: the constructors are
 * idempotent on the nodes they made, so rebuilding it would return it after
 * a walk through all of it. A few replaced symbols are looked up in each
 * node's symbols; a larger map is checked only where an analysis has listed
 * a node's symbols already (listing them here would cost what it saves).
 */
function untouched(replace: Map<number, Expr>): (n: Expr) => Expr | undefined {
  if (replace.size <= FEW) {
    const keys = [...replace.keys()];
    return (n) => {
      for (let i = 0; i < keys.length; i++) if (dependsOn(n, keys[i])) return undefined;
      return n;
    };
  }
  return (n) => {
    const syms = (n as Node).syms!;
    if (syms.length > SCAN) return undefined;
    for (let i = 0; i < syms.length; i++) if (replace.has(syms[i])) return undefined;
    return n;
  };
}

/** e with every residue(x) replaced by 0, and the x's collected */
export function stripResidues(e: Expr): { expr: Expr; residues: Expr[] } {
  const residues: Expr[] = [];
  const memo = new Map<number, Expr>();
  // a subexpression without residue() is itself (see substitute): only the paths to residues are rebuilt
  const untouched = (n: Expr) => (hasResidue(n) ? undefined : n);
  const expr = fold(
    e,
    memo,
    (n, args) => {
      if (n.op !== 'residue') return rebuild(n, args);
      residues.push(n.args[0]);
      return num(0);
    },
    untouched,
  );
  return { expr, residues };
}

export type SymValues = (s: Sym) => number;

// (e, values of symbols[, memo shared by several evaluations at the same values]) => number; residue() is 0, relax(x) is x
export function evaluate(e: Expr, value: SymValues, memo = new Map<number, number>()): number {
  return fold(e, memo, (n, a) => {
    switch (n.op) {
      case 'const':
        return n.value;
      case 'sym':
        return value(n.sym!);
      case 'add':
        return a.reduce((s, x) => s + x, 0);
      case 'mul':
        return a.reduce((s, x) => s * x, 1);
      case 'div':
        return a[0] / a[1];
      case 'pow':
        return a[0] ** n.value;
      case 'fn':
        return FUNCTIONS[n.fn!].eval(...a);
      case 'relax':
        return a[0];
      case 'residue':
        return 0;
    }
  });
}

export interface LinearForm {
  /** coefficient of v: e = a*v + b */
  a: Expr;
  b: Expr;
}

// (e, v) => { a, b } with e = a*v + b and a, b free of v; null if e is not linear in v
export function linearIn(e: Expr, v: Sym): LinearForm | null {
  if (!dependsOn(e, v.id)) return { a: num(0), b: e };
  const a = diff(e, v);
  if (dependsOn(a, v.id)) return null;
  const b = substitute(e, new Map([[v.id, num(0)]]));
  if (dependsOn(b, v.id)) return null; // v inside a function that vanishes at 0, e.g. v*sin(v)
  return { a, b };
}
