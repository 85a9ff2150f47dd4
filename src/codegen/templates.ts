// Templates: code emitted once for repeated subsystems, run over an instance
// index (issue 35). The flat compile emits one straight-line function per
// piece of an assignment list (share.ts cuts the lists where their shapes
// repeat: one piece per link, or per few links, of a chain). Pieces of the
// instances of one subsystem compute alike, up to
//   - the slots they read and write (their own variables and their
//     neighbours'), elements of w, x, u and p at other indices, and
//   - the numbers that differ (a link's mass, its length),
// so their functions' IR is equal once printed with those left out
// (ir.ts printKey). Such a group becomes one template function
// `tpl0(t, x, u, p, w, k)` whose body reads, for instance k,
//   - one offset per class of slots that move together (o0, o1, ...) from an
//     Int32Array: slot = offset + (its index in the first instance - base),
//   - each number that differs (q0, q1, ...) from a Float64Array, its sign
//     kept in the code (so `a - 3` and `a - q0` are one operation),
// and runs of calls of consecutive instances in the flat order become one
// loop `for (let k = a; k < b; k++) tpl0(t, x, u, p, w, k);`: the instances
// still run in the sorted order (the relaxed chain's recursion needs it).
//
// Checked: every instance's function is the template with that instance's
// table rows written in, printed character for character as the flat
// compile prints it; a group that is not is left flat and named in the
// report. The operations and their order are the flat code's, so the values
// are the flat code's bit for bit.
//
// Glossary: group the functions of one key; instance one function of a
// group (its index k is its place in the group, in module order); class
// the positions of the elements whose indices move alike; slot a number
// position whose values differ.
import { type Elem, type Fn, type Stmt, type Value, SHIFTED_ARRAYS, elem, name, num, printBody, printKey } from './ir.ts';
import { type Line, type Program, calleeOf } from './program.ts';
import type { Raw } from './share.ts';

/** shorter functions are left flat: a table row and a call cost about what they save */
const MIN_TEMPLATE_CHARS = 200;
/** fewest instances of a template: two calls of one body already halve its code */
const MIN_INSTANCES = 2;

const shifts = (e: Elem) => e.o === undefined && SHIFTED_ARRAYS.has(e.a);
/** the magnitude a number is printed with (ir.ts: its sign is printed apart; -0 prints as 0) */
export const magnitude = (v: number) => (v >= 0 ? v + 0 : -v);

/** one function's leaves: its shifted elements' indices and its numbers' magnitudes, in walk order */
export interface Leaves {
  indices: number[];
  numbers: number[];
}

/**
 * The leaves of a body in one fixed order (rewrite walks the same): each
 * statement's target, then its value, depth first; a product's coefficient
 * (when not ±1) before its factors; a power's base once.
 */
export function leavesOf(body: readonly Stmt[], arrays?: string[]): Leaves {
  const indices: number[] = [],
    numbers: number[] = [];
  const el = (e: Elem): void => {
    if (!shifts(e)) return;
    indices.push(e.i);
    arrays?.push(e.a);
  };
  const value = (v: Value): void => {
    switch (v.k) {
      case 'num':
        return void numbers.push(magnitude(v.v));
      case 'elem':
        return el(v);
      case 'name':
        return;
      case 'add':
        return v.t.forEach(value);
      case 'mul':
        if (Math.abs(v.c) !== 1) numbers.push(magnitude(v.c));
        return v.f.forEach(value);
      case 'pow':
        return value(v.b);
      case 'div':
        return (value(v.a), value(v.b));
      case 'call':
        return v.args.forEach(value);
    }
  };
  for (const st of body) {
    if (st.k === 'store') el(st.to);
    if (st.k !== 'text') value(st.v);
    if (st.k === 'pivot') el(st.flag);
  }
  return { indices, numbers };
}

/** the body with its leaves (leavesOf's order) replaced by these: a derived instance's flat function (template-derive.ts) */
export function withLeaves(body: readonly Stmt[], indices: readonly number[], numbers: readonly number[]): Stmt[] {
  return rewrite(body, {
    elem: (e, i) => (e.i === indices[i] ? e : elem(e.a, indices[i])),
    number: (m, i) => (Object.is(m, numbers[i]) ? undefined : num(numbers[i])),
  });
}

