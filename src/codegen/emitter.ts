// Expression emission with common subexpressions shared: within one scope
// (a generated function or loop body) every node is lowered to the IR
// (ir.ts) once; a node used more than once is bound to a `const tN`.
// Operations are counted as nodes are lowered, by the one rule the planner
// estimates with (costs.ts nodeOps), so the counts are those of the
// generated code. In straight-line
// code an array element read more than once (a slot of w computed by an
// earlier function, a state, an input) can be loaded into a local at its first
// read: V8 then builds one element access instead of one per read, and
// optimises a long function several times faster (cold start) and runs it
// ~10% faster (the PUMA's torn prelude: 300 -> 110 ms to be optimised,
// 1.13 -> 1.02 µs per evaluation).
import { type Expr, FUNCTIONS, type Sym } from '../expr/index.ts';
import { type Elem, type Stmt, type Value, elem, name, num, printStmt, printValue } from './ir.ts';
import { type OpCounts, nodeOps, noOps } from './ops.ts';
import { IdTable } from './id-table.ts';

/** what a symbol reads: a local or atom by name, or an array element */
export type SymRef = (s: Sym) => Value | string;

/** an element of one of the arrays a generated function reads: w[12], x[3] */
const isInput = (v: Value): v is Elem => v.k === 'elem' && v.o === undefined && (v.a === 'w' || v.a === 'x' || v.a === 'u' || v.a === 'p');
const ZERO_CODE = num(0);

type Name = Extract<Value, { k: 'name' }>;
const locals: Record<'v' | 't' | 'r', Name[]> = { v: [], t: [], r: [] };
/**
 * The local `${prefix}${k}` as a name, made once and shared by every function
 * (IR is never changed in place): a string and a record per statement were
 * otherwise made for names that repeat in every function.
 */
export function localName(prefix: 'v' | 't' | 'r', k: number): Name {
  const made = locals[prefix];
  for (let j = made.length; j <= k; j++) made.push({ k: 'name', s: `${prefix}${j}` });
  return made[k];
}

/** a node's use count when it was lowered before any prepare() met it (then used once, as a node prepare() never saw) */
const NOT_COUNTED = -1;

export class Scope {
  /** the statements, in order */
  readonly body: Stmt[] = [];
  readonly ops: OpCounts = noOps();
  /** value()'s walk, kept between calls (one per assignment); only ever grows, its depth counted apart */
  private readonly stack: Expr[] = [];
  private readonly expanded: boolean[] = [];
  private loads = 0;

  constructor(
    private readonly ref: SymRef,
    private readonly indent: string,
    private readonly temps: { next: number },
    /** load elements read more than once into locals `rN` (only where no element is written between two reads of it) */
    private readonly loadReads = false,
    /**
     * node id -> how often the roots reference it (the integer) and its value
     * once lowered (the object): one slot per node, so that lowering looks a
     * node up once (a Map of records was a record per node, in every
     * function). A table lent by the caller is emptied here: it serves one
     * scope at a time.
     */
    private readonly entries = new IdTable<Value>(true),
  ) {
    entries.clear();
  }

  /** the printed lines, indented */
  get lines(): string[] {
    return this.body.map((st) => this.indent + printStmt(st));
  }

  /** count how often each node is referenced by the roots this scope will print (once per scope) */
  prepare(roots: readonly Expr[]): this {
    const entries = this.entries;
    const stack: Expr[] = [];
    // a node's arguments are counted once, when the node is first met
    const use = (n: Expr, k: number) => {
      const s = entries.find(n.id);
      if (s < 0) entries.insert(n.id, k);
      else if (entries.int(s) < 0) entries.setInt(s, k);
      else {
        entries.setInt(s, entries.int(s) + k);
        return;
      }
      stack.push(n);
    };
    for (const r of roots) use(r, 1);
    while (stack.length) {
      const n = stack.pop()!;
      for (const a of n.args) use(a, n.op === 'pow' ? 2 : 1);
    }
    return this;
  }

