// Scalar expressions as a hash-consed DAG: one node per distinct expression.
//
// Glossary
//   Expr   an immutable node; structurally equal expressions are the same object
//          (same `id`), so `a === b` is expression equality and maps can be keyed by id.
//   Sym    anything an expression can refer to by name: model variables,
//          parameters, time. Identified by a global integer id.
//   op     const | sym | add | mul | div | pow | fn | relax | residue
//          add and mul are n-ary and canonical (flattened, constants folded,
//          like terms/factors merged, operands sorted by id); pow has a
//          positive integer exponent in `value`; div is binary.
//   relax  relax(x) evaluates as x; sorting in relaxed mode ignores the
//          occurrence (relaxing paper section 4).
//   residue residue(x) evaluates as 0; it marks x as a tearing variable and the
//          equation holding it as a residue equation (tearing paper,
//          "Tearing information in the model").

export interface Sym {
  readonly id: number;
  readonly name: string;
}

export type Op = 'const' | 'sym' | 'add' | 'mul' | 'div' | 'pow' | 'fn' | 'relax' | 'residue';

export type FnName =
  | 'sin' | 'cos' | 'tan' | 'asin' | 'acos' | 'atan' | 'atan2'
  | 'sqrt' | 'exp' | 'log' | 'abs' | 'sign' | 'sinh' | 'cosh' | 'tanh';

export interface Expr {
  readonly id: number;
  readonly op: Op;
  readonly args: readonly Expr[];
  /** constant value for 'const', integer exponent for 'pow', 0 otherwise */
  readonly value: number;
  readonly fn?: FnName;
  readonly sym?: Sym;
}

export class ExprError extends Error {
  override name = 'ExprError';
}

let nextExprId = 0;
let nextSymId = 0;
const table = new Map<string, Expr>();

/** A fresh symbol id; every Sym in the process must take its id from here. */
export function newSymId(): number {
  return nextSymId++;
}

/** Number of distinct expression nodes created so far (for benchmarks). */
export function exprCount(): number {
  return nextExprId;
}

// (op, args, value, fn, sym) => the unique node with that content
export function intern(op: Op, args: readonly Expr[], value = 0, fn?: FnName, sym?: Sym): Expr {
  let key = op + '|' + value;
  if (fn) key += '|' + fn;
  if (sym) key += '|s' + sym.id;
  for (const a of args) key += ',' + a.id;
  const found = table.get(key);
  if (found) return found;
  const node: Expr = { id: nextExprId++, op, args, value, fn, sym };
  table.set(key, node);
  return node;
}

export function isConst(e: Expr, c?: number): boolean {
  return e.op === 'const' && (c === undefined || e.value === c);
}
