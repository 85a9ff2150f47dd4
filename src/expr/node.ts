// Scalar expressions as a hash-consed DAG: one node per distinct expression.
//
// Glossary
//   Expr   an immutable node; structurally equal expressions are the same object
//          (same `id`), so `a === b` is expression equality and maps can be keyed by id.
//          "Equal" covers every node a compile sees: those made before it and
//          its own (see the intern tables below); ids are never reused.
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
  'sin' | 'cos' | 'tan' | 'asin' | 'acos' | 'atan' | 'atan2' | 'sqrt' | 'exp' | 'log' | 'abs' | 'sign' | 'sinh' | 'cosh' | 'tanh' | 'max' | 'min';

/** a node of the expression graph: interned, so equal expressions are one node (compare ids) */
export interface Expr {
  /** unique per distinct expression: the intern table's index */
  readonly id: number;
  /** the node's operation: a constant, a symbol, a sum, product, power or function of args, or a relax/residue marker */
  readonly op: Op;
  /** the operands (terms of add, factors of mul, base of pow, arguments of fn) */
  readonly args: readonly Expr[];
  /** constant value for 'const', integer exponent for 'pow', 0 otherwise */
  readonly value: number;
  /** the function of an 'fn' node */
  readonly fn?: FnName;
  /** the variable or parameter of a 'sym' node */
  readonly sym?: Sym;
}

export class ExprError extends Error {
  override name = 'ExprError';
}

let nextExprId = 0;
let nextSymId = 0;

/*
 * The intern tables: content hash -> the nodes with that hash (usually one).
 * One process-global table never shrinks (15 compiles of a chain n = 8 held
 * 120 MB), so a node is filed where it is released with what made it:
 * - made inside a compile (withLocalTable): in that compile's own table,
 *   dropped when the compile returns; afterwards only what the compiled
 *   model keeps stays alive;
 * - made outside (a model being built): under its youngest symbol in a
 *   WeakMap, so it lives at most as long as that symbol (the model's variable);
 * - constants and the rare node without symbols made outside a compile: a
 *   strong table (the literals of models: few).
 * Inside a compile, lookups see its own nodes and those made outside, never
 * another compile's, so what a compile makes does not depend on earlier
 * compiles. Memos that would outlive a compile (derivatives) keep a private
 * copy inside it (localMemo): an entry keyed by a model's node must not
 * hand one compile's node to the next. WeakRef values would keep structural
 * equality across compiles too, but V8 keeps every WeakRef target alive
 * until the current job ends, so a loop of compiles would hold them all.
 */
type Table = Map<number, Expr | Expr[]>;
/**
 * A node as stored: with its youngest symbol (the key of its table outside a
 * compile) and memo slots that analyses fill on first use (fold.ts,
 * foldInSlot): they live and die with the node, at no lookup cost.
 */
export interface Node extends Expr {
  readonly anchor: Sym | undefined;
  /** a residue() occurs in it: stripping residues visits only such nodes */
  readonly residue: boolean;
  syms: readonly number[] | undefined;
  unrelaxedSyms: readonly number[] | undefined;
}
export type Slot = 'syms' | 'unrelaxedSyms';
const fixed: Table = new Map();
/**
 * A symbol's nodes: one (its own, a model's variable) held as it is, a few
 * (x and -x, x - y) in a list compared node by node, more in a table. A table
 * per symbol was a Map of ~230 bytes beside each variable's 120: a fifth of a
 * built RC grid.
 */
type Anchored = Table | Expr[] | Expr;
const anchored = new WeakMap<Sym, Anchored>();
/** a symbol's nodes are listed up to this many, then filed in a table */
const LISTED = 8;
/** the running compile's table and memos */
let local: { table: OpenTable; memos: Map<object, unknown> } | undefined;

