// Code shared between repeated structure. A chain of n bodies yields n copies
// of the same statements over shifted workspace slots; emitted straight-line,
// every evaluation runs through n copies of the machine code and the time per
// body grows with n (instruction cache). Here
//   1. `pieces` cuts an assignment list where its statement shapes repeat
//      (a period found from the shapes alone), so that function boundaries
//      line up with the repeated structure;
//   2. `share` turns generated functions whose IR (ir.ts) is identical up to
//      a constant shift of the indices into w, x, u and p into one function
//      with offset parameters, called once per occurrence with its offsets.
// Sharing is checked: every occurrence's text must be the shared function's
// with that occurrence's offsets written in, exactly, so it cannot change
// what is computed. Which functions may be shared is read off their text
// (printed anyway); the shared function is made from the IR of the first.
import type { Expr } from '../expr/index.ts';
import { IdTable } from './id-table.ts';
import { type Elem, type Fn, type Stmt, elem, elements, mapElems, printBody } from './ir.ts';

/** shape hash of expressions: operators and constants exact, symbols abstracted */
export class Shapes {
  /** node id -> its hash */
  private readonly memo: IdTable;
  /** the walk of of(), kept between calls (one per assignment); only ever grows, its depth counted apart */
  private readonly stack: Expr[] = [];
  private readonly expanded: boolean[] = [];
  /** `nodes`: about how many nodes will be hashed (room made at once) */
  constructor(nodes = 0) {
    this.memo = new IdTable(false, nodes);
  }

  of(e: Expr): number {
    const { memo, stack, expanded } = this;
    const hit = memo.find(e.id);
    if (hit >= 0) return memo.int(hit);
    // expr/fold.ts's walk, written out: no array of argument hashes and no call per node (every assignment's expression is hashed)
    let depth = 0;
    stack[depth] = e;
    expanded[depth++] = false;
    while (depth > 0) {
      const n = stack[depth - 1];
      if (memo.has(n.id)) {
        depth--;
        continue;
      }
      if (!expanded[depth - 1]) {
        expanded[depth - 1] = true;
        for (let i = n.args.length - 1; i >= 0; i--) {
          if (!memo.has(n.args[i].id)) {
            stack[depth] = n.args[i];
            expanded[depth++] = false;
          }
        }
        continue;
      }
      depth--;
      let h = Math.imul(n.op.length * 31 + n.op.charCodeAt(0), 0x9e3779b1);
      if (n.op === 'const' || n.op === 'pow') h = Math.imul(h ^ hashNumber(n.value), 0x85ebca6b);
      if (n.fn) for (let i = 0; i < n.fn.length; i++) h = Math.imul(h ^ n.fn.charCodeAt(i), 0xc2b2ae35);
      for (const a of n.args) h = (Math.imul(h ^ memo.get(a.id), 0x165667b1) + 0x7f4a7c15) | 0;
      memo.insert(n.id, h | 0); // not there: the walk met it unhashed just now
    }
    return memo.get(e.id);
  }
}

const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);
function hashNumber(v: number): number {
  bits[0] = v;
  return Math.imul(words[0], 0x27d4eb2f) ^ words[1];
}

/** shortest repeated unit looked for, in statements */
const MIN_PERIOD = 8;
/** fewest statements a repeated region must cover to be cut out of its list */
const MIN_COVER = 96;
/** length of the shape k-grams that propose periods */
const GRAM = 8;
/** periods tried per region */
const CANDIDATES = 12;