  /** the value of e; shared subexpressions are bound to temporaries first */
  value(e: Expr): Value {
    // post-order over the nodes not lowered yet, as expr/fold.ts walks, each node's record looked up once a visit
    const { entries, stack, expanded } = this;
    let depth = 0;
    stack[depth] = e;
    expanded[depth++] = false;
    while (depth > 0) {
      const n = stack[depth - 1];
      const s = entries.slot(n.id, NOT_COUNTED);
      if (entries.obj(s) !== undefined) {
        depth--;
        continue;
      }
      if (!expanded[depth - 1]) {
        expanded[depth - 1] = true;
        for (let i = n.args.length - 1; i >= 0; i--) {
          if (!this.lowered(n.args[i])) {
            stack[depth] = n.args[i];
            expanded[depth++] = false;
          }
        }
        continue;
      }
      depth--;
      // no node is added from here to the store: s stays the node's slot
      const uses = entries.int(s);
      entries.setObj(s, this.share(n, uses, this.lower(n, uses)));
    }
    return entries.obj(entries.find(e.id))!;
  }

  private lowered(n: Expr): boolean {
    const s = this.entries.find(n.id);
    return s >= 0 && this.entries.obj(s) !== undefined;
  }

  /** the value of n's i-th argument (lowered before n) */
  private arg(n: Expr, i: number): Value {
    return this.entries.obj(this.entries.find(n.args[i].id))!;
  }

  /** the values of n's arguments from the `from`-th on: the array its IR keeps, the only one made, of its exact length */
  private args(n: Expr, from = 0): Value[] {
    const out = new Array<Value>(n.args.length - from);
    for (let i = from; i < n.args.length; i++) out[i - from] = this.arg(n, i);
    return out;
  }

  /** the code of e */
  code(e: Expr): string {
    return printValue(this.value(e));
  }

  /** target = e; */
  assign(target: Elem, e: Expr): void {
    this.body.push({ k: 'store', to: target, v: this.value(e) });
  }

  /** const name = v; */
  let(name: string, v: Value): void {
    this.body.push({ k: 'const', name, v });
  }

  store(to: Elem, v: Value): void {
    this.body.push({ k: 'store', to, v });
  }

  /** a checked pivot (generate.ts, checked loops) */
  pivot(v: Value, scale: number, flag: number): void {
    this.body.push({ k: 'pivot', v, scale, flag: elem('w', flag) });
  }

  /** a line the IR does not model */
  line(s: string): void {
    this.body.push({ k: 'text', s });
  }

  /** the dense solves whose calls solve() made, in order: the module's description records them (generate.ts, program.ts) */
  readonly solves: [k: number, H: string, c: string][] = [];
  /** the call choleskySolve(k, H, c) of a dense k x k H, recorded: the WebAssembly target may run it as its kernel */
  solve(k: number, H: string, c: string): string {
    this.solves.push([k, H, c]);
    return `choleskySolve(${k}, ${H}, ${c})`;
  }

  private share(n: Expr, uses: number, v: Value): Value {
    // symbols and constants are free to repeat; a function call is an atom too, but not free
    if (n.op === 'const' || n.op === 'sym' || n.op === 'relax' || n.op === 'residue' || uses < 2) return v;
    const local = localName('t', this.temps.next++);
    this.let(local.s, v);
    return local;
  }

  /** the node as IR over its arguments' values; its operations counted (costs.ts nodeOps, the one rule) */
  private lower(n: Expr, uses: number): Value {
    nodeOps(n, this.ops);
    switch (n.op) {
      case 'const':
        return num(n.value);
      case 'sym': {
        const r = this.ref(n.sym!);
        const ref = typeof r === 'string' ? name(r) : r;
        if (!this.loadReads || uses < 2 || !isInput(ref)) return ref;
        // named by order of first read, so that functions equal up to shifted indices stay equal (share.ts)
        const local = localName('r', this.loads++);
        this.let(local.s, ref);
        return local;
      }
      case 'relax':
        return this.arg(n, 0);
      case 'residue':
        return ZERO_CODE;
      case 'add':
        return { k: 'add', t: this.args(n) };
      case 'mul': {
        // a leading constant is the product's scale; 1 leaves the factors as they are
        const c = n.args[0].op === 'const' ? n.args[0].value : 1;
        return { k: 'mul', c, f: this.args(n, c === 1 ? 0 : 1) };
      }
      case 'div':
        return { k: 'div', a: this.arg(n, 0), b: this.arg(n, 1) };
      case 'pow':
        return n.value > 8 ? { k: 'call', fn: 'Math.pow', args: [this.arg(n, 0), num(n.value)] } : { k: 'pow', b: this.arg(n, 0), n: n.value };
      case 'fn':
        return { k: 'call', fn: FUNCTIONS[n.fn!].js, args: this.args(n) };
    }
  }
}
