// The codegen IR: its JavaScript printer spells every construct as the
// emitter always has (precedence, signs, powers), expressions lowered to it
// print back to code that evaluates as the expression does, and operations
// are counted once per distinct node with the one rule (costs.ts nodeOps),
// checked here against a count by hand.
import { describe, expect, it } from 'vitest';
import { type Expr, add, cos, div, evaluate, mul, newSymId, pow, sin, sub, symbol } from '../../src/expr/index.ts';
import { Scope } from '../../src/codegen/emitter.ts';
import { type Fn, type Stmt, type Value, elem, elements, name, num, printFn, printStmt, printValue } from '../../src/codegen/ir.ts';
import { expressionOps } from '../../src/structure/costs.ts';

const a = name('a'),
  b = name('b'),
  c = name('c');

describe('the JavaScript printer', () => {
  it('prints sums, signed products, powers and quotients with the fewest parentheses', () => {
    const cases: [Value, string][] = [
      [{ k: 'add', t: [a, { k: 'mul', c: -1, f: [b, c] }, num(-2), num(3)] }, 'a - b*c - 2 + 3'],
      [{ k: 'mul', c: 2.5, f: [{ k: 'add', t: [a, b] }, c] }, '2.5*(a + b)*c'],
      [{ k: 'mul', c: -3, f: [a] }, '-3*a'],
      [{ k: 'mul', c: 1, f: [{ k: 'div', a, b }, c] }, 'a/b*c'],
      [{ k: 'div', a: { k: 'mul', c: 1, f: [a, b] }, b: { k: 'mul', c: 1, f: [b, c] } }, 'a*b/(b*c)'],
      [{ k: 'pow', b: { k: 'div', a, b }, n: 3 }, '(a/b)*(a/b)*(a/b)'],
      [{ k: 'call', fn: 'Math.atan2', args: [{ k: 'mul', c: -1, f: [a] }, elem('x', 3)] }, 'Math.atan2(-a, x[3])'],
      [{ k: 'add', t: [elem('w', 0, 'o1'), elem('w', 4, 'o1')] }, 'w[o1] + w[o1 + 4]'],
    ];
    for (const [v, text] of cases) expect(printValue(v)).toBe(text);
  });

  it('prints the statements of a straight-line function', () => {
    const body: Stmt[] = [
      { k: 'const', name: 'r0', v: elem('w', 12) },
      { k: 'const', name: 'v0', v: { k: 'mul', c: 1, f: [name('r0'), name('r0')] } },
      { k: 'store', to: elem('w', 13), v: name('v0') },
      { k: 'pivot', v: name('v0'), scale: 7, flag: elem('w', 8) },
      { k: 'text', s: 'return;' },
    ];
    const f: Fn = { name: 'f0', params: ['t', 'x', 'u', 'p', 'w'], body };
    expect(printFn(f)).toBe(
      'function f0(t, x, u, p, w) {\n  const r0 = w[12];\n  const v0 = r0*r0;\n  w[13] = v0;\n  if (!pivotOk(v0, w, 7)) w[8] = 1;\n  return;\n}',
    );
    // elements in printed order: a store's target before its value, a pivot's flag last
    expect(elements(body).map((e) => `${e.a}${e.i}`)).toEqual(['w12', 'w13', 'w8']);
  });
});

describe('lowering', () => {
  const [x, y, z] = ['x', 'y', 'z'].map((n) => symbol({ id: newSymId(), name: n }));
  const values = new Map<string, number>([
    ['x', 0.3],
    ['y', -1.7],
    ['z', 2.2],
  ]);
  /** the statements of a scope as a function of x, y, z returning e's code */
  const run = (e: Expr): { result: number; scope: Scope } => {
    const scope = new Scope((s) => s.name, '', { next: 0 }).prepare([e]);
    const code = scope.code(e);
    const text = `${scope.body.map((st) => printStmt(st)).join('\n')}\nreturn ${code};`;
    const result = new Function('x', 'y', 'z', text)(...['x', 'y', 'z'].map((n) => values.get(n))) as number;
    return { result, scope };
  };

  it('prints code that evaluates as the expression does', () => {
    const exprs = [
      sub(mul(x, y), mul(2, z, x)),
      div(add(x, 1), sub(y, z)),
      pow(sub(x, y), 3),
      add(sin(mul(x, y)), mul(-1, cos(mul(x, y)))),
      mul(-3, div(x, add(y, z)), z),
    ];
    for (const e of exprs) {
      const want = evaluate(e, (s) => values.get(s.name)!);
      expect(run(e).result).toBeCloseTo(want, 14);
    }
  });

  it('counts a small function by hand: x*y shared, 2*z*x, a sum of three, a quotient, a sine', () => {
    const xy = mul(x, y);
    // sin(x*y) + x*y - 2*z*x, divided by (x*y + 1)
    const e = div(add(sin(xy), xy, mul(-2, z, x)), add(xy, 1));
    // x*y 1 mul (once, shared); -2*z*x 2 mul; sum of three 2 add; sin 1 fn; x*y + 1 1 add; quotient 1 div
    const hand = { mul: 3, add: 3, div: 1, fn: 1 };
    const { scope } = run(e);
    expect(scope.ops).toEqual(hand);
    expect(expressionOps([e])).toEqual(hand);
    // x*y is used three times (sin, the sum, the denominator): bound once to a local
    expect(scope.body.map((st) => printStmt(st))).toEqual(['const t0 = x*y;']);
  });
});
