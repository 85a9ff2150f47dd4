// Expression emission with common subexpressions shared: within one scope
// (a generated function or loop body) every node is printed once; a node used
// more than once is bound to a `const tN`. Operations are counted as they are
// printed, so the counts are those of the generated code. In straight-line
// code an array element read more than once (a slot of w computed by an
// earlier function, a state, an input) can be loaded into a local at its first
// read: V8 then builds one element access instead of one per read, and
// optimises a long function several times faster (cold start) and runs it
// ~10% faster (the PUMA's torn prelude: 300 -> 110 ms to be optimised,
// 1.13 -> 1.02 µs per evaluation).
import { type Expr, FUNCTIONS, type Sym, fold } from '../expr/index.ts';
import { type OpCounts, noOps } from './ops.ts';

/** printed code with its precedence: 0 sum or unary minus, 1 product/quotient, 2 atom */
interface Code {
  s: string;
  prec: 0 | 1 | 2;
  /** for a negated product: the code of the product without the sign */
  neg?: string;
}

export type SymRef = (s: Sym) => string;

const literal = (v: number) => String(v);
/** an element of one of the arrays a generated function reads: w[12], x[3] */
const ELEMENT = /^[wxup]\[\d+\]$/;
const atom = (s: string): Code => ({ s, prec: 2 });
const paren = (c: Code, min: number) => (c.prec < min ? `(${c.s})` : c.s);

export class Scope {
  readonly lines: string[] = [];
  readonly ops: OpCounts = noOps();
  private readonly memo = new Map<number, Code>();
  private readonly uses = new Map<number, number>();
  private loads = 0;

  constructor(
    private readonly ref: SymRef,
    private readonly indent: string,
    private readonly temps: { next: number },
    /** load elements read more than once into locals `rN` (only where no element is written between two reads of it) */
    private readonly loadReads = false,
  ) {}

  /** count how often each node is referenced by the roots this scope will print (once per scope) */
  prepare(roots: readonly Expr[]): this {
    const uses = this.uses;
    const stack: Expr[] = [];
    // a node's arguments are counted once, when the node is first met
    const use = (n: Expr, k: number) => {
      const u = uses.get(n.id);
      if (u === undefined) {
        uses.set(n.id, k);
        stack.push(n);
      } else uses.set(n.id, u + k);
    };
    for (const r of roots) use(r, 1);
    while (stack.length) {
      const n = stack.pop()!;
      for (const a of n.args) use(a, n.op === 'pow' ? 2 : 1);
    }
    return this;
  }

  /** the code of e; shared subexpressions are bound to temporaries first */
  code(e: Expr): string {
    return fold(e, this.memo, (n, args) => this.share(n, this.print(n, args))).s;
  }

  /** target = e; */
  assign(target: string, e: Expr): void {
    this.lines.push(`${this.indent}${target} = ${this.code(e)};`);
  }

  line(s: string): void {
    this.lines.push(this.indent + s);
  }

  private share(n: Expr, c: Code): Code {
    // symbols and constants are free to repeat; a function call is an atom too, but not free
    if (n.op === 'const' || n.op === 'sym' || n.op === 'relax' || n.op === 'residue' || (this.uses.get(n.id) ?? 0) < 2) return c;
    const name = `t${this.temps.next++}`;
    this.lines.push(`${this.indent}const ${name} = ${c.s};`);
    return atom(name);
  }

  private print(n: Expr, a: Code[]): Code {
    const ops = this.ops;
    switch (n.op) {
      case 'const':
        return n.value >= 0 ? atom(literal(n.value)) : { s: `-${literal(-n.value)}`, prec: 0, neg: literal(-n.value) };
      case 'sym': {
        const ref = this.ref(n.sym!);
        if (!this.loadReads || (this.uses.get(n.id) ?? 0) < 2 || !ELEMENT.test(ref)) return atom(ref);
        // named by order of first read, so that functions equal up to shifted indices stay equal (share.ts)
        const name = `r${this.loads++}`;
        this.lines.push(`${this.indent}const ${name} = ${ref};`);
        return atom(name);
      }
      case 'relax':
        return a[0];
      case 'residue':
        return atom('0');
      case 'add': {
        ops.add += a.length - 1;
        let s = a[0].s;
        for (const t of a.slice(1)) s += t.neg !== undefined ? ` - ${t.neg}` : ` + ${t.s}`;
        return { s, prec: 0 };
      }
      case 'mul':
        return this.product(n, a);
      case 'div':
        ops.div += 1;
        return { s: `${paren(a[0], 1)}/${paren(a[1], 2)}`, prec: 1 };
      case 'pow':
        if (n.value > 8) {
          ops.fn += 1;
          return atom(`Math.pow(${a[0].s}, ${n.value})`);
        }
        ops.mul += n.value - 1;
        return { s: Array(n.value).fill(paren(a[0], 2)).join('*'), prec: 1 };
      case 'fn':
        ops.fn += 1;
        return atom(`${FUNCTIONS[n.fn!].js}(${a.map((x) => x.s).join(', ')})`);
    }
  }

  private product(n: Expr, a: Code[]): Code {
    const c = n.args[0].op === 'const' ? n.args[0].value : 1;
    const factors = (c === 1 ? a : a.slice(1)).map((f) => paren(f, 1));
    if (Math.abs(c) !== 1) factors.unshift(literal(Math.abs(c)));
    this.ops.mul += factors.length - 1;
    const s = factors.join('*');
    return c < 0 ? { s: `-${s}`, prec: 0, neg: s } : { s, prec: 1 };
  }
}
