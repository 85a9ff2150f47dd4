// radau's in-place LU (src/sim/steppers/radau-lu.ts) against its definition:
// the solution x of A x = b multiplied back gives b (real and complex, random
// matrices with a mechanism's sparse rows, n up to 60), a singular matrix (a
// zero pivot, as LINPACK's DEC) is refused, and E2 solved complex equals E2's real 2n × 2n form solved by the
// implicit function theorem's LU (analysis/dense-lu.ts).
import { describe, expect, it } from 'vitest';
import { factorComplex, factorReal, solveComplex, solveReal } from '../../../src/sim/steppers/radau-lu.ts';
import { isSingular, luFactor, luSolve } from '../../../src/analysis/dense-lu.ts';
import { rng } from '../../structure/helpers.ts';

// a matrix shaped as (c I - J) of a mechanism: rows der(q) = qd have one off-diagonal entry
function iterationMatrix(n: number, random: () => number): Float64Array {
  const a = new Float64Array(n * n),
    half = n >> 1;
  for (let i = 0; i < n; i++) {
    if (i < half) a[i * n + half + i] = -1;
    else for (let j = 0; j < n; j++) a[i * n + j] = random() - 0.5;
    a[i * n + i] += 3 * (random() - 0.5);
  }
  return a;
}

describe('radau-lu', () => {
  const random = rng(5);
  it.each([1, 2, 7, 24, 60])('real: A x = b to 1e-12 (n = %i)', (n) => {
    const A = iterationMatrix(n, random),
      b = Float64Array.from({ length: n }, () => random() - 0.5);
    const lu = Float64Array.from(A),
      perm = new Int32Array(n),
      x = Float64Array.from(b);
    expect(factorReal(n, lu, perm, new Int32Array(n))).toBe(true);
    solveReal(n, lu, perm, x);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += A[i * n + j] * x[j];
      expect(Math.abs(s - b[i])).toBeLessThan(1e-12 * (1 + Math.abs(b[i])) * n);
    }
  });

  it.each([1, 3, 24, 60])('complex: (αI/h - J) + iβI/h solved as its real 2n form (n = %i)', (n) => {
    const J = iterationMatrix(n, random).map((v) => -v);
    const [al, be] = [2.7, 1.9];
    const c = new Float64Array(2 * n * n),
      m = 2 * n,
      real = new Float64Array(m * m);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const v = -J[i * n + j] + (i === j ? al : 0);
        c[2 * (i * n + j)] = v;
        c[2 * (i * n + j) + 1] = i === j ? be : 0;
        real[i * m + j] = real[(n + i) * m + n + j] = v;
      }
    for (let i = 0; i < n; i++) ((real[i * m + n + i] = -be), (real[(n + i) * m + i] = be));
    const rhs = Float64Array.from({ length: m }, () => random() - 0.5);
    const perm = new Int32Array(n);
    expect(factorComplex(n, c, perm, new Int32Array(n))).toBe(true);
    const re = rhs.slice(0, n),
      im = rhs.slice(n);
    solveComplex(n, c, perm, re, im);
    const f = luFactor(m, real);
    if (isSingular(f)) throw new Error('singular');
    const want = luSolve(f, rhs);
    for (let i = 0; i < n; i++) {
      expect(re[i]).toBeCloseTo(want[i], 11);
      expect(im[i]).toBeCloseTo(want[n + i], 11);
    }
  });

  it('refuses a singular matrix', () => {
    // exact in doubles, as LINPACK's DEC judges: row 3 = 2 row 2 leaves a pivot of exactly 0
    const n = 4,
      A = Float64Array.from([2, 1, 0, 3, 1, 4, 1, 0, 1, 1, 2, 1, 2, 2, 4, 2]);
    expect(factorReal(n, A, new Int32Array(n), new Int32Array(n))).toBe(false);
    const z = new Float64Array(2 * n * n);
    expect(factorComplex(n, z, new Int32Array(n), new Int32Array(n))).toBe(false);
  });
});