/**
 * A compile's own table, the one nearly every node of a compile is filed in
 * (hundreds of thousands): open addressing over a typed array, probed
 * linearly. A Map of them cost a bucket chain and an entry record per node,
 * rehashed through the collector each time it doubled, and an array per hash
 * shared by two nodes. A slot holds the node's index and its hash side by
 * side: a probe reads one cache line, and a node is only read when its hash
 * matches (the table outgrows every cache; a lookup was three misses).
 */
class OpenTable {
  private nodes: Expr[] = [];
  /** pairs (1 + index into nodes, hash), (0, 0) for a free slot; twice the nodes at least */
  private slots = new Int32Array(2 * 2048);
  /** 32 - log2(slot count): the first slot of a hash is taken from the high bits of a Fibonacci product */
  private shift = 21;
  find(h: number, op: Op, args: readonly Expr[], from: number, to: number, value: number, fn: FnName | undefined, sym: Sym | undefined): Expr | undefined {
    const mask = (this.slots.length >> 1) - 1;
    // the hash's low bits alone cluster (a constant's low word is 0 for 0.5 or 2): all its bits pick the slot
    for (let i = Math.imul(h, 0x9e3779b1) >>> this.shift; ; i = (i + 1) & mask) {
      const k = this.slots[2 * i];
      if (k === 0) return undefined;
      if (this.slots[2 * i + 1] === h && same(this.nodes[k - 1], op, args, from, to, value, fn, sym)) return this.nodes[k - 1];
    }
  }
  put(h: number, node: Expr): void {
    this.nodes.push(node);
    const k = this.nodes.length;
    if (2 * k > this.slots.length >> 1) this.rehash(this.slots.length);
    this.place(this.slots, h, k);
  }
  private place(slots: Int32Array, h: number, k: number): void {
    const mask = (slots.length >> 1) - 1;
    let i = Math.imul(h, 0x9e3779b1) >>> this.shift;
    while (slots[2 * i] !== 0) i = (i + 1) & mask;
    slots[2 * i] = k;
    slots[2 * i + 1] = h;
  }
  /** twice the slots, the filled ones placed again */
  get size(): number {
    return this.nodes.length;
  }
  /** a table holding the same nodes, filed alike, that grows on its own */
  copy(): OpenTable {
    const t = new OpenTable();
    t.nodes = this.nodes.slice();
    t.slots = this.slots.slice();
    t.shift = this.shift;
    return t;
  }
  private rehash(count: number): void {
    const old = this.slots;
    this.slots = new Int32Array(2 * count);
    this.shift = 32 - Math.log2(count);
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0) this.place(this.slots, old[i + 1], old[i]);
  }
}

const OPCODE: Record<Op, number> = { const: 1, sym: 2, add: 3, mul: 4, div: 5, pow: 6, fn: 7, relax: 8, residue: 9 };
const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);

/** A fresh symbol id; every Sym in the process must take its id from here. */
export function newSymId(): number {
  return nextSymId++;
}

/** Number of distinct expression nodes created so far (for benchmarks). */
export function exprCount(): number {
  return nextExprId;
}

// (f) => f(), with the nodes it makes interned in a table of its own, released when f returns
export function withLocalTable<T>(f: () => T, from?: TableSnapshot): T {
  if (local) return f(); // nested: the outer table serves
  local = { table: from ? snapshots.get(from)!.copy() : new OpenTable(), memos: new Map() };
  try {
    return f();
  } finally {
    local = undefined;
  }
}

/**
 * The running compile's nodes as they are now, for another compile to start
 * from (withLocalTable's `from`): mode 'auto' compiles both forms from one
 * flattened model (compile.ts). The second compile then finds every node the
 * first had made by then, and only those, with the same relative ids: what
 * it makes after is what it would make had it flattened the model itself.
 * The memos are not taken: what they held is found again in the table.
 */
export interface TableSnapshot {
  /** the number of nodes it holds */
  readonly size: number;
}
const snapshots = new WeakMap<TableSnapshot, OpenTable>();

