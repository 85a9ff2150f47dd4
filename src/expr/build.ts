// Smart constructors: every expression is simplified as it is built
// (constant folding, x*0, x*1, x+0, flattening, like terms and powers merged),
// then interned, so equal expressions share one node.

import { type Expr, type FnName, type Sym, ExprError, constant, intern, internRange, isConst } from './node.ts';
import { FUNCTIONS } from './functions.ts';

/** an expression or a number (a constant): what the constructors take */
export type Ex = Expr | number;

export function num(c: number): Expr {
  if (!Number.isFinite(c)) throw new ExprError(`non-finite constant ${c} in an expression`);
  return constant(c === 0 ? 0 : c);
}

export const ZERO = num(0);
export const ONE = num(1);

export function ex(x: Ex): Expr {
  return typeof x === 'number' ? num(x) : x;
}

export function symbol(s: Sym): Expr {
  return intern('sym', [], 0, undefined, s);
}

const byId = (a: Expr, b: Expr) => a.id - b.id;

/** lists up to this long are sorted by insertion */
const SHORT = 24;

/**
 * list[from..to) in ascending id, in place: the operands of a sum or product,
 * a handful as a rule. Array.prototype.sort copies every list into a work
 * array of its own (a quarter of all that a compile allocated, at chain
 * n = 256); ids are distinct or the nodes the same, so any sort gives this order.
 */
function sortById(list: Expr[], from: number, to: number): void {
  if (to - from > SHORT) {
    const sorted = list.slice(from, to).sort(byId);
    for (let i = from; i < to; i++) list[i] = sorted[i - from];
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const x = list[i];
    let j = i - 1;
    for (; j >= from && list[j].id > x.id; j--) list[j + 1] = list[j];
    list[j + 1] = x;
  }
}

/** (coefficient, base) with term = coefficient * base */
function splitCoefficient(t: Expr): [number, Expr] {
  return [coefficientOf(t), baseOf(t)];
}

/** k of a term k * base (1 for a term without a constant factor) */
function coefficientOf(t: Expr): number {
  return t.op === 'mul' && t.args[0].op === 'const' ? t.args[0].value : 1;
}

/** the base of a term k * base: its factors after the constant, as they are (interned when more than one) */
function baseOf(t: Expr): Expr {
  if (t.op !== 'mul' || t.args[0].op !== 'const') return t;
  return t.args.length === 2 ? t.args[1] : internRange('mul', t.args, 1, t.args.length);
}

/** lists longer than this find their bases through a Map */
const LONG = 16;

/**
 * Amounts (coefficients, exponents) summed by base, bases in order of first
 * appearance: two arrays scanned, where a Map per call cost more than the
 * few terms of a typical sum or product. Taken from a pool and given back
 * (take, done): add() and mul() run millions of times in a compile, and mul()
 * can re-enter itself (pow(x, -n) divides).
 */
class ByBase {
  /** the first `size` entries are this call's; the arrays keep their room between calls */
  readonly bases: Expr[] = [];
  readonly amounts: number[] = [];
  size = 0;
  /** the operands of the node being made: out[0] its constant, out[1..] the terms or factors (never a hole: it starts at length 1) */
  readonly out: Expr[] = [ZERO];
  private index: Map<number, number> | undefined;
  add(b: Expr, k: number): void {
    const i = this.find(b);
    if (i >= 0) this.amounts[i] += k;
    else {
      this.index?.set(b.id, this.size);
      this.bases[this.size] = b;
      this.amounts[this.size] = 0 + k;
      this.size++;
    }
  }
  private find(b: Expr): number {
    if (this.index) return this.index.get(b.id) ?? -1;
    const n = this.size;
    for (let i = 0; i < n; i++) if (this.bases[i] === b) return i;
    if (n >= LONG) this.index = new Map(this.bases.slice(0, n).map((x, i) => [x.id, i]));
    return -1;
  }
  static take(): ByBase {
    return spare.pop() ?? new ByBase();
  }
  /** back to the pool, emptied (not shortened: the room stays, the nodes are let go); out[0..used) was written */
  done(used: number): void {
    for (let i = 0; i < this.size; i++) this.bases[i] = ZERO;
    for (let i = 0; i < used; i++) this.out[i] = ZERO;
    this.size = 0;
    this.index = undefined;
    spare.push(this);
  }
}
const spare: ByBase[] = [];

/** the sum of the terms, simplified and interned */
export function add(...xs: Ex[]): Expr {
  // the constants first and in order, as xs.map(ex) made them; xs (a rest array: ours) is then the stack
  for (let i = 0; i < xs.length; i++) if (typeof xs[i] === 'number') xs[i] = num(xs[i] as number);
  const stack = xs as Expr[];
  let c = 0;
  const like = ByBase.take();
  while (stack.length) {
    const p = stack.pop()!;
    if (p.op === 'add') for (const a of p.args) stack.push(a);
    else if (p.op === 'const') c += p.value;
    else like.add(baseOf(p), coefficientOf(p));
  }
  const out = like.out;
  let n = 1;
  for (let i = 0; i < like.size; i++) if (like.amounts[i] !== 0) out[n++] = scaled(like.amounts[i], like.bases[i]);
  const node = operands('add', like, n, c, 0);
  like.done(n);
  return node;
}

/**
 * The node of operands out[1..n) of a sum (neutral 0) or product (neutral 1)
 * and the constant c: sorted by id, the constant put first unless neutral; a
 * lone operand is itself, none the constant.
 */
function operands(op: 'add' | 'mul', by: ByBase, n: number, c: number, neutral: number): Expr {
  const out = by.out;
  sortById(out, 1, n);
  if (n === 1) return num(c);
  if (n === 2 && c === neutral) return out[1];
  if (c === neutral) return internRange(op, out, 1, n);
  out[0] = num(c);
  return internRange(op, out, 0, n);
}