/** the longest repeated region of shapes[lo, hi): `copies` units of `period` from `start` */
function findRepeat(shapes: ArrayLike<number>, lo: number, hi: number): { start: number; period: number; copies: number } | undefined {
  const L = hi - lo - GRAM + 1;
  if (hi - lo < Math.max(MIN_COVER, 2 * MIN_PERIOD)) return undefined;
  // every k-gram's positions; periods are the distances from sampled positions to later equal k-grams
  const gram = new Int32Array(L);
  const where = new Map<number, number[]>();
  for (let i = 0; i < L; i++) {
    let h = 0x12345;
    for (let k = 0; k < GRAM; k++) h = (Math.imul(h ^ shapes[lo + i + k], 0x9e3779b1) + k) | 0;
    gram[i] = h;
    const list = where.get(h);
    if (list) list.push(i);
    else where.set(h, [i]);
  }
  const votes = new Map<number, number>();
  const step = Math.max(1, Math.floor(L / 64));
  for (let i = 0; i < L; i += step) {
    for (const j of where.get(gram[i])!) {
      const d = j - i;
      if (d >= MIN_PERIOD && 2 * d <= hi - lo) votes.set(d, (votes.get(d) ?? 0) + 1);
    }
  }
  const periods = [...votes]
    .filter(([, v]) => v >= 2)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, CANDIDATES)
    .map(([d]) => d)
    .sort((a, b) => a - b);
  let best: { start: number; period: number; copies: number } | undefined;
  for (const P of periods) {
    for (let i = lo; i + P < hi;) {
      if (shapes[i] !== shapes[i + P]) {
        i++;
        continue;
      }
      let e = i;
      while (e + P < hi && shapes[e] === shapes[e + P]) e++;
      const copies = Math.floor((e - i) / P) + 1;
      if (copies >= 2 && copies * P >= MIN_COVER && (!best || copies * P > best.copies * best.period)) best = { start: i, period: P, copies };
      i = e + 1;
    }
  }
  return best;
}

/**
 * [start, end, repeated] pieces covering shapes in order, each at most
 * `chunk` long: repeated regions are cut at their period (several periods to
 * a piece when the period is short, each period cut alike when it is long), so
 * that equal pieces have equal shapes; the rest in chunks.
 */
export function pieces(shapes: ArrayLike<number>, chunk: number): [number, number, boolean][] {
  const out: [number, number, boolean][] = [];
  const split = (lo: number, hi: number) => {
    if (lo >= hi) return;
    const r = chunk >= MIN_PERIOD ? findRepeat(shapes, lo, hi) : undefined;
    if (!r) {
      for (let i = lo; i < hi; i += chunk) out.push([i, Math.min(hi, i + chunk), false]);
      return;
    }
    const { start, period: P, copies } = r;
    split(lo, start);
    if (P <= chunk) {
      // a power of two of periods: other lists' periods (two bodies, say) divide the shift between pieces
      const m = 2 ** Math.floor(Math.log2(Math.max(1, Math.floor(chunk / P))));
      for (let c = 0; c < copies; c += m) out.push([start + c * P, start + Math.min(copies, c + m) * P, true]);
    } else {
      const size = Math.ceil(P / Math.ceil(P / chunk));
      for (let c = 0; c < copies; c++) for (let s = 0; s < P; s += size) out.push([start + c * P + s, start + c * P + Math.min(P, s + size), true]);
    }
    split(start + copies * P, hi);
  };
  split(0, shapes.length);
  return out;
}

/** the arrays a generated function reads and writes by index: their elements shift between occurrences */
const SHIFTED = new Set(['w', 'x', 'u', 'p']);
const shifts = (e: Elem) => SHIFTED.has(e.a) && e.o === undefined;

/** forEachShifted's elements (w, x, u, p), for a replace */
const SHIFTED_TEXT = /\b([wxup])\[\d+\]/g;
/** [A-Za-z0-9_]: what `\b` takes for a word's character */
const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/**
 * Each shifted element of a function's printed text before sharing
 * (`w[12]`: printElem, no offset parameter yet), in printed order: f(its
 * index, the count of its digits). Sharing reads its key and indices off the
 * text, printed anyway, instead of walking and printing the IR again: on a
 * long chain nearly every function is one of a group, and the second print
 * was a sixth of generating's allocations. The same elements as SHIFTED_TEXT
 * (`\b`: not `dx[0]` nor `r5[0]`).
 */
function forEachShifted(text: string, f: (index: number, digits: number) => void): void {
  for (let at = text.indexOf('['); at >= 0; at = text.indexOf('[', at + 1)) {
    const a = text.charCodeAt(at - 1);
    if ((a !== 119 && a !== 120 && a !== 117 && a !== 112) || isWordChar(text.charCodeAt(at - 2))) continue;
    let index = 0,
      k = at + 1;
    for (let c = text.charCodeAt(k); c >= 48 && c <= 57; c = text.charCodeAt(++k)) index = index * 10 + c - 48;
    if (k > at + 1 && text.charCodeAt(k) === 93) f(index, k - at - 1);
  }
}

