// Tearing of algebraic loops from residue() hints, the heuristic fallback and
// the "variable tear" overrides, checked against the equations themselves.
import { describe, expect, it } from 'vitest';
import { add, div, evaluate, mul, pow, residue, sin, sub, cos, type Expr } from '../../src/expr/index.ts';
import { Model, der } from '../../src/model/index.ts';
import { compile } from '../../src/compile.ts';
import { StructuralError, TearingError } from '../../src/errors.ts';

/** residuals of the model's own equations at the compiled solution: an independent check */
function maxResidual(m: Model, c: ReturnType<typeof compile>): number {
  let worst = 0;
  for (const eq of m.equations) {
    const r = evaluate(eq.residual, (s) => c.signal(s.name));
    worst = Math.max(worst, Math.abs(r));
  }
  return worst;
}

function evaluateAt(c: ReturnType<typeof compile>, x?: number[]) {
  const x0 = x ? Float64Array.from(x) : c.x0();
  c.derivatives(0, x0, new Float64Array(x0.length));
}

/** a non-linear loop of three equations, optionally with residue(b) */
function nonlinearLoop(hints: boolean) {
  const m = new Model('nl');
  const s = m.variable('s', { start: 0.3 });
  const a = m.variable('a'),
    b = m.variable('b', { start: 0.5 }),
    c = m.variable('c');
  m.equation(der(s), mul(-1, a));
  m.equation(a, add(mul(2, b), c));
  m.equation(hints ? add(b, residue(b)) : b, add(mul(0.5, sin(a)), s));
  m.equation(c, mul(0.1, pow(b, 3)));
  return m;
}

describe('non-linear loops', () => {
  it('tears to one variable from the hint and solves by Newton (residual of every equation ~ 0)', () => {
    const m = nonlinearLoop(true);
    const c = compile(m);
    expect(c.report.blocks).toHaveLength(1);
    expect(c.report.blocks[0]).toMatchObject({ size: 3, tearing: 1, linear: false, tearVariables: ['b'], tearingFrom: 'hints' });
    evaluateAt(c);
    expect(maxResidual(m, c)).toBeLessThan(1e-12);
  });
  it('tears by the heuristic when the loop carries no hints', () => {
    const m = nonlinearLoop(false);
    const c = compile(m);
    expect(c.report.blocks[0]).toMatchObject({ size: 3, tearing: 1, linear: false, tearingFrom: 'heuristic' });
    for (const s of [0.3, -1, 2]) {
      evaluateAt(c, [s]);
      expect(maxResidual(m, c)).toBeLessThan(1e-12);
    }
  });
  it('stops with a SimulationError naming the loop when Newton cannot converge', () => {
    const m = new Model('nosolution');
    const s = m.variable('s', { start: 0 });
    const x = m.variable('x', { start: 1 }),
      y = m.variable('y');
    m.equation(der(s), x);
    m.equation(y, add(pow(x, 2), 1)); // y = x^2 + 1 and y = s - 1 = -1 has no real solution
    m.equation(y, sub(mul(0.5, x), add(1, mul(-1, s))));
    const c = compile(m);
    expect(() => evaluateAt(c)).toThrow(/Newton iteration did not converge at time 0/);
  });
});

describe('linear loops', () => {
  /** a 4-cycle: a = b + 1, b = c/2 + s, c = 3 d - a, d = a + b */
  function cycle(extra?: (m: Model, v: Record<string, Expr>) => void) {
    const m = new Model('cycle');
    const s = m.variable('s', { start: 1 });
    const v = { s, a: m.variable('a'), b: m.variable('b'), c: m.variable('c'), d: m.variable('d') };
    m.equation(der(s), v.d);
    m.equation(v.a, add(v.b, 1));
    m.equation(v.b, add(div(v.c, 2), s));
    m.equation(v.c, sub(mul(3, v.d), v.a));
    m.equation(v.d, add(v.a, v.b, cos(s)));
    extra?.(m, v);
    return m;
  }
  it('solves H z = c from the heuristic tearing exactly', () => {
    const m = cycle();
    const c = compile(m);
    expect(c.report.blocks[0]).toMatchObject({ size: 4, tearing: 1, linear: true });
    evaluateAt(c);
    expect(maxResidual(m, c)).toBeLessThan(1e-12);
  });
  it('applies "variable tear" overrides: add two tearing variables with their residue equations', () => {
    const m = cycle();
    const c = compile(m, { tear: [{ variable: 'a' }, { variable: 'c' }] });
    expect(c.report.blocks[0].tearVariables).toEqual(['a', 'c']);
    expect(c.report.blocks[0].tearing).toBe(2);
    evaluateAt(c);
    expect(maxResidual(m, c)).toBeLessThan(1e-12);
  });
  it('names an override that matches no loop', () => {
    expect(() => compile(cycle(), { tear: [{ variable: 's' }] })).toThrow(TearingError);
  });
});

describe('diagnostics', () => {
  it('a structurally singular model names the over-determined equations and the undetermined variable', () => {
    const m = new Model('singular');
    const x = m.variable('x'),
      y = m.variable('y');
    void y;
    m.equation(x, 1);
    m.equation(mul(2, x), 3);
    let err: StructuralError | undefined;
    try {
      compile(m);
    } catch (e) {
      err = e as StructuralError;
    }
    expect(err).toBeInstanceOf(StructuralError);
    const text = err!.describe();
    // x = 1 determines x (alias elimination binds it), so 2*x = 3 is the equation too many
    expect(text).toMatch(/over-determined: singular: 2\*x = 3/);
    expect(text).toMatch(/y \(not determined\)/);
  });
  it('hints that leave a loop name the equations and variables of that loop', () => {
    const m = new Model('leftloop');
    const s = m.variable('s', { start: 1 });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => m.variable(n));
    m.equation(der(s), d);
    m.equation(add(a, residue(a)), add(b, d, 1)); // residue equation for a
    m.equation(b, add(c, s)); // b, c, d still form a loop:
    m.equation(c, add(mul(2, d), a));
    m.equation(d, sub(b, mul(0.5, c)));
    expect(() => compile(m)).toThrow(TearingError);
    try {
      compile(m);
    } catch (e) {
      const t = (e as TearingError).describe();
      expect(t).toMatch(/leave an algebraic loop of 3 equations/);
      expect((e as TearingError).details.variables?.sort()).toEqual(['b', 'c', 'der(s)']); // d is an alias of der(s)
    }
  });
  it('more residue equations than tearing variables is reported as inconsistent', () => {
    const m = new Model('mismatch');
    const s = m.variable('s', { start: 1 });
    const a = m.variable('a'),
      b = m.variable('b');
    m.equation(der(s), a);
    m.equation(add(a, residue(a)), add(b, 1));
    m.equation(add(b, residue(a)), sub(s, a));
    expect(() => compile(m)).toThrow(/1 tearing variables but 2 residue equations/);
  });
  it('a residue on a variable that is not an unknown of the loop is reported', () => {
    const m = new Model('foreign');
    const s = m.variable('s', { start: 1 });
    const a = m.variable('a'),
      b = m.variable('b');
    m.equation(der(s), mul(2, a));
    m.equation(add(a, residue(s)), add(b, 1));
    m.equation(b, sub(s, mul(2, a)));
    const c = compile(m, { tear: [{ variable: 'a', equation: '' }] });
    expect(c.report.diagnostics.join('\n')).toMatch(/residue\(s\).*s is not an unknown of this algebraic loop/);
    evaluateAt(c);
    expect(maxResidual(m, c)).toBeLessThan(1e-12);
  });
});