/** what replaces a leaf: an element for an element, a value for a number (undefined: kept) */
interface Rewrite {
  elem(e: Elem, position: number): Elem;
  number(magnitude: number, position: number): Value | undefined;
}

/** the body with its leaves rewritten, walked as leavesOf walks it */
function rewrite(body: readonly Stmt[], r: Rewrite): Stmt[] {
  let ie = 0,
    iv = 0;
  const el = (e: Elem): Elem => (shifts(e) ? r.elem(e, ie++) : e);
  const value = (v: Value): Value => {
    switch (v.k) {
      case 'num': {
        const q = r.number(magnitude(v.v), iv++);
        if (!q) return v;
        return v.v >= 0 ? q : { k: 'mul', c: -1, f: [q] }; // -q0 prints, and rounds, as -3 does
      }
      case 'elem':
        return el(v);
      case 'name':
        return v;
      case 'add':
        return { k: 'add', t: v.t.map(value) };
      case 'mul': {
        const q = Math.abs(v.c) !== 1 ? r.number(magnitude(v.c), iv++) : undefined;
        const f = v.f.map(value);
        // c*f0*f1 is (c*f0)*f1: q0*f0*f1 keeps the order; the sign stays a unary minus
        return q ? { k: 'mul', c: v.c < 0 ? -1 : 1, f: [q, ...f] } : { k: 'mul', c: v.c, f };
      }
      case 'pow':
        return { k: 'pow', b: value(v.b), n: v.n };
      case 'div': {
        const a = value(v.a);
        return { k: 'div', a, b: value(v.b) };
      }
      case 'call':
        return { k: 'call', fn: v.fn, args: v.args.map(value) };
    }
  };
  return body.map((st): Stmt => {
    switch (st.k) {
      case 'const':
        return { k: 'const', name: st.name, v: value(st.v) };
      case 'store': {
        const to = el(st.to);
        return { k: 'store', to, v: value(st.v) };
      }
      case 'pivot': {
        const v = value(st.v);
        return { k: 'pivot', v, scale: st.scale, flag: el(st.flag) };
      }
      case 'text':
        return st;
    }
  });
}

/** a function that may be a template's instance: its name, its text, its leaves */
interface Candidate {
  raw: Raw;
  leaves: Leaves;
  /** derived from a prototype of its group (template-derive.ts), not printed: its leaves are its prototype's replaced */
  derived?: true;
}

/** a template: its function, its tables' declarations, its instances' names in order */
export interface Template {
  fn: Fn;
  /** `const tplI0 = Int32Array.of(...)[, tplP0 = Float64Array.of(...)];` */
  tables: string;
  instances: string[];
}

/** what templating made: the templates, the groups left flat and why */
export interface Templated {
  templates: Template[];
  /** a replaced function -> its template and its instance index (a call prints `tpl0(t, x, u, p, w, k)`) */
  calls: Map<string, { fn: string; offsets: number[] }>;
  /** groups that were not made templates: why, in a sentence each */
  flat: string[];
}

/**
 * Functions whose IR is equal up to their shifted indices and their numbers,
 * collected as they are made (add) and made templates at the end
 * (templated). The leaves are taken at once, so that every body but each
 * group's first can be let go when it is printed (keepBodies false).
 */
export class Templating {
  private readonly groups = new Map<string, Candidate[]>();
  constructor(private readonly keepBodies = true) {}

  /** a function as printed; returns its key, or undefined when it is too short to be a template's instance */
  add(raw: Raw): string | undefined {
    if (raw.text.length < MIN_TEMPLATE_CHARS || !raw.body) return undefined;
    const key = printKey(raw.body);
    const g = this.groups.get(key);
    const c = { raw, leaves: leavesOf(raw.body) };
    if (g) g.push(c);
    else this.groups.set(key, [c]);
    if (!this.keepBodies && g) delete raw.body;
    return key;
  }

  /** a function derived from a prototype added under `key` (template-derive.ts), `length` its text's */
  addDerived(raw: Raw, key: string, leaves: Leaves, length: number): void {
    if (length < MIN_TEMPLATE_CHARS) return;
    this.groups.get(key)!.push({ raw, leaves, derived: true });
  }