/** the length of a function body with every index six digits wide: equal shapes measure equal */
export function measure(text: string): number {
  let n = text.length;
  forEachShifted(text, (_, digits) => (n += 6 - digits));
  return n;
}

/** a generated function before sharing: `name(t, x, u, p, w)` with this body, and its printed text */
export interface Raw {
  name: string;
  /** absent once printed where neither the WebAssembly target nor sharing needs it (Sharing) */
  body?: Stmt[];
  /** printBody(body) */
  text: string;
}

export interface Shared {
  /** the shared functions, each under the name of the first function it replaces */
  functions: Map<string, Fn>;
  /** name of a replaced function -> the arguments after `t, x, u, p, w` of its call */
  calls: Map<string, { fn: string; offsets: number[] }>;
}

/**
 * most offset parameters a shared function takes. The relaxed chain's function
 * of two bodies takes 18: value numbering (structure/affine.ts) reads the
 * temporaries at a bar's other end negated, whose slots advance by other steps
 * than the body's own. Measured at n = 64: as one function with 18 offsets 0.93
 * of the time before, split in two functions of at most 8 offsets 1.04.
 */
const MAX_OFFSETS = 24;
/** shorter functions are left alone: a call with offsets saves nothing there */
const MIN_SHARED_CHARS = 1000;
/**
 * bodies kept per group when not every body is: a shared function is built
 * from the first of its occurrences, and a group split by alternation
 * (tryShare) from the first of each half: three splits deep
 */
const LEADERS = 8;

/** an offset parameter and the elements it moves: index = base + shift[occurrence] + (index in the first - base) */
interface OffsetClass {
  param: string;
  base: number;
  shift: number[];
}

/** a function that may be shared: its key and the indices that may shift, found when it is made */
interface Candidate {
  raw: Raw;
  indices: number[];
}

/**
 * Functions whose bodies are equal up to shifts of their indices, collected
 * as they are made (add) and shared at the end (shared). The key and the
 * shifting indices are taken from the IR at once, so the IR of a function
 * can be let go when it is printed (keepBodies false: the JavaScript
 * target), all but the first few of each group's, from which shared
 * functions are built: the IR of a large model is several times its text.
 */
export class Sharing {
  private readonly groups = new Map<string, Candidate[]>();
  constructor(
    private readonly keepBodies = true,
    private readonly minChars = MIN_SHARED_CHARS,
  ) {}

  add(raw: Raw): void {
    if (raw.text.length < this.minChars || !raw.body) {
      if (!this.keepBodies) delete raw.body;
      return;
    }
    // the text with its shifted elements spelled without their index: bodies with equal keys differ only there
    const key = raw.text.replace(SHIFTED_TEXT, '$1[]');
    const indices: number[] = [];
    forEachShifted(raw.text, (index) => indices.push(index));
    const g = this.groups.get(key);
    if (g) g.push({ raw, indices });
    else this.groups.set(key, [{ raw, indices }]);
    if (!this.keepBodies && g && g.length > LEADERS) delete raw.body;
  }

