// The workspace's slots and what generating reads off the plan's
// expressions before emitting them: where each variable lives (x[i], u[i],
// p[i], or its workspace slot w[i], given on first assignment), how many
// expressions read a symbol, an assignment's name shape for cutting lists
// where they repeat, and whether a printed value is an atom.
import { type Expr, type Sym, symsOf } from '../expr/index.ts';
import { TIME } from '../model/index.ts';
import type { SolvePlan } from '../structure/plan-types.ts';
import { IdTable } from './id-table.ts';
import { type Elem, type Value, elem, name, printElem } from './ir.ts';

/** printed code that is a name, a number or an array element: no local needed to reuse it */
const ATOM = /^[\w$.[\]]+$/;
/** the value prints as an ATOM (found without printing it: a product or power prints one only of a single atom factor) */
export function isAtom(v: Value): boolean {
  switch (v.k) {
    case 'name':
      return ATOM.test(v.s);
    case 'elem':
      // w[12] without printing it (a quarter of generating's time went to printing elements for this test)
      return v.o === undefined && Number.isSafeInteger(v.i) && v.i >= 0 ? ATOM.test(v.a) : ATOM.test(printElem(v));
    case 'num':
      return ATOM.test(String(v.v));
    case 'mul':
      return v.c === 1 && v.f.length === 1 && isAtom(v.f[0]);
    case 'pow':
      return v.n === 1 && isAtom(v.b);
    default:
      return false;
  }
}

export class Slots {
  readonly names: string[] = [];
  /** symbol id -> its element: x[i], u[i], p[i], or its workspace slot w[i] */
  private readonly index: IdTable<Elem>;
  constructor(plan: SolvePlan) {
    this.index = new IdTable<Elem>(true, plan.states.length + plan.inputs.length + plan.parameters.length + plan.unknowns.length);
    plan.states.forEach((v, i) => this.set(v.id, elem('x', i)));
    plan.inputs.forEach((v, i) => this.set(v.id, elem('u', i)));
    plan.parameters.forEach((v, i) => this.set(v.id, elem('p', i)));
    for (const v of plan.unknowns) this.slot(v);
  }
  private get(id: number): Elem | undefined {
    const s = this.index.find(id);
    return s < 0 ? undefined : this.index.obj(s);
  }
  private set(id: number, e: Elem): void {
    this.index.setObj(this.index.slot(id), e);
  }
  /** the workspace slot of a target, allocated on first use */
  slot(s: Sym): number {
    return this.element(s).i;
  }
  /** the workspace element of a target, allocated on first use */
  element(s: Sym): Elem {
    const ref = this.get(s.id);
    if (ref?.a === 'w') return ref;
    if (ref) throw new Error(`codegen: ${s.name} is known (${printElem(ref)}) and cannot be assigned`);
    const e = elem('w', this.names.length);
    this.set(s.id, e);
    this.names.push(s.name);
    return e;
  }
  readonly ref = (s: Sym): Value => {
    if (s.id === TIME.id) return name('t');
    const r = this.get(s.id);
    if (!r) throw new Error(`codegen: ${s.name} is read before it is computed`);
    return r;
  };
}

/**
 * A target's name with its component numbers dropped and its element indices
 * kept (`r0.row1183/bar62.frame_b.a[3]` -> `r#.row#/bar#.frame_b.a[3]`): part
 * of an assignment's shape, so that a run of assignments of one expression
 * shape (the entries of a matrix, six per body) is cut at the period of the
 * bodies, not at any multiple of one statement.
 */
export function nameShape(name: string): number {
  // FNV-1a of name.replace(/(\[[^\]]*\])|\d+/g, (m, index) => index ?? '#'), hashed as it is scanned: a
  // regular expression and a string per assignment were a twentieth of generating a long chain
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length;) {
    const c = name.charCodeAt(i);
    const close = c === 91 ? name.indexOf(']', i + 1) : -1; // an index `[...]` is kept as written
    if (close >= 0) {
      for (; i <= close; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
    } else if (c >= 48 && c <= 57) {
      h = Math.imul(h ^ 35, 0x01000193); // a run of digits is one '#'
      while (i < name.length && name.charCodeAt(i) >= 48 && name.charCodeAt(i) <= 57) i++;
    } else {
      h = Math.imul(h ^ c, 0x01000193);
      i++;
    }
  }
  return h;
}

/** symbol id -> how many of the expressions read it (into `counts`, emptied first) */
export function readCounts(exprs: readonly Expr[], counts = new IdTable()): IdTable {
  counts.clear();
  for (let k = 0; k < exprs.length; k++) {
    const ids = symsOf(exprs[k]);
    for (let i = 0; i < ids.length; i++) counts.add(ids[i], 1);
  }
  return counts;
}
