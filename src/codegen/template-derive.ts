// Templates, codegen once per class (issue 35): a piece of an assignment
// list whose expressions are the same graph as a piece lowered before, up to
// its symbols and the values of its numbers, is not lowered, printed and
// compared again: its leaves (the template's table row) are derived from the
// first piece's (the prototype's). On a chain of n links, the first link's
// functions are generated and the other n - 1 links' only matched.
//
// Why a match is the flat compile's function exactly: the emitter
// (emitter.ts) lowers a piece by a walk that reads of a node only its
// operator, its arguments in order, a power's exponent, a call's name and
// a number's value (printed, and compared with ±1 for a product's scale:
// costs.ts nodeOps); a symbol it reads through Slots.ref (an element, or `t`),
// or through the local of the piece's assignment that made it. The piece's
// statements are then decided by which targets are stored (read outside the
// piece) and which are checked pivots. So when
//   - the two pieces' nodes are in a bijection that keeps operators, argument
//     order, exponents and calls, and maps the k-th target to the k-th,
//   - paired numbers are alike where lowering or printing looks at them
//     (0, 1 and -1 exactly; otherwise the same sign, and both printed with an
//     exponent or both without: `1e-7` is not an atom, `0.5` is),
//   - paired symbols are read from the same array (or are both time), and
//     each element of the prototype maps to one element, each number to one,
//   - the same targets are stored, and the pivot check is the same,
// the piece lowers to the prototype's statements with each element and number
// replaced by its partner: that is the derived leaf list. Anything else (a
// read of a target before its assignment, a conflict, more prototypes than
// PROTOTYPES of one outline) is lowered as before. The workspace slots of the
// targets are allocated in the flat compile's order, so the layout is the
// flat compile's. `verify` (tests) lowers every derived piece too and
// compares the texts.
import type { Expr, Sym } from '../expr/index.ts';
import { type Assign, Temp } from '../structure/plan-types.ts';
import { IdTable } from './id-table.ts';
import { type Elem, type Stmt, type Value, printBody } from './ir.ts';
import { type OpCounts, addOps, noOps } from './ops.ts';
import type { Raw } from './share.ts';
import { type Slots, readCounts } from './slots.ts';
import { type Leaves, type Templating, leavesOf, magnitude, withLeaves } from './templates.ts';

/** a pivot check's workspace slots (generate.ts) */
export interface PivotCheck {
  flag: number;
  scale: number;
}

/** prototypes kept per outline: pieces of one outline that match none of these are lowered as before */
const PROTOTYPES = 8;
/** unmatched pieces named in the report */
const EXAMPLES = 3;
const ARRAY_CODE: Readonly<Record<string, number>> = { w: 0, x: 1, u: 2, p: 3 };
const elemKey = (e: Elem) => e.i * 4 + ARRAY_CODE[e.a];
const digits = (i: number) => (i < 10 ? 1 : i < 100 ? 2 : i < 1000 ? 3 : i < 10000 ? 4 : String(i).length);

/** a piece lowered by the emitter, kept to derive its siblings from */
interface Prototype {
  part: readonly Assign[];
  check?: PivotCheck;
  /** per assignment: its target is stored in w */
  stored: boolean[];
  body: Stmt[];
  ops: OpCounts;
  /** printBody(body).length, and share.ts measure() of it */
  length: number;
  measure: number;
  /** its template key (templates.ts), or undefined when too short to be a template's instance */
  key: string | undefined;
  /** made on the first match: the leaves (with each shifted element's array), and the printed leaves for text lengths */
  leaves?: Leaves & { arrays: string[] };
  printedElems?: [Elem, number][];
  printedNumbers?: [number, number][];
}

/** a piece matched to a prototype: what its flat function would have been, without the function */
export interface Derived {
  ops: OpCounts;
  /** its text's length and measure (share.ts), as the flat compile would have printed it */
  length: number;
  measure: number;
  /** some assignment is a checked pivot (the module uses pivotOk) */
  pivots: boolean;
  /** the function under this name: registered with templating, its text printed only if read */
  raw(name: string): Raw;
  /** throws unless `text` (the piece lowered by the emitter, printed) is this piece's text and length */
  verify(text: string): void;
}

