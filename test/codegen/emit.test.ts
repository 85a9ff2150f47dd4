// Generated code against the expression interpreter, operation counts
// against the emitted text, and a golden file of the emitted module.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Expr, add, atan2, cos, div, evaluate, exp, mul, num, pow, sin, sqrt, sub } from '../../src/expr/index.ts';
import { Model, der } from '../../src/model/index.ts';
import { compile } from '../../src/compile.ts';

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** a model of n explicit equations y_k = f_k(earlier y's, states), each referring to several earlier ones */
function randomExplicitModel(seed: number, n: number) {
  const r = rng(seed);
  const m = new Model(`random${seed}`);
  const s = [m.variable('s1', { start: 0.3 }), m.variable('s2', { start: -0.7 })];
  const known: Expr[] = [...s];
  const pick = () => known[Math.floor(r() * known.length)];
  const defs: [Expr, Expr][] = [];
  for (let k = 0; k < n; k++) {
    const a = pick(),
      b = pick(),
      c = pick();
    const ops = [
      add(mul(a, b), mul(a, b, c)),
      sub(a, mul(2.5, b)),
      div(a, add(2, mul(b, b))),
      sin(add(a, c)),
      mul(cos(a), sqrt(add(1, mul(b, b)))),
      pow(a, 3),
      exp(mul(-0.1, b)),
      atan2(a, add(b, 3)),
      sub(num(1), a),
    ];
    const f = ops[Math.floor(r() * ops.length)];
    const y = m.variable(`y${k}`);
    m.equation(y, f);
    defs.push([y, f]);
    known.push(y);
  }
  m.equation(der(s[0] as never), known[known.length - 1]);
  m.equation(der(s[1] as never), known[known.length - 2]);
  return { m, defs };
}

describe('generated code', () => {
  it('computes what the expression interpreter computes, on random models (CSE, chunking)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { m, defs } = randomExplicitModel(seed, 120);
      const c = compile(m, { chunk: 17 });
      const x = c.x0();
      c.derivatives(0, x, new Float64Array(2));
      const values = new Map<number, number>([
        [m.variables[0].id, x[0]],
        [m.variables[1].id, x[1]],
      ]);
      for (const [y, f] of defs) {
        const v = evaluate(f, (s) => values.get(s.id)!);
        values.set(y.sym!.id, v);
        expect(Math.abs(c.signal(y.sym!.name) - v)).toBeLessThanOrEqual(1e-13 * Math.max(1, Math.abs(v)));
      }
    }
  });
  it('counts the operations it prints', () => {
    const { m } = randomExplicitModel(11, 60);
    const c = compile(m);
    // an explicit model calls no run-time helper: the module is the model's code alone (runtime/source.ts)
    const code = c.source().split('export function create(fail = defaultFail) {')[1];
    expect(code).not.toMatch(/run-time helpers|function (doubles|luSolve|choleskySolve)\b/);
    const body = code.replace(/\[[^\]]*\]/g, '[]').replace(/\d+(\.\d+)?e[-+]\d+/g, '1');
    const binaryMinus = (body.match(/[\w\])] - /g) ?? []).length;
    const plus = (body.match(/ \+ /g) ?? []).length;
    const { ops, outputOps } = c.report;
    expect(ops.add + outputOps.add).toBe(plus + binaryMinus);
    expect(ops.mul + outputOps.mul).toBe((body.match(/\*/g) ?? []).length);
    expect(ops.div + outputOps.div).toBe((body.match(/\//g) ?? []).length - (body.match(/\/\//g) ?? []).length * 2);
    expect(ops.fn + outputOps.fn).toBe((body.match(/Math\.\w+\(/g) ?? []).length);
  });
  it('emits a torn module exactly as the golden file (UPDATE_GOLDEN=1 rewrites it), which runs', async () => {
    const m = new Model('golden');
    const s = m.variable('s', { start: 1 });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => m.variable(n));
    m.equation(der(s), mul(2, d));
    m.equation(a, add(b, 1));
    m.equation(b, add(div(c, 2), s));
    m.equation(c, sub(mul(3, d), a));
    m.equation(d, add(a, b, cos(s)));
    const compiled = compile(m, { mode: 'torn' });
    const source = compiled.source();
    const file = new URL('./golden/cycle.js', import.meta.url);
    if (process.env.UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, source);
    expect(source).toBe(readFileSync(file, 'utf8'));
    // the golden module runs on its own and agrees with the model's equations
    const golden = await import(file.href);
    const w = new Float64Array(golden.layout.workspace.length);
    const dx = new Float64Array(1);
    golden.create()(0, Float64Array.of(1), dx, new Float64Array(0), new Float64Array(0), w);
    const value = (name: string) => w[golden.layout.workspace.indexOf(name)];
    const at = { s: 1, a: value('a'), b: value('b'), c: value('c'), d: dx[0] / 2 };
    expect(at.a).toBeCloseTo(at.b + 1, 13);
    expect(at.b).toBeCloseTo(at.c / 2 + at.s, 13);
    expect(at.c).toBeCloseTo(3 * at.d - at.a, 13);
    expect(at.d).toBeCloseTo(at.a + at.b + Math.cos(at.s), 13);
  });
});
