// The run-time symmetry tests that choose between Cholesky and LU for a torn
// mass matrix (src/codegen/runtime.ts), and the route the PUMA 560's torn
// H takes: Cholesky, at random states, with accelerations equal to the
// relaxed form's (an independent elimination).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { isSymmetric, nearSymmetric } from '../../src/codegen/runtime.ts';
import build from '../../mechanisms/puma560.ts';
import { type Expr, type FnName, add, call, cos, div, evaluate, mul, num, pow, sin, sub } from '../../src/expr/index.ts';
import type { Assign } from '../../src/structure/plan-types.ts';
import { prng } from '../multibody/random-tree.ts';
import { Temp } from '../../src/structure/plan-types.ts';
import { seeded, symmetricByValue } from '../../src/structure/symmetry.ts';

const m3 = (...a: number[]) => Float64Array.from(a);

describe('symmetry tests of the torn solve', () => {
  it('nearSymmetric measures on the unit-diagonal scaling; isSymmetric entry by entry', () => {
    // an off-diagonal pair that should be 0 and is 1e-18 against exactly 0: 100% apart entry by entry
    const A = m3(2, 1e-18, 0.5, 0, 3, 0.25, 0.5, 0.25, 4);
    expect(isSymmetric(3, A)).toBe(false);
    expect(nearSymmetric(3, A)).toBe(true);
    // a difference of 1e-9 against sqrt(2 * 3) is a real asymmetry
    A[1] = 1e-9;
    expect(nearSymmetric(3, A)).toBe(false);
    // a non-positive diagonal is not a mass matrix
    expect(nearSymmetric(2, m3(-1, 0, 0, 1))).toBe(false);
    expect(nearSymmetric(2, m3(NaN, 0, 0, 1))).toBe(false);
  });

  it('the PUMA 560 torn H goes through Cholesky, and agrees with the relaxed form', () => {
    const torn = compile(build(), { mode: 'torn' });
    const relaxed = compile(build(), { mode: 'relaxed' });
    const source = torn.source();
    // its triangles are formed along two paths, equal by value (structure/symmetry.ts): Cholesky
    // on one triangle with no run-time symmetry test; both triangles only when it falls back to LU
    expect(source).toMatch(/const definite = cholesky\d+\(H\d+, c\d+, D\d+\);/); // unrolled for 6 x 6 (sparse-cholesky.ts)
    expect(source).not.toMatch(/nearSymmetric\(6/);
    const n = torn.stateNames.length;
    const x = new Float64Array(n),
      a = new Float64Array(n),
      b = new Float64Array(n);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let worst = 0;
    for (let k = 0; k < 200; k++) {
      for (let i = 0; i < n; i++) x[i] = (2 * random() - 1) * 3;
      torn.derivatives(0, x, a);
      relaxed.derivatives(0, x, b);
      for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / (1 + Math.abs(b[i])));
    }
    expect(worst).toBeLessThan(1e-11);
  });

  it('symmetricByValue: triangles that are different expressions of one function, and ones that are not', () => {
    const q = new Temp('q').e,
      r = new Temp('r').e;
    // 2 sin q cos q and sin(2q): equal by value, not by expression
    const H = [num(3), mul(num(2), sin(q), cos(q)), sin(mul(num(2), q)), num(3)];
    expect(symmetricByValue([], H, 2)).toBe(true);
    expect(symmetricByValue([], [num(3), sin(q), sin(r), num(3)], 2)).toBe(false);
    expect(symmetricByValue([], [num(3), sub(q, r), sub(r, q), num(3)], 2)).toBe(false);
  });
  it('symmetricByValue: a function with a kink or a jump is never judged by points (sqrt(q^2) and q agree on half the space)', () => {
    const q = new Temp('q').e;
    expect(symmetricByValue([], [num(3), call('sqrt', mul(q, q)), q, num(3)], 2)).toBe(false);
    expect(symmetricByValue([], [num(3), call('abs', q), call('abs', q), num(3)], 2)).toBe(false); // even when equal: the test is not trusted there
  });

  it('symmetricByValue: on 300 seeded random H and preludes, the verdict of its definition evaluated point by point (evaluate())', () => {
    const verdicts = { true: 0, false: 0 };
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = prng(seed);
      const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
      const atoms: Expr[] = Array.from({ length: 4 }, (_, i) => new Temp(`q${i}`).e);
      const fns: FnName[] = ['sin', 'cos', 'exp', 'log', 'tanh', ...(rnd() < 0.3 ? (['abs', 'sqrt'] as const) : [])];
      const random = (depth: number): Expr => {
        if (depth === 0 || rnd() < 0.25) return rnd() < 0.2 ? num(Math.round(rnd() * 8) / 4 - 1) : pick(atoms);
        const a = random(depth - 1);
        switch (pick(['add', 'mul', 'div', 'pow', 'fn'] as const)) {
          case 'add':
            return add(a, random(depth - 1));
          case 'mul':
            return mul(a, random(depth - 1));
          case 'div':
            return div(a, add(num(2), random(depth - 1)));
          case 'pow':
            return pow(a, 1 + Math.floor(rnd() * 3));
          case 'fn': {
            const f = pick(fns);
            // a constant argument folds, and log(-0.5) is refused there: sin instead
            return a.op === 'const' ? sin(a) : call(f, a);
          }
        }
      };
      // a prelude of temporaries, each reading the atoms and the ones before it (log of a negative: not finite)
      const prelude: Assign[] = [];
      for (let i = 0; i < 1 + Math.floor(rnd() * 4); i++) {
        const target = new Temp(`t${i}`);
        prelude.push({ target, expr: random(3) });
        atoms.push(target.e);
      }
      const k = 2 + Math.floor(rnd() * 3);
      const H: Expr[] = Array.from({ length: k * k }, () => random(3));
      // a symmetric H as different trees of one function ((a + b) c against a c + b c), or a perturbed one
      for (let i = 0; i < k; i++)
        for (let j = 0; j < i; j++) {
          const [a, b, c] = [random(2), random(2), random(2)];
          H[i * k + j] = mul(add(a, b), c);
          H[j * k + i] = rnd() < 0.15 ? add(mul(a, c), mul(b, c), num(1e-3)) : add(mul(a, c), mul(b, c));
        }
      const verdict = symmetricByValue(prelude, H, k);
      expect(verdict, `seed ${seed}`).toBe(byDefinition(prelude, H, k));
      verdicts[`${verdict}`]++;
    }
    // both verdicts are reached: the comparison is not vacuous
    expect(verdicts.true).toBeGreaterThan(30);
    expect(verdicts.false).toBeGreaterThan(30);
  });
});