/** the class of a number where lowering or printing tells numbers apart (see the header) */
function numberClass(v: number): number {
  if (v === 0 || v === 1 || v === -1 || !Number.isFinite(v)) return NaN; // exact
  return (v < 0 ? 2 : 0) + (/e/.test(String(v)) ? 1 : 0);
}

/** a cheap outline of a piece: its length, its check, each statement's root and its arguments' operators */
function outline(part: readonly Assign[], check: PivotCheck | undefined): string {
  let h = Math.imul(part.length, 0x9e3779b1) ^ (check ? check.flag * 31 + check.scale : -1);
  const mixIn = (x: number) => (h = (Math.imul(h ^ x, 0x85ebca6b) + 0x7f4a7c15) | 0);
  for (const a of part) {
    const e = a.expr;
    mixIn((a.target instanceof Temp ? 1 : 2) + (a.pivot ? 4 : 0));
    mixIn(e.op.charCodeAt(0) * 64 + e.op.length * 8 + Math.min(e.args.length, 7));
    for (const x of e.args) mixIn(x.op.charCodeAt(0) * 8 + x.op.length);
  }
  return `${part.length}:${h}`;
}

export class Deriving {
  private readonly prototypes = new Map<string, Prototype[]>();
  /** scratch of a match: node id -> partner (forward, the prototype's ids), node id -> prototype's id (backward) */
  private readonly fwd = new IdTable<Expr>(true);
  private readonly bwd = new IdTable();
  private readonly symFwd = new IdTable<Sym>(true);
  private readonly symBwd = new IdTable();
  private readonly readHere = new IdTable();
  /** pieces derived; pieces lowered that matched an outline but not its prototypes, the first few with why */
  private derived = 0;
  private unmatched = 0;
  private readonly examples: string[] = [];

  constructor(
    private readonly slots: Slots,
    /** symbol id -> expressions of the whole plan reading it */
    private readonly reads: IdTable,
    private readonly templating: Templating,
  ) {}

  /** per assignment: is its target stored (generate.ts assignScope's rule) */
  private storedOf(part: readonly Assign[]): boolean[] {
    const here = readCounts(
      part.map((a) => a.expr),
      this.readHere,
    );
    return part.map((a) => !(a.target instanceof Temp) || this.reads.get(a.target.id) > here.get(a.target.id));
  }

  /** a piece the emitter lowered (its body and text as printed, its key as templating took it) */
  register(part: readonly Assign[], check: PivotCheck | undefined, body: Stmt[], text: string, measure: number, ops: OpCounts, key: string | undefined): void {
    const o = outline(part, check);
    let list = this.prototypes.get(o);
    if (!list) this.prototypes.set(o, (list = []));
    if (list.length >= PROTOTYPES) return;
    list.push({ part, check, stored: this.storedOf(part), body, ops: addOps(noOps(), ops), length: text.length, measure, key });
  }

  /** the piece derived from a prototype (its targets' slots allocated), or undefined: lower it */
  derive(part: readonly Assign[], check: PivotCheck | undefined): Derived | undefined {
    const list = this.prototypes.get(outline(part, check));
    if (!list) return undefined;
    let why = '';
    for (const proto of list) {
      const d = this.match(proto, part, check);
      if (typeof d !== 'string') {
        this.derived++;
        return d;
      }
      why ||= d;
    }
    if (this.unmatched++ < EXAMPLES) this.examples.push(`the piece from ${part[0].target.name} (${part.length} assignments): ${why}`);
    return undefined;
  }

  /** what deriving did, for TemplatesMade */
  made(): { derived: number; unmatched?: { count: number; examples: string[] } } {
    return { derived: this.derived, ...(this.unmatched && { unmatched: { count: this.unmatched, examples: [...this.examples] } }) };
  }

