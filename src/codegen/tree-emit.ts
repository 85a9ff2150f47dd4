// Straight-line JavaScript from arithmetic on symbols, with the constants
// folded as they are met: (sums of products of numbers and named values)
// => function text. What tree-codegen.ts writes a tree's recursions with:
// the tree's constants (unit axes, zero offsets, diagonal inertias, the
// composite masses) are numbers, so a product with a zero vanishes, a one
// drops out and two numbers multiply at generation time, as the forward
// code's constants fold (expr/); what depends on q, qd, qdd stays a name.
//
// A symbol (Sym) is a number or an atom: a local `tK` or an array element
// `w[k]`, `q[k]`. Every computed value is one `const` line; values a later
// part reads are stored in the workspace `w` (store). The text is cut into
// functions at the caller's boundaries once a function passes `maxChars`
// characters (V8 does not optimise a function past ~60 kB of bytecode): a
// local is valid only in its function, which `term` checks, and array
// elements are read into locals once per function.
import { KronError } from '../errors.ts';

/**
 * Where a generated function is cut. Each cut costs the reloads of the
 * workspace values the next function reads again: cutting at 700 lines
 * (~17 kB) made the iiwa's derivatives 3.9-4.1 µs, at 4000 lines (one
 * function per part, ~45 kB) 3.2 µs (CPU time, interleaved, load 16).
 * Counted in characters, not lines, because a line of a large tree's
 * solves is several times longer than one of its kinematics
 */
export const MAX_CHARS = 40_000;

export type Sym = number | string;

/** one product of a sum: its factors (numbers multiply into the coefficient) */
export type Term = readonly Sym[];

export interface OpCount {
  mul: number;
  add: number;
  div: number;
  fn: number;
}

export class Emitter {
  ops: OpCount = { mul: 0, add: 0, div: 0, fn: 0 };
  private chunks: string[][] = [[]];
  /** the characters of the current function so far */
  private chars = 0;
  private local = 0;
  /** the first local of the current function: older ones are out of scope */
  private firstLocal = 0;
  private loaded = new Map<string, string>();
  /** the workspace slot a local holds the value of (read from it or stored to it) */
  private slotOf = new Map<string, string>();
  /** workspace slots handed out */
  slots = 0;

  constructor(private readonly maxChars = MAX_CHARS) {}

  /** Σ terms, each the product of its factors; a number, an atom, or a new local */
  sum(terms: readonly Term[]): Sym {
    let k = 0;
    const parts: string[] = [];
    for (const t of terms) {
      let c = 1;
      const names: string[] = [];
      for (const f of t) {
        if (typeof f === 'number') c *= f;
        else names.push(this.atom(f));
      }
      if (c === 0) continue;
      if (names.length === 0) {
        k += c;
        continue;
      }
      this.ops.mul += names.length - 1 + (c === 1 || c === -1 ? 0 : 1);
      const p = names.join('*');
      parts.push(c === 1 ? `+${p}` : c === -1 ? `-${p}` : c > 0 ? `+${c}*${p}` : `-${-c}*${p}`);
    }
    if (parts.length === 0) return k;
    if (k !== 0) parts.push(k > 0 ? `+${k}` : `-${-k}`);
    this.ops.add += parts.length - 1;
    if (parts.length === 1 && parts[0].startsWith('+') && !parts[0].includes('*')) return parts[0].slice(1);
    const text = parts.join('');
    return this.let(text.startsWith('+') ? text.slice(1) : text);
  }

  /** a * b */
  mul(a: Sym, b: Sym): Sym {
    return this.sum([[a, b]]);
  }

  /** cos, sin or the reciprocal of x: a number folded, else a local */
  call(fn: 'cos' | 'sin' | 'inv', x: Sym): Sym {
    if (typeof x === 'number') return fn === 'inv' ? 1 / x : Math[fn](x);
    const a = this.atom(x);
    if (fn === 'inv') this.ops.div++;
    else this.ops.fn++;
    return this.let(fn === 'inv' ? `1/${a}` : `Math.${fn}(${a})`);
  }