  /** the templates and the calls of the functions they replace; `params` are the parameters before k */
  templated(params: readonly string[]): Templated {
    const out: Templated = { templates: [], calls: new Map(), flat: [] };
    for (const group of this.groups.values()) {
      if (group.length < MIN_INSTANCES) continue;
      const t = template(group, out.templates.length, params);
      if (typeof t === 'string') {
        out.flat.push(t);
        continue;
      }
      out.templates.push(t);
      t.instances.forEach((n, k) => out.calls.set(n, { fn: t.fn.name, offsets: [k] }));
    }
    return out;
  }
}

/** an offset class: the element positions whose indices move alike, and the first instance's smallest index among them */
interface OffsetClass {
  base: number;
  /** index in instance k = base + shift[k] + (index in the first - base) */
  shift: number[];
}

/** the group made template number `id`, or why not */
function template(group: readonly Candidate[], id: number, params: readonly string[]): Template | string {
  const first = group[0];
  const body = first.raw.body!;
  // element positions -> offset classes (undefined: the same slot in every instance)
  const classes = new Map<string, OffsetClass>();
  const classOf: (number | undefined)[] = [];
  const classList: OffsetClass[] = [];
  first.leaves.indices.forEach((i0, i) => {
    const shift = group.map((c) => c.leaves.indices[i] - i0);
    if (shift.every((d) => d === 0)) return void classOf.push(undefined);
    const key = shift.join(',');
    let c = classes.get(key);
    if (!c) (classes.set(key, (c = { base: i0, shift })), classList.push(c));
    c.base = Math.min(c.base, i0);
    classOf.push(classList.indexOf(c));
  });
  // number positions -> parameter slots (undefined: the same number in every instance)
  const slots = new Map<string, number>();
  const slotOf: (number | undefined)[] = [];
  const slotValues: number[][] = [];
  first.leaves.numbers.forEach((_, m) => {
    const values = group.map((c) => c.leaves.numbers[m]);
    if (values.every((v) => Object.is(v, values[0]))) return void slotOf.push(undefined);
    const key = values.join(',');
    let s = slots.get(key);
    if (s === undefined) (slots.set(key, (s = slotValues.length)), slotValues.push(values));
    slotOf.push(s);
  });
  if (classList.length === 0 && slotValues.length === 0)
    return `${first.raw.name} and ${group.length - 1} more are one computation on the same slots (left as they are)`;
  const fnName = `tpl${id}`;
  const ints = `tplI${id}`,
    reals = `tplP${id}`;
  const computed = rewrite(body, {
    elem: (e, i) => (classOf[i] === undefined ? e : elem(e.a, e.i - classList[classOf[i]!].base, `o${classOf[i]}`)),
    number: (_, m) => (slotOf[m] === undefined ? undefined : name(`q${slotOf[m]}`)),
  });
  // instance k's row: its offsets, then its numbers
  const offsetRows = group.map((_, k) => classList.map((c) => c.base + c.shift[k]));
  for (let k = 0; k < group.length; k++) {
    // a derived instance is its prototype with its own leaves by construction (template-derive.ts checked the match)
    if (group[k].derived) continue;
    const own = specialise(
      computed,
      offsetRows[k],
      slotValues.map((v) => v[k]),
    );
    if (printBody(own) !== group[k].raw.text) return `${group[k].raw.name} is not ${fnName}'s instance ${k} exactly (left flat)`;
  }
  const prelude: Stmt[] = [];
  const nI = classList.length,
    nP = slotValues.length;
  if (nI) prelude.push({ k: 'const', name: 'bi', v: { k: 'mul', c: nI, f: [name('k')] } });
  if (nP) prelude.push({ k: 'const', name: 'bp', v: { k: 'mul', c: nP, f: [name('k')] } });
  classList.forEach((_, c) => prelude.push({ k: 'const', name: `o${c}`, v: elem(ints, c, 'bi') }));
  slotValues.forEach((_, s) => prelude.push({ k: 'const', name: `q${s}`, v: elem(reals, s, 'bp') }));
  const decl: string[] = [];
  if (nI) decl.push(`${ints} = ${typedArrayOf('Int32Array', offsetRows.flat())}`);
  if (nP)
    decl.push(
      `${reals} = ${typedArrayOf(
        'Float64Array',
        group.flatMap((_, k) => slotValues.map((v) => v[k])),
      )}`,
    );
  return {
    fn: { name: fnName, params: [...params, 'k'], body: [...prelude, ...computed] },
    tables: `const ${decl.join(', ')};`,
    instances: group.map((c) => c.raw.name),
  };
}