  /** the piece derived from the prototype, or why not */
  private match(proto: Prototype, part: readonly Assign[], check: PivotCheck | undefined): Derived | string {
    if (proto.part.length !== part.length || proto.check?.flag !== check?.flag || proto.check?.scale !== check?.scale) return 'another length or check';
    const stored = this.storedOf(part);
    for (let k = 0; k < part.length; k++) {
      const a = proto.part[k],
        b = part[k];
      if (stored[k] !== proto.stored[k]) return `${b.target.name} is ${stored[k] ? '' : 'not '}stored, unlike its prototype's`;
      if (!a.pivot !== !b.pivot || a.target instanceof Temp !== b.target instanceof Temp) return `${b.target.name}: another kind of assignment`;
    }
    const { fwd, bwd, symFwd, symBwd } = this;
    fwd.clear();
    bwd.clear();
    symFwd.clear();
    symBwd.clear();
    /** the prototype's target symbol id -> its assignment's index + 1 */
    const targetAt = this.readHere; // free again: storedOf is done
    targetAt.clear();
    const pairSym = (s: Sym, t: Sym): boolean => {
      const f = symFwd.find(s.id);
      if (f >= 0) return symFwd.obj(f) === t;
      if (symBwd.has(t.id)) return false;
      symFwd.setObj(symFwd.slot(s.id), t);
      symBwd.insert(t.id, s.id);
      return true;
    };
    for (let k = 0; k < part.length; k++) {
      if (!pairSym(proto.part[k].target, part[k].target)) return 'a target twice';
      targetAt.insert(proto.part[k].target.id, k + 1);
    }
    const numbers = new Map<number, number>();
    const pairNumber = (a: number, b: number): boolean => {
      const m = numbers.get(a);
      if (m === undefined) return (numbers.set(a, b), true);
      return Object.is(m, b);
    };
    /** symbol pairs read (not the piece's own targets), in order met */
    const readPairs: [Sym, Sym][] = [];
    const stack: Expr[] = [];
    for (let k = 0; k < part.length; k++) {
      stack.push(proto.part[k].expr, part[k].expr);
      while (stack.length) {
        const b = stack.pop()!,
          a = stack.pop()!;
        const f = fwd.find(a.id);
        if (f >= 0) {
          if (fwd.obj(f) !== b) return `${part[k].target.name}: its expression shares other subexpressions`;
          continue;
        }
        if (bwd.has(b.id)) return `${part[k].target.name}: its expression shares other subexpressions`;
        if (a.op !== b.op || a.args.length !== b.args.length || a.fn !== b.fn) return `${part[k].target.name}: another expression`;
        fwd.setObj(fwd.slot(a.id), b);
        bwd.insert(b.id, a.id);
        switch (a.op) {
          case 'const': {
            const ca = numberClass(a.value);
            if (Number.isNaN(ca) ? !Object.is(a.value, b.value) : ca !== numberClass(b.value)) return `${part[k].target.name}: ${b.value} for ${a.value}`;
            if (!pairNumber(magnitude(a.value), magnitude(b.value))) return `${part[k].target.name}: ${a.value} stands for two numbers`;
            break;
          }
          case 'pow':
            // the exponent is printed as a number past 8 (Math.pow): it must stay itself
            if (a.value !== b.value || (a.value > 8 && !pairNumber(a.value, a.value))) return `${part[k].target.name}: another power`;
            break;
          case 'residue':
            if (!pairNumber(0, 0)) return `${part[k].target.name}: 0 stands for another number`; // printed as 0
            break;
          case 'sym': {
            const s = a.sym!,
              t = b.sym!;
            const fresh = !symFwd.has(s.id);
            if (!pairSym(s, t)) return `${part[k].target.name}: ${t.name} read for two symbols`;
            const at = targetAt.get(s.id);
            // read at or before its own assignment in the piece: lowering may read its slot; left to the emitter
            if (at > 0 && at - 1 >= k) return `${part[k].target.name}: reads ${t.name} before the piece assigns it`;
            if (fresh && at === 0) readPairs.push([s, t]);
            break;
          }
        }
        for (let i = 0; i < a.args.length; i++) stack.push(a.args[i], b.args[i]);
      }
    }
    // the elements: every read symbol's, then the stored targets' (allocated last, in the flat compile's order)
    const elems = new Map<number, number>();
    const pairElem = (e: Value, g: Value): boolean => {
      if (e.k === 'name' || g.k === 'name') return e.k === 'name' && g.k === 'name' && e.s === g.s;
      if (e.k !== 'elem' || g.k !== 'elem' || e.a !== g.a || ARRAY_CODE[e.a] === undefined) return false;
      const key = elemKey(e);
      const m = elems.get(key);
      if (m === undefined) return (elems.set(key, g.i), true);
      return m === g.i;
    };
    for (const [s, t] of readPairs) if (!pairElem(this.slots.ref(s), this.slots.ref(t))) return `${t.name} is read from another place than ${s.name}`;
    let ok = true;
    for (let k = 0; k < part.length; k++) if (stored[k]) ok = pairElem(this.slots.element(proto.part[k].target), this.slots.element(part[k].target)) && ok;
    // (never seen) the slots are allocated in the emitter's order: lowering the piece now changes nothing
    if (!ok) return 'a slot stands for two';
    return this.derivedOf(proto, elems, numbers, part.some((a) => a.pivot) && check !== undefined);
  }

