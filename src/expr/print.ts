// Readable infix printing of expressions, for diagnostics, reports and tests.
import type { Expr } from './node.ts';

const PREC = { add: 1, mul: 2, div: 2, pow: 3, atom: 4 } as const;

function prec(e: Expr): number {
  if (e.op === 'add') return PREC.add;
  if (e.op === 'mul' || e.op === 'div') return PREC.mul;
  if (e.op === 'pow') return PREC.pow;
  if (e.op === 'const' && e.value < 0) return PREC.add;
  return PREC.atom;
}

function wrap(e: Expr, min: number, name: (e: Expr) => string): string {
  const s = show(e, name);
  return prec(e) < min ? `(${s})` : s;
}

const symName = (e: Expr) => e.sym!.name;

// (e, naming of symbols) => infix string such as "J1*a1 - (tau - s1.t)"
export function show(e: Expr, name: (e: Expr) => string = symName): string {
  switch (e.op) {
    case 'const':
      return String(e.value);
    case 'sym':
      return name(e);
    case 'add': {
      let s = wrap(e.args[0], PREC.add, name);
      for (const t of e.args.slice(1)) {
        const negated = t.op === 'mul' && t.args[0].op === 'const' && t.args[0].value < 0;
        if (negated) s += ' - ' + showProduct(t, -1, name);
        else if (t.op === 'const' && t.value < 0) s += ' - ' + String(-t.value);
        else s += ' + ' + wrap(t, PREC.add, name);
      }
      return s;
    }
    case 'mul': {
      const c = e.args[0].op === 'const' ? e.args[0].value : 1;
      return c < 0 ? '-' + showProduct(e, -1, name) : showProduct(e, 1, name);
    }
    case 'div':
      return `${wrap(e.args[0], PREC.mul, name)}/${wrap(e.args[1], PREC.pow, name)}`;
    case 'pow':
      return `${wrap(e.args[0], PREC.atom, name)}^${e.value}`;
    case 'fn':
      return `${e.fn}(${e.args.map((a) => show(a, name)).join(', ')})`;
    case 'relax':
      return `relax(${show(e.args[0], name)})`;
    case 'residue':
      return `residue(${show(e.args[0], name)})`;
  }
}

/** a product with its constant factor multiplied by `sign` */
function showProduct(e: Expr, sign: number, name: (e: Expr) => string): string {
  const hasConst = e.args[0].op === 'const';
  const c = (hasConst ? e.args[0].value : 1) * sign;
  const factors = (hasConst ? e.args.slice(1) : e.args).map((f) => wrap(f, PREC.mul, name));
  if (c !== 1) factors.unshift(String(c));
  return factors.join('*');
}