export function tableSnapshot(): TableSnapshot {
  if (!local) throw new ExprError('tableSnapshot() outside a compile: there is no table of its own to copy');
  const table = local.table.copy();
  const snapshot = { size: table.size };
  snapshots.set(snapshot, table);
  return snapshot;
}

/** the memo to use in place of `shared`: inside withLocalTable a fresh one of the same kind, released with the table */
export function localMemo<M extends object>(shared: M, make: () => M): M {
  if (!local) return shared;
  let memo = local.memos.get(shared) as M | undefined;
  if (!memo) local.memos.set(shared, (memo = make()));
  return memo;
}

/** the content hash of a node with arguments args[from..to) */
function hash(op: Op, args: readonly Expr[], from: number, to: number, value: number, fn: FnName | undefined, sym: Sym | undefined): number {
  bits[0] = value;
  let h = Math.imul(OPCODE[op], 0x9e3779b1) ^ words[0];
  h = Math.imul(h ^ words[1], 0x85ebca6b);
  if (fn) for (let i = 0; i < fn.length; i++) h = Math.imul(h ^ fn.charCodeAt(i), 0xc2b2ae35);
  if (sym) h = Math.imul(h ^ sym.id, 0x27d4eb2f);
  for (let i = from; i < to; i++) h = Math.imul(h ^ args[i].id, 0x165667b1) + 0x7f4a7c15;
  // 30 bits: a small integer (Smi) key; a wider one is a boxed double, allocated for every lookup
  return h & 0x3fffffff;
}

function same(n: Expr, op: Op, args: readonly Expr[], from: number, to: number, value: number, fn: FnName | undefined, sym: Sym | undefined): boolean {
  if (n.op !== op || n.value !== value || n.fn !== fn || n.sym !== sym || n.args.length !== to - from) return false;
  for (let i = from; i < to; i++) if (n.args[i - from] !== args[i]) return false;
  return true;
}

function find(
  table: Anchored | undefined,
  h: number,
  op: Op,
  args: readonly Expr[],
  from: number,
  to: number,
  value: number,
  fn: FnName | undefined,
  sym: Sym | undefined,
): Expr | undefined {
  if (table === undefined) return undefined;
  if (Array.isArray(table)) {
    for (const n of table) if (same(n, op, args, from, to, value, fn, sym)) return n;
    return undefined;
  }
  if (!(table instanceof Map)) return same(table, op, args, from, to, value, fn, sym) ? table : undefined;
  const found = table.get(h);
  if (!found) return undefined;
  if (!Array.isArray(found)) return same(found, op, args, from, to, value, fn, sym) ? found : undefined;
  for (const n of found) if (same(n, op, args, from, to, value, fn, sym)) return n;
  return undefined;
}

function put(table: Table, h: number, node: Expr): void {
  const found = table.get(h);
  if (!found) table.set(h, node);
  else if (Array.isArray(found)) found.push(node);
  else table.set(h, [found, node]);
}

/** the symbol with the largest id among the arguments' anchors (symbols are made in order, so the youngest) */
function youngest(args: readonly Expr[], from: number, to: number): Sym | undefined {
  let a: Sym | undefined;
  for (let i = from; i < to; i++) {
    const b = (args[i] as Node).anchor;
    if (b !== undefined && (a === undefined || b.id > a.id)) a = b;
  }
  return a;
}

/** the arguments of every leaf (constants, symbols) */
const NO_ARGS: readonly Expr[] = [];

function makeNode(
  id: number,
  op: Op,
  args: readonly Expr[],
  value: number,
  fn: FnName | undefined,
  sym: Sym | undefined,
  anchor: Sym | undefined,
  residue: boolean,
): Node {
  return { id, op, args, value, fn, sym, anchor, residue, syms: undefined, unrelaxedSyms: undefined };
}
/*
 * One object made here, first, with no number in `value`, so that V8 keeps
 * the field of every node tagged: a field that has held only numbers, some
 * not small integers (0.5), is a double field, and a double field boxes the
 * value of every node in a heap number of its own, 16 bytes a node even for
 * the zero of a sum (at n = 128 the chain's compile held 353k of them).
 */