/**
 * A typed array's literal: `Int32Array.of(...)`, or, past ARGUMENTS_ON_STACK
 * values, from an array literal: a call's arguments live on the stack, and the
 * tables of the RC grid n = 200 (3.2e5 offsets) overflowed it when the
 * module was made (RangeError: Maximum call stack size exceeded).
 */
export function typedArrayOf(kind: 'Int32Array' | 'Float64Array', values: readonly number[]): string {
  const list = values.map(String).join(', ');
  return values.length > ARGUMENTS_ON_STACK ? `new ${kind}([${list}])` : `${kind}.of(${list})`;
}

/** values a typed array's literal passes as a call's arguments at most (V8 fails near 1e5 with its default stack) */
const ARGUMENTS_ON_STACK = 10000;

/** the template's body with one instance's offsets and numbers written in: what the flat compile printed for it */
function specialise(body: readonly Stmt[], offsets: readonly number[], numbers: readonly number[]): Stmt[] {
  const value = (v: Value): Value => {
    switch (v.k) {
      case 'name':
        return v.s.startsWith('q') && /^q\d+$/.test(v.s) ? { k: 'num', v: numbers[Number(v.s.slice(1))] } : v;
      case 'elem':
        return el(v);
      case 'add':
        return { k: 'add', t: v.t.map(value) };
      case 'mul':
        return { k: 'mul', c: v.c, f: v.f.map(value) };
      case 'pow':
        return { k: 'pow', b: value(v.b), n: v.n };
      case 'div':
        return { k: 'div', a: value(v.a), b: value(v.b) };
      case 'call':
        return { k: 'call', fn: v.fn, args: v.args.map(value) };
      default:
        return v;
    }
  };
  const el = (e: Elem): Elem => (e.o === undefined ? e : elem(e.a, e.i + offsets[Number(e.o.slice(1))]));
  return body.map((st): Stmt => {
    switch (st.k) {
      case 'const':
        return { k: 'const', name: st.name, v: value(st.v) };
      case 'store':
        return { k: 'store', to: el(st.to), v: value(st.v) };
      case 'pivot':
        return { k: 'pivot', v: value(st.v), scale: st.scale, flag: el(st.flag) };
      case 'text':
        return st;
    }
  });
}

/**
 * Runs of whole-line calls of one template's consecutive instances (k, k+1,
 * ...), at one indentation, as loops over k: in derivatives(), outputs() and
 * every function of lines (a solve's, a fallback's). Changes `p` in place;
 * returns how many loops it made.
 */
export function loopRuns(p: Program): number {
  let loops = 0;
  const instance = (line: Line) => {
    const callee = calleeOf(line);
    const s = callee === undefined ? undefined : p.shared[callee];
    return s && s.fn.startsWith('tpl') && s.offsets.length === 1 ? { fn: s.fn, k: s.offsets[0], indent: (line as { indent: string }).indent } : undefined;
  };
  const runs = (lines: readonly Line[]): Line[] => {
    const out: Line[] = [];
    for (let i = 0; i < lines.length;) {
      const a = instance(lines[i]);
      let j = i + 1;
      while (a && j < lines.length) {
        const b = instance(lines[j]);
        if (!b || b.fn !== a.fn || b.indent !== a.indent || b.k !== a.k + (j - i)) break;
        j++;
      }
      if (a && j - i >= 2) {
        out.push({ indent: a.indent, pieces: [{ loop: a.fn, from: a.k, to: a.k + (j - i) }] });
        loops++;
      } else out.push(...lines.slice(i, j));
      i = j;
    }
    return out;
  };
  p.derivatives = runs(p.derivatives);
  p.outputs = runs(p.outputs);
  for (const q of p.parts) if (q.k === 'lines') q.lines = runs(q.lines);
  return loops;
}