  /** the shared functions and the calls of those they replace; `params` are the parameters to extend */
  shared(params: readonly string[]): Shared {
    const functions = new Map<string, Fn>();
    const calls = new Map<string, { fn: string; offsets: number[] }>();
    let next = 0;
    const tryShare = (group: Candidate[], trimmed = false): boolean => {
      const first = group[0]?.raw.body;
      if (group.length < 2 || !first) return false;
      const indices = group.map((c) => c.indices);
      const arrays = elements(first)
        .filter(shifts)
        .map((e) => e.a);
      // positions whose indices move together across the occurrences take one offset
      const classes = new Map<string, OffsetClass>();
      const classOf: (OffsetClass | undefined)[] = [];
      for (let i = 0; i < arrays.length; i++) {
        const shift = indices.map((ix) => ix[i] - indices[0][i]);
        if (shift.every((d) => d === 0)) {
          classOf.push(undefined);
          continue;
        }
        const k = `${arrays[i]}:${shift.join(',')}`;
        let c = classes.get(k);
        if (!c) classes.set(k, (c = { param: `o${classes.size}`, base: Infinity, shift }));
        c.base = Math.min(c.base, indices[0][i]);
        classOf.push(c);
      }
      if (classes.size === 0) return false;
      if (classes.size > MAX_OFFSETS) {
        // the first or last occurrence laid out otherwise (the pair of bodies at a chain's end,
        // whose temporaries took their slots in another order): the others may share as one
        if (!trimmed && group.length >= 3 && (tryShare(group.slice(1), true) || tryShare(group.slice(0, -1), true))) return true;
        // shifts that alternate between occurrences (a piece of an odd number of bodies reading
        // what pieces of two bodies wrote): every other occurrence may still share
        if (group.length >= 4) {
          tryShare(group.filter((_, j) => j % 2 === 0));
          tryShare(group.filter((_, j) => j % 2 === 1));
        }
        return false;
      }
      const fn = `s${next++}`;
      const offsetClasses = [...classes.values()];
      let i = 0;
      const body = mapElems(first, (e) => {
        if (!shifts(e)) return e;
        const c = classOf[i++];
        return c ? elem(e.a, e.i - c.base, c.param) : e;
      });
      const offsets = group.map((_, j) => offsetClasses.map((c) => c.base + c.shift[j]));
      // each occurrence is its own text again with its offsets: sharing changes no statement
      const holes = new Holes(printBody(body), offsetClasses);
      group.forEach(({ raw }, j) => {
        if (!holes.reproduce(raw.text, offsets[j])) throw new Error(`codegen: sharing ${raw.name} as ${fn} would change it`);
      });
      functions.set(group[0].raw.name, { name: fn, params: [...params, ...offsetClasses.map((c) => c.param)], body });
      group.forEach(({ raw }, j) => calls.set(raw.name, { fn, offsets: offsets[j] }));
      return true;
    };
    for (const group of this.groups.values()) tryShare(group);
    return { functions, calls };
  }
}

/**
 * A shared function's text cut at its offset parameters (`w[o0 + 12]`,
 * `w[o1]`): whether an occurrence's text is the shared one's with its
 * offsets put in, compared piece by piece rather than printed once more.
 */
class Holes {
  /** the text between the offset elements' indices: one more than holes */
  private readonly between: string[] = [];
  /** each hole's offset class and its index past the offset */
  private readonly holes: { param: number; index: number }[] = [];
  constructor(text: string, classes: readonly OffsetClass[]) {
    const param = new Map(classes.map((c, k) => [c.param, k]));
    let last = 0;
    for (const m of text.matchAll(/(?<=\b[wxup]\[)(o\d+)(?: \+ (\d+))?(?=\])/g)) {
      this.between.push(text.slice(last, m.index));
      this.holes.push({ param: param.get(m[1])!, index: m[2] === undefined ? 0 : Number(m[2]) });
      last = m.index! + m[0].length;
    }
    this.between.push(text.slice(last));
  }

  /** text is the shared text with these offsets' values written in */
  reproduce(text: string, offsets: readonly number[]): boolean {
    let at = 0;
    for (let h = 0; h < this.holes.length; h++) {
      if (!text.startsWith(this.between[h], at)) return false;
      at += this.between[h].length;
      const printed = String(offsets[this.holes[h].param] + this.holes[h].index);
      if (!text.startsWith(printed, at)) return false;
      at += printed.length;
    }
    const rest = this.between[this.holes.length];
    return text.length === at + rest.length && text.startsWith(rest, at);
  }
}

/** functions whose bodies are equal up to shifts of their indices, shared (Sharing, every body kept) */
export function share(raws: readonly Raw[], params: readonly string[], minChars = MIN_SHARED_CHARS): Shared {
  const sharing = new Sharing(true, minChars);
  for (const r of raws) sharing.add(r);
  return sharing.shared(params);
}
