import { describe, expect, it } from 'vitest';
import { add, cos, diff, div, evaluate, exp, linearIn, mul, neg, num, pow, show, sin, sqrt, sub, atan2, log, type Expr } from '../../src/expr/index.ts';
import { Model } from '../../src/model/index.ts';

const m = new Model('t');
const x = m.variable('x'),
  y = m.variable('y'),
  z = m.variable('z');
const vars = [x, y, z];

describe('hash-consing and simplification at construction', () => {
  it('gives one node per distinct expression', () => {
    expect(add(x, y)).toBe(add(y, x));
    expect(mul(x, y, 2)).toBe(mul(2, y, x));
    expect(sin(add(x, 1))).toBe(sin(add(1, x)));
  });
  it('folds constants and neutral elements', () => {
    expect(add(x, 0)).toBe(x);
    expect(mul(x, 1)).toBe(x);
    expect(mul(x, 0)).toBe(num(0));
    expect(add(2, 3)).toBe(num(5));
    expect(cos(0)).toBe(num(1));
    expect(div(x, 1)).toBe(x);
    expect(div(0, x)).toBe(num(0));
    expect(div(x, x)).toBe(num(1));
  });
  it('merges like terms and powers, flattens nests', () => {
    expect(add(x, x)).toBe(mul(2, x));
    expect(sub(x, x)).toBe(num(0));
    expect(mul(x, x)).toBe(pow(x, 2));
    expect(add(add(x, y), add(z, 1))).toBe(add(x, y, z, 1));
    expect(neg(neg(x))).toBe(x);
    expect(sub(add(x, mul(3, y)), mul(3, y))).toBe(x);
  });
  it('prints readably', () => {
    expect(show(sub(mul(2, x), y))).toBe('2*x - y');
    expect(show(div(add(x, 1), mul(y, z)))).toBe('(1 + x)/(y*z)');
  });
  it('rejects division by the constant zero and non-finite constants', () => {
    expect(() => div(x, 0)).toThrow(/division by the constant zero/);
    expect(() => num(NaN)).toThrow(/non-finite/);
  });
});

// seeded random expressions for property tests
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}
function randomExpr(r: () => number, depth: number): Expr {
  if (depth === 0 || r() < 0.2) return r() < 0.7 ? vars[Math.floor(r() * 3)] : num(Math.round(r() * 8 - 4) / 2);
  const a = randomExpr(r, depth - 1),
    b = randomExpr(r, depth - 1);
  const k = Math.floor(r() * 9);
  return [add(a, b), sub(a, b), mul(a, b), div(a, add(2.5, mul(b, b))), sin(a), cos(b), pow(a, 3), exp(mul(0.1, a)), atan2(a, add(b, 3))][k];
}

describe('differentiation', () => {
  it('agrees with central finite differences on random expressions', () => {
    const r = rng(7);
    for (let n = 0; n < 200; n++) {
      const e = randomExpr(r, 4);
      const point = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
      for (let k = 0; k < 3; k++) {
        const at = (dv: number) => evaluate(e, (s) => point[vars.findIndex((v) => v.sym!.id === s.id)] + (vars[k].sym!.id === s.id ? dv : 0));
        const h = 1e-6;
        const numeric = (at(h) - at(-h)) / (2 * h);
        const symbolic = evaluate(diff(e, vars[k].sym!), (s) => point[vars.findIndex((v) => v.sym!.id === s.id)]);
        expect(symbolic).toBeCloseTo(numeric, 5);
      }
    }
  });
  it('knows the elementary rules', () => {
    expect(diff(sin(x), x.sym!)).toBe(cos(x));
    expect(diff(mul(3, x, y), x.sym!)).toBe(mul(3, y));
    expect(diff(pow(x, 3), x.sym!)).toBe(mul(3, pow(x, 2)));
    expect(diff(log(x), x.sym!)).toBe(div(1, x));
    expect(diff(sqrt(x), y.sym!)).toBe(num(0));
  });
});

describe('linear coefficient extraction', () => {
  it('splits e = a*v + b with a, b free of v', () => {
    const e = add(mul(3, x), mul(y, x), sin(y));
    const lin = linearIn(e, x.sym!)!;
    expect(lin.a).toBe(add(3, y));
    expect(lin.b).toBe(sin(y));
  });
  it('returns null when e is not linear in v', () => {
    expect(linearIn(mul(x, x), x.sym!)).toBeNull();
    expect(linearIn(sin(x), x.sym!)).toBeNull();
    expect(linearIn(div(y, x), x.sym!)).toBeNull();
    expect(linearIn(div(x, y), x.sym!)).not.toBeNull();
  });
});