  /**
   * x stored in a workspace slot of its own; a number stays a number, and a
   * value already in a slot (read from it, or stored there before: a
   * rotation's column that is also a joint axis) is that slot, not a copy.
   * Each slot is written once, so the slot holds it for good
   */
  store(x: Sym, always = false): Sym {
    if (typeof x === 'number' && !always) return x;
    if (typeof x === 'number') {
      const s = `w[${this.slots++}]`;
      this.line(`${s}=${x};`);
      return s;
    }
    if (x.startsWith('w[')) return x;
    const held = this.slotOf.get(x);
    if (held !== undefined) return held;
    const s = `w[${this.slots++}]`,
      a = this.atom(x);
    this.line(`${s}=${a};`);
    this.loaded.set(s, a);
    this.slotOf.set(a, s);
    return s;
  }

  /** out[k] = x (an output array of the caller's) */
  write(array: string, k: number, x: Sym): void {
    this.line(`${array}[${k}]=${typeof x === 'number' ? String(x) : this.atom(x)};`);
  }

  /** a place where the text may start a new function: nothing local lives on past it */
  boundary(): void {
    if (this.chars < this.maxChars) return;
    this.chunks.push([]);
    this.chars = 0;
    this.firstLocal = this.local;
    this.loaded.clear();
  }

  /**
   * One generated function of `args`: what `build` emits, cut into
   * functions at its boundaries; `new Function(text)()` returns it. The
   * workspace slots go on from the functions made before (they share w)
   */
  fn(args: string, build: () => void): { text: string; ops: OpCount; lines: number } {
    this.chunks = [[]];
    this.chars = 0;
    this.ops = { mul: 0, add: 0, div: 0, fn: 0 };
    this.firstLocal = this.local;
    this.loaded.clear();
    build();
    const chunks = this.chunks.filter((c) => c.length > 0);
    const fns = chunks.map((c, i) => `function c${i}(${args}){\n${c.join('\n')}\n}`);
    const text = `${fns.join('\n')}\nreturn function(${args}){${chunks.map((_, i) => `c${i}(${args});`).join('')}};`;
    return { text, ops: this.ops, lines: chunks.reduce((s, c) => s + c.length, 0) };
  }

  private let(expr: string): string {
    const name = `t${this.local++}`;
    this.line(`const ${name}=${expr};`);
    return name;
  }

  private line(s: string): void {
    this.chunks[this.chunks.length - 1].push(s);
    this.chars += s.length + 1;
  }

  /** an atom usable here: an array element read into a local once per function; a local of this function */
  private atom(s: string): string {
    if (s.endsWith(']')) {
      let l = this.loaded.get(s);
      if (l === undefined) {
        this.loaded.set(s, (l = this.let(s)));
        if (s.startsWith('w[')) this.slotOf.set(l, s);
      }
      return l;
    }
    if (s.startsWith('t') && Number(s.slice(1)) < this.firstLocal)
      throw new KronError(`tree code generation: local ${s} used after the function it lives in`, {
        hint: 'an internal error of src/codegen/tree-codegen.ts: a value read across a boundary must be stored in the workspace',
      });
    return s;
  }
}

/**
 * The functions' texts without the workspace stores that nothing reads: a
 * value is stored when a later part may read it (a rotation, a composite, a
 * pair), which is only known once every part is written — a leaf's rotation
 * or the tau of the inverse pass are read by no one on the forward path.
 * Reads are the `const tK=w[k];` loads of the texts, and the slots named by
 * `alsoRead` (symbols printed into other code: the pivot check's). Each
 * store is one line `w[k]=x;` (store()), so a dead one drops whole
 */
export function withoutDeadStores<T extends { text: string }>(made: readonly T[], alsoRead: readonly Sym[]): T[] {
  const read = new Set<string>();
  for (const m of made) for (const [, k] of m.text.matchAll(/=w\[(\d+)\];/g)) read.add(k);
  for (const s of alsoRead) if (typeof s === 'string' && s.startsWith('w[')) read.add(s.slice(2, -1));
  return made.map((m) => ({ ...m, text: m.text.replace(/^w\[(\d+)\]=[^;\n]*;\n/gm, (line, k: string) => (read.has(k) ? line : '')) }));
}