makeNode(-1, 'const', [], undefined as unknown as number, undefined, undefined, undefined, false);

// (op, args, value, fn, sym) => the unique node with that content
export function intern(op: Op, args: readonly Expr[], value = 0, fn?: FnName, sym?: Sym): Expr {
  return internRange(op, args, 0, args.length, value, fn, sym);
}

/**
 * intern() of the arguments args[from..to): the constructors gather them in
 * arrays they reuse, so a node that exists already (most asked for) costs no
 * array, and a new one the copy it keeps.
 */
export function internRange(op: Op, args: readonly Expr[], from: number, to: number, value = 0, fn?: FnName, sym?: Sym): Expr {
  const h = hash(op, args, from, to, value, fn, sym);
  const mine = local?.table.find(h, op, args, from, to, value, fn, sym);
  if (mine) return mine;
  const anchor = op === 'sym' ? sym : youngest(args, from, to);
  const outer = anchor ? anchored.get(anchor) : fixed;
  const shared = find(outer, h, op, args, from, to, value, fn, sym);
  if (shared) return shared;
  let residue = op === 'residue';
  for (let i = from; i < to && !residue; i++) residue = (args[i] as Node).residue;
  // a copy of exactly its length: the caller's array grew by push or spread and has room for 17 or 19
  // (152-168 bytes for the two or three arguments of most sums and products: 16% of a compile's heap)
  const node = makeNode(nextExprId++, op, to === from ? NO_ARGS : args.slice(from, to), value, fn, sym, anchor, residue);
  if (local) local.table.put(h, node);
  else if (outer instanceof Map) put(outer, h, node);
  else if (Array.isArray(outer)) {
    // a copy of exactly its length: push would grow the list's store to 17 or more
    anchored.set(anchor!, outer.length < LISTED ? [...outer, node] : tableOf([...outer, node]));
  } else anchored.set(anchor!, outer ? [outer, node] : node);
  return node;
}

/** a symbol's nodes, filed by their hashes */
function tableOf(nodes: readonly Expr[]): Table {
  const table: Table = new Map();
  for (const n of nodes) put(table, hash(n.op, n.args, 0, n.args.length, n.value, n.fn, n.sym), n);
  return table;
}

/**
 * The node of a symbol made just now, whose node cannot exist yet (a
 * variable's, a temporary's, made in its constructor): filed as intern()
 * files it, without the two lookups that would miss (a probe of a table that
 * outgrows the caches, and a WeakMap that gives the symbol a hash first).
 */
export function freshSymbol(sym: Sym): Expr {
  const node = makeNode(nextExprId++, 'sym', NO_ARGS, 0, undefined, sym, sym, false);
  if (local) local.table.put(hash('sym', NO_ARGS, 0, 0, 0, undefined, sym), node);
  else anchored.set(sym, node);
  return node;
}

/**
 * Constants of the strong table by value. While a compile runs that table
 * does not change, and a constant it holds is never made in the compile's
 * own, so a hit here is the node intern() would find, found without hashing
 * and two table lookups (num() is a quarter of all interning: every scaled
 * term of a sum asks for its coefficient).
 */
const fixedConstants = new Map<number, Expr>();

/** the constant node of value c (c finite, -0 given as 0) */
export function constant(c: number): Expr {
  const hit = fixedConstants.get(c);
  if (hit) return hit;
  const node = intern('const', NO_ARGS, c);
  if (!local) fixedConstants.set(c, node);
  return node;
}

/** does a residue() occur in e? */
export function hasResidue(e: Expr): boolean {
  return (e as Node).residue;
}

export function isConst(e: Expr, c?: number): boolean {
  return e.op === 'const' && (c === undefined || e.value === c);
}
