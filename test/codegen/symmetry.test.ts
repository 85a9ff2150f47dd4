// The run-time symmetry tests that choose between Cholesky and LU for a torn
// mass matrix (src/codegen/runtime.ts), and the route the PUMA 560's torn
// H takes: Cholesky, at random states, with accelerations equal to the
// relaxed form's (an independent elimination).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { isSymmetric, nearSymmetric } from '../../src/codegen/runtime.ts';
import build from '../../mechanisms/puma560.ts';
import { call, cos, mul, num, sin, sub } from '../../src/expr/index.ts';
import { Temp } from '../../src/structure/plan-types.ts';
import { symmetricByValue } from '../../src/structure/symmetry.ts';

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
});