/** operands of scaled(): no re-entry (num() and intern() make no sums or products) */
const scaledArgs: Expr[] = [ZERO];

function scaled(k: number, b: Expr): Expr {
  if (k === 1) return b;
  scaledArgs[0] = num(k);
  let n = 1;
  if (b.op === 'mul') for (const a of b.args) scaledArgs[n++] = a;
  else scaledArgs[n++] = b;
  const node = internRange('mul', scaledArgs, 0, n);
  for (let i = 0; i < n; i++) scaledArgs[i] = ZERO;
  return node;
}

/** a - b */
export function sub(a: Ex, b: Ex): Expr {
  return add(a, neg(b));
}

/** -a */
export function neg(a: Ex): Expr {
  return mul(-1, a);
}

/** the product of the factors, simplified and interned */
export function mul(...xs: Ex[]): Expr {
  let c = 1;
  const powers = ByBase.take();
  // operands of mul are never products themselves (canonical): one level of flattening suffices
  for (const raw of xs) {
    const x = ex(raw);
    if (x.op !== 'mul') c = factorInto(powers, x, c);
    else for (const p of x.args) c = factorInto(powers, p, c);
  }
  if (c === 0) {
    powers.done(0);
    return num(0);
  }
  // given back only after pow(), which can re-enter mul() (and takes another)
  let n = 1;
  for (let i = 0; i < powers.size; i++) powers.out[n++] = pow(powers.bases[i], powers.amounts[i]);
  // a constant times a sum stays a product (no distribution: keeps sharing)
  const node = operands('mul', powers, n, c, 1);
  powers.done(n);
  return node;
}

/** a factor p of a product: a constant multiplies c (returned), anything else adds its exponent to its base */
function factorInto(powers: ByBase, p: Expr, c: number): number {
  if (p.op === 'const') return c * p.value;
  if (p.op === 'pow') powers.add(p.args[0], p.value);
  else powers.add(p, 1);
  return c;
}

/** a / b (a times b to the power -1) */
export function div(a: Ex, b: Ex): Expr {
  const n = ex(a),
    d = ex(b);
  if (isConst(d)) {
    if (d.value === 0) throw new ExprError('division by the constant zero');
    return mul(n, 1 / d.value);
  }
  if (isConst(n, 0)) return n;
  if (n === d) return num(1);
  // pull constant factors out so that c*x/y and x/y share the quotient node
  const [kn, bn] = splitCoefficient(n);
  const [kd, bd] = splitCoefficient(d);
  if (kn !== 1 || kd !== 1) return mul(kn / kd, div(bn, bd));
  return intern('div', [n, d]);
}

/** b^n for an integer n */
export function pow(b: Ex, n: number): Expr {
  if (!Number.isInteger(n)) throw new ExprError(`pow() takes an integer exponent, got ${n}; use sqrt/exp/log`);
  const x = ex(b);
  if (n === 0) return num(1);
  if (n === 1) return x;
  if (n < 0) return div(1, pow(x, -n));
  if (x.op === 'const') return num(x.value ** n);
  if (x.op === 'pow') return pow(x.args[0], x.value * n);
  return intern('pow', [x], n);
}

export function call(fn: FnName, ...xs: Ex[]): Expr {
  const args = xs.map(ex);
  const f = FUNCTIONS[fn];
  if (args.length !== f.arity) throw new ExprError(`${fn} takes ${f.arity} argument(s), got ${args.length}`);
  if (args.every((a) => a.op === 'const')) {
    const v = f.eval(...args.map((a) => a.value));
    if (Number.isFinite(v)) return num(v);
    throw new ExprError(`${fn}(${args.map((a) => a.value).join(', ')}) is not finite`);
  }
  return intern('fn', args, 0, fn);
}

/** sin x */
export const sin = (x: Ex) => call('sin', x);
/** cos x */
export const cos = (x: Ex) => call('cos', x);
/** tan x */
export const tan = (x: Ex) => call('tan', x);
/** arcsin x */
export const asin = (x: Ex) => call('asin', x);
/** arccos x */
export const acos = (x: Ex) => call('acos', x);
/** arctan x */
export const atan = (x: Ex) => call('atan', x);
/** the angle of the point (x, y), in (-pi, pi] */
export const atan2 = (y: Ex, x: Ex) => call('atan2', y, x);
/** the square root of x */
export const sqrt = (x: Ex) => call('sqrt', x);
/** e to the x */
export const exp = (x: Ex) => call('exp', x);
/** the natural logarithm of x */
export const log = (x: Ex) => call('log', x);
/** |x| */
export const abs = (x: Ex) => call('abs', x);
/** -1, 0 or 1: the sign of x */
export const sign = (x: Ex) => call('sign', x);
export const tanh = (x: Ex) => call('tanh', x);
export const max = (x: Ex, y: Ex) => call('max', x, y);
export const min = (x: Ex, y: Ex) => call('min', x, y);
/** the unit step (1 + sign(x)) / 2: 0 below zero, 1/2 at zero, 1 above */
export const step = (x: Ex) => mul(0.5, add(1, sign(x)));

/** relax(x): evaluates as x; invisible to incidence when relaxing (relaxing paper section 4) */
export function relax(x: Ex): Expr {
  const e = ex(x);
  if (e.op === 'const' || e.op === 'relax') return e;
  return intern('relax', [e]);
}

/** residue(x): evaluates as 0; marks x as a tearing variable (tearing paper) */
export function residue(x: Ex): Expr {
  return intern('residue', [ex(x)]);
}
