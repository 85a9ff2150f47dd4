// The tree the WebAssembly target evaluates (src/codegen/wasm-tree.ts) is the
// one JavaScript parses from the printed value: on hand-picked groupings and
// on seeded random values, evaluating the tree gives the printed text's value
// bit for bit.
import { describe, expect, it } from 'vitest';
import { type Value, name, num, printValue } from '../../src/codegen/ir.ts';
import { type Tree, parseTree } from '../../src/codegen/wasm-tree.ts';

const env: Record<string, number> = { a: 0.1, b: 0.7, c: 3.3, d: -1.9 };

function evaluate(t: Tree): number {
  switch (t.op) {
    case 'leaf':
      if (t.v.k === 'num') return t.v.v;
      if (t.v.k === 'name') return env[t.v.s];
      throw new Error('no arrays here');
    case 'group':
      return evaluate(t.a);
    case 'neg':
      return -evaluate(t.a);
    case 'call':
      return (Math[t.fn.slice(5) as 'sin'] as (...x: number[]) => number)(...t.args.map(evaluate));
    case '+':
      return evaluate(t.a) + evaluate(t.b);
    case '-':
      return evaluate(t.a) - evaluate(t.b);
    case '*':
      return evaluate(t.a) * evaluate(t.b);
    case '/':
      return evaluate(t.a) / evaluate(t.b);
  }
}

const printed = (v: Value): number => new Function(...Object.keys(env), `return ${printValue(v)};`)(...Object.values(env)) as number;

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function randomValue(r: () => number, depth: number): Value {
  const leaf = (): Value => (r() < 0.7 ? name('abcd'[Math.floor(r() * 4)]) : num(Math.round((r() - 0.3) * 1000) / 100));
  if (depth === 0) return leaf();
  const sub = () => randomValue(r, depth - 1);
  const n = 2 + Math.floor(r() * 3);
  switch (Math.floor(r() * 6)) {
    case 0:
      return { k: 'add', t: Array.from({ length: n }, sub) };
    case 1:
      return { k: 'mul', c: [1, -1, 2.5, -3][Math.floor(r() * 4)], f: Array.from({ length: n }, sub) };
    case 2:
      return { k: 'div', a: sub(), b: sub() };
    case 3:
      return { k: 'pow', b: sub(), n };
    case 4:
      return { k: 'call', fn: 'Math.sin', args: [sub()] };
    default:
      return leaf();
  }
}

describe('the tree of a printed value', () => {
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(name);
  it('groups as JavaScript reads the text', () => {
    // a*(b/c)*d prints a*b/c*d: ((a*b)/c)*d
    const t = parseTree({ k: 'mul', c: 1, f: [a, { k: 'div', a: b, b: c }, d] });
    expect(t).toEqual({
      op: '*',
      a: { op: '/', a: { op: '*', a: { op: 'leaf', v: a }, b: { op: 'leaf', v: b } }, b: { op: 'leaf', v: c } },
      b: { op: 'leaf', v: d },
    });
    // -(a*b) prints -a*b: (-a)*b
    expect(parseTree({ k: 'mul', c: -1, f: [a, b] })).toEqual({ op: '*', a: { op: 'neg', a: { op: 'leaf', v: a } }, b: { op: 'leaf', v: b } });
    // a + (b - c*d) prints a + b - c*d: (a + b) - c*d
    const s = parseTree({ k: 'add', t: [a, { k: 'add', t: [b, { k: 'mul', c: -1, f: [c, d] }] }] });
    expect(s.op === '-' && s.a.op === '+').toBe(true);
  });

  it('evaluates to the printed text bit for bit on random values', () => {
    const r = rng(7);
    for (let i = 0; i < 2000; i++) {
      const v = randomValue(r, 1 + (i % 4));
      expect(Object.is(evaluate(parseTree(v)), printed(v))).toBe(true);
    }
  });
});