  private derivedOf(proto: Prototype, elems: Map<number, number>, numbers: Map<number, number>, pivots: boolean): Derived {
    if (!proto.leaves) {
      const arrays: string[] = [];
      proto.leaves = { ...leavesOf(proto.body, arrays), arrays };
      proto.printedElems = [];
      proto.printedNumbers = [];
      printedLeaves(proto.body, proto.printedElems, proto.printedNumbers);
    }
    const leaves = proto.leaves;
    const indices = leaves.indices.map((i, k) => elems.get(i * 4 + ARRAY_CODE[leaves.arrays[k]]) ?? i);
    const values = leaves.numbers.map((m) => numbers.get(m) ?? m);
    let dl = 0,
      dm = 0;
    for (const [e, times] of proto.printedElems!) {
      const i = elems.get(elemKey(e));
      if (i !== undefined) dl += times * (digits(i) - digits(e.i));
    }
    for (const [m, times] of proto.printedNumbers!) {
      const v = numbers.get(m);
      if (v !== undefined && v !== m) dm += times * (String(v).length - String(m).length);
    }
    const length = proto.length + dl + dm;
    const body = proto.body;
    let text: string | undefined;
    const print = () => (text ??= printBody(withLeaves(body, indices, values)));
    return {
      ops: proto.ops,
      length,
      measure: proto.measure + dm,
      pivots,
      verify: (lowered) => {
        if (print() !== lowered || lowered.length !== length)
          throw new Error(`codegen: a piece derived from a prototype is not what the emitter makes of it (length ${length}):\n${text}\n---\n${lowered}`);
      },
      raw: (name) => {
        // printed only where it is printed flat (its group was not made a template)
        const raw: Raw = {
          name,
          get text() {
            return print();
          },
        };
        if (proto.key !== undefined) this.templating.addDerived(raw, proto.key, { indices, numbers: values }, length);
        return raw;
      },
    };
  }
}

/**
 * The elements and numbers of a body as printed, with how many times each
 * occurrence is printed (a power's base is printed once per factor): what a
 * body's text length changes by when its leaves are replaced
 */
function printedLeaves(body: readonly Stmt[], elems: [Elem, number][], numbers: [number, number][]): void {
  const value = (v: Value, times: number): void => {
    switch (v.k) {
      case 'num':
        return void numbers.push([magnitude(v.v), times]);
      case 'elem':
        if (v.o === undefined && ARRAY_CODE[v.a] !== undefined) elems.push([v, times]);
        return;
      case 'name':
        return;
      case 'add':
        return v.t.forEach((t) => value(t, times));
      case 'mul':
        if (Math.abs(v.c) !== 1) numbers.push([magnitude(v.c), times]);
        return v.f.forEach((f) => value(f, times));
      case 'pow':
        return value(v.b, times * v.n);
      case 'div':
        return (value(v.a, times), value(v.b, times));
      case 'call':
        return v.args.forEach((a) => value(a, times));
    }
  };
  for (const st of body) {
    if (st.k === 'store') elems.push([st.to, 1]);
    if (st.k !== 'text') value(st.v, 1);
    if (st.k === 'pivot') elems.push([st.flag, 1]);
  }
}
