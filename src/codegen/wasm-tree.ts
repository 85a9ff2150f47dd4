// (IR value) => the expression tree JavaScript parses from its printed text.
//
// The printer (ir.ts) leaves out parentheses wherever precedence allows, so
// the text's grouping is not always the IR's: a product factor that is
// itself a quotient prints as `a*b/c*d`, which JavaScript evaluates as
// ((a*b)/c)*d, not (a*(b/c))*d; the minus of a negated product binds to its
// first factor (`-a*b` is (-a)*b); a sum nested as a later term of a sum
// joins its left-to-right chain. Rounding differs between those groupings,
// and the WebAssembly target must compute what the JavaScript computes bit
// for bit, so it evaluates this tree: built alongside the printer's own
// rules (the same precedences, the same parentheses), without the text.

import type { Value } from './ir.ts';

type Leaf = Extract<Value, { k: 'num' | 'name' | 'elem' }>;

export type Tree =
  | { op: 'leaf'; v: Leaf }
  /** a parenthesised group: nothing outside joins into it */
  | { op: 'group'; a: Tree }
  | { op: 'neg'; a: Tree }
  | { op: '+' | '-' | '*' | '/'; a: Tree; b: Tree }
  | { op: 'call'; fn: string; args: Tree[] };

/** the tree with the printer's precedence (0 sum or unary minus, 1 product/quotient, 2 atom) and, for a signed form, the tree without its sign */
interface Parsed {
  t: Tree;
  prec: 0 | 1 | 2;
  neg?: Tree;
}

const level = (op: string): number => (op === '+' || op === '-' ? 0 : 1);
const isBinary = (t: Tree): t is Extract<Tree, { b: Tree }> => t.op === '+' || t.op === '-' || t.op === '*' || t.op === '/';

/**
 * `left op right` as one text: an ungrouped chain of right's level at the
 * top of right is left-associative with what precedes it, so left joins its
 * leftmost operand
 */
function join(left: Tree, op: '+' | '-' | '*' | '/', right: Tree): Tree {
  if (isBinary(right) && level(right.op) === level(op)) return { op: right.op, a: join(left, op, right.a), b: right.b };
  return { op, a: left, b: right };
}

/** `-text`: a unary minus binds to the leftmost operand of the ungrouped chains it precedes */
function negateFirst(t: Tree): Tree {
  if (isBinary(t)) return { op: t.op, a: negateFirst(t.a), b: t.b };
  return { op: 'neg', a: t };
}

const leaf = (v: Leaf): Tree => ({ op: 'leaf', v });
/** as paren() of the printer: a value of lower precedence than the place is parenthesised */
const paren = (p: Parsed, min: number): Tree => (p.prec < min ? { op: 'group', a: p.t } : p.t);

function parsed(v: Value): Parsed {
  switch (v.k) {
    case 'num': {
      // the number the printed literal reads as (String(-0) is 0); a negative one is a unary minus of it
      const literal = leaf({ k: 'num', v: Number(String(Math.abs(v.v))) });
      if (v.v >= 0) return { t: literal, prec: 2 };
      return { t: { op: 'neg', a: literal }, prec: 0, neg: literal };
    }
    case 'name':
    case 'elem':
      return { t: leaf(v), prec: 2 };
    case 'add': {
      const terms = v.t.map(parsed);
      let t = terms[0].t;
      for (const term of terms.slice(1)) t = term.neg !== undefined ? join(t, '-', term.neg) : join(t, '+', term.t);
      return { t, prec: 0 };
    }
    case 'mul': {
      const factors = v.f.map((f) => paren(parsed(f), 1));
      if (Math.abs(v.c) !== 1) factors.unshift(leaf({ k: 'num', v: Math.abs(v.c) }));
      const t = factors.slice(1).reduce((acc, f) => join(acc, '*', f), factors[0]);
      return v.c < 0 ? { t: negateFirst(t), prec: 0, neg: t } : { t, prec: 1 };
    }
    case 'pow': {
      const b = paren(parsed(v.b), 2);
      let t = b;
      for (let i = 1; i < v.n; i++) t = join(t, '*', b);
      return { t, prec: 1 };
    }
    case 'div':
      return { t: join(paren(parsed(v.a), 1), '/', paren(parsed(v.b), 2)), prec: 1 };
    case 'call':
      return { t: { op: 'call', fn: v.fn, args: v.args.map((a) => parsed(a).t) }, prec: 2 };
  }
}

/** the tree JavaScript evaluates for the printed value */
export const parseTree = (v: Value): Tree => parsed(v).t;