/**
 * symmetricByValue's definition computed the plain way, as the planner did
 * before it walked the DAG once for all points: at each of three seeded
 * random points the prelude by evaluate() (finite, or no verdict), then H,
 * |H_ij - H_ji| <= 1e-10 sqrt(|H_ii H_jj|); false for a function that is not
 * analytic (abs, sign, max, min, sqrt, atan2) anywhere.
 */
function byDefinition(prelude: readonly Assign[], H: readonly Expr[], k: number): boolean {
  const kinked = new Set(['abs', 'sign', 'max', 'min', 'sqrt', 'atan2']);
  const reads = (e: Expr): boolean => (e.op === 'fn' && kinked.has(e.fn!)) || e.args.some(reads);
  if ([...prelude.map((a) => a.expr), ...H].some(reads)) return false;
  for (let point = 1; point <= 3; point++) {
    const temps = new Map<number, number>();
    const memo = new Map<number, number>();
    // the planner's seeded values, so that both judge at the same points
    const value = (e: Expr) => evaluate(e, (s) => temps.get(s.id) ?? seeded(s.id, point), memo);
    for (const a of prelude) {
      const v = value(a.expr);
      if (!Number.isFinite(v)) return false;
      temps.set(a.target.id, v);
    }
    const h = H.map(value);
    for (let i = 0; i < k; i++)
      for (let j = 0; j < i; j++) if (!(Math.abs(h[i * k + j] - h[j * k + i]) <= 1e-10 * Math.sqrt(Math.abs(h[i * k + i] * h[j * k + j])))) return false;
  }
  return true;
}
