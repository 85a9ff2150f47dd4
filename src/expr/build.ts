// Smart constructors: every expression is simplified as it is built
// (constant folding, x*0, x*1, x+0, flattening, like terms and powers merged),
// then interned, so equal expressions share one node.

import { type Expr, type FnName, type Sym, ExprError, constant, intern, isConst } from './node.ts';
import { FUNCTIONS } from './functions.ts';

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

/** (coefficient, base) with term = coefficient * base */
function splitCoefficient(t: Expr): [number, Expr] {
  if (t.op === 'mul' && t.args[0].op === 'const') {
    const rest = t.args.slice(1);
    return [t.args[0].value, rest.length === 1 ? rest[0] : intern('mul', rest)];
  }
  return [1, t];
}

/** lists longer than this find their bases through a Map */
const LONG = 16;

/**
 * Amounts (coefficients, exponents) summed by base, bases in order of first
 * appearance: two arrays scanned, where a Map per call cost more than the
 * few terms of a typical sum or product.
 */
class ByBase {
  readonly bases: Expr[] = [];
  readonly amounts: number[] = [];
  private index: Map<number, number> | undefined;
  add(b: Expr, k: number): void {
    const i = this.find(b);
    if (i >= 0) this.amounts[i] += k;
    else {
      this.index?.set(b.id, this.bases.length);
      this.bases.push(b);
      this.amounts.push(0 + k);
    }
  }
  private find(b: Expr): number {
    if (this.index) return this.index.get(b.id) ?? -1;
    const n = this.bases.length;
    for (let i = 0; i < n; i++) if (this.bases[i] === b) return i;
    if (n >= LONG) this.index = new Map(this.bases.map((x, i) => [x.id, i]));
    return -1;
  }
}

export function add(...xs: Ex[]): Expr {
  let c = 0;
  const like = new ByBase();
  const stack: Expr[] = xs.map(ex);
  while (stack.length) {
    const p = stack.pop()!;
    if (p.op === 'add') stack.push(...p.args);
    else if (p.op === 'const') c += p.value;
    else {
      const [k, b] = splitCoefficient(p);
      like.add(b, k);
    }
  }
  const terms: Expr[] = [];
  like.amounts.forEach((k, i) => k !== 0 && terms.push(scaled(k, like.bases[i])));
  terms.sort(byId);
  if (terms.length === 0) return num(c);
  if (terms.length === 1 && c === 0) return terms[0];
  return intern('add', c === 0 ? terms : [num(c), ...terms]);
}

function scaled(k: number, b: Expr): Expr {
  if (k === 1) return b;
  if (b.op === 'mul') return intern('mul', [num(k), ...b.args]);
  return intern('mul', [num(k), b]);
}

export function sub(a: Ex, b: Ex): Expr {
  return add(a, neg(b));
}

export function neg(a: Ex): Expr {
  return mul(-1, a);
}

export function mul(...xs: Ex[]): Expr {
  let c = 1;
  const powers = new ByBase();
  // operands of mul are never products themselves (canonical): one level of flattening suffices
  for (const raw of xs) {
    const x = ex(raw);
    const parts = x.op === 'mul' ? x.args : [x];
    for (const p of parts) {
      if (p.op === 'const') {
        c *= p.value;
        continue;
      }
      if (p.op === 'pow') powers.add(p.args[0], p.value);
      else powers.add(p, 1);
    }
  }
  if (c === 0) return num(0);
  const factors = powers.bases.map((b, i) => pow(b, powers.amounts[i]));
  factors.sort(byId);
  if (factors.length === 0) return num(c);
  if (c === 1 && factors.length === 1) return factors[0];
  // a constant times a sum stays a product (no distribution: keeps sharing)
  return intern('mul', c === 1 ? factors : [num(c), ...factors]);
}

export function div(a: Ex, b: Ex): Expr {
  const n = ex(a), d = ex(b);
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

export const sin = (x: Ex) => call('sin', x);
export const cos = (x: Ex) => call('cos', x);
export const tan = (x: Ex) => call('tan', x);
export const asin = (x: Ex) => call('asin', x);
export const acos = (x: Ex) => call('acos', x);
export const atan = (x: Ex) => call('atan', x);
export const atan2 = (y: Ex, x: Ex) => call('atan2', y, x);
export const sqrt = (x: Ex) => call('sqrt', x);
export const exp = (x: Ex) => call('exp', x);
export const log = (x: Ex) => call('log', x);
export const abs = (x: Ex) => call('abs', x);
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
