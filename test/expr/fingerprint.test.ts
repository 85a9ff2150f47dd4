// Value numbering by exact evaluation modulo primes (src/expr/fingerprint.ts)
// and its use by the elimination's temporaries (src/structure/affine.ts):
// identities of rational functions are found whatever the tree, non-identities
// never are, nothing is assumed of functions, constants are exact.
import { describe, expect, it } from 'vitest';
import { type Expr, ZERO, abs, add, cos, div, mul, num, pow, sin, sqrt, sub } from '../../src/expr/index.ts';
import { Fingerprints, isZeroFingerprint, sameFingerprint } from '../../src/expr/fingerprint.ts';
import { TempPool } from '../../src/structure/affine.ts';
import { Temp } from '../../src/structure/plan-types.ts';
import { Model } from '../../src/model/index.ts';

const m = new Model('fp');
const [x, y, q] = ['x', 'y', 'q'].map((n) => m.variable(n));
const s = ['s11', 's12', 's13', 's22', 's23', 's33'].map((n) => m.variable(n));
const same = (a: Expr, b: Expr) => {
  const f = new Fingerprints();
  return sameFingerprint(f.of(a), f.of(b));
};

/** R S R^T with R the rotation about z by q (sin q, cos q) and S symmetric of six symbols, by its entries' defining sums */
function congruence(): Expr[][] {
  const S = [
    [s[0], s[1], s[2]],
    [s[1], s[3], s[4]],
    [s[2], s[4], s[5]],
  ];
  const R: Expr[][] = [
    [cos(q), mul(-1, sin(q)), num(0)],
    [sin(q), cos(q), num(0)],
    [num(0), num(0), num(1)],
  ];
  const RS = R.map((row) => [0, 1, 2].map((j) => add(...row.map((r, k) => mul(r, S[k][j])))));
  return RS.map((row) => [0, 1, 2].map((j) => add(...row.map((e, k) => mul(e, R[j][k])))));
}

describe('fingerprints', () => {
  it('are equal for one rational function written as different trees', () => {
    expect(same(pow(add(x, y), 2), add(pow(x, 2), mul(2, x, y), pow(y, 2)))).toBe(true);
    expect(same(div(sub(pow(x, 2), pow(y, 2)), sub(x, y)), add(x, y))).toBe(true);
    const A = congruence();
    expect(A[0][1]).not.toBe(A[1][0]); // different trees: hash-consing alone does not share them
    for (const [i, j] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ])
      expect(same(A[i][j], A[j][i])).toBe(true);
  });

  it('differ for different functions, however close', () => {
    expect(same(pow(add(x, y), 2), add(pow(x, 2), pow(y, 2)))).toBe(false);
    expect(same(mul(x, y), mul(x, q))).toBe(false);
    // exact constants: two neighbouring doubles are different numbers (while (x / 3) * 3 is x)
    expect(0.1 + Number.EPSILON / 16).not.toBe(0.1);
    expect(same(mul(x, 0.1), mul(x, 0.1 + Number.EPSILON / 16))).toBe(false);
    expect(same(mul(div(x, 3), 3), x)).toBe(true);
    expect(same(add(x, 1e-300), x)).toBe(false);
    const A = congruence();
    expect(same(A[0][1], A[0][2])).toBe(false);
  });

  it('assume nothing of functions: sin² + cos² is not 1, abs is not the identity, equal arguments give equal values', () => {
    expect(same(add(pow(sin(q), 2), pow(cos(q), 2)), num(1))).toBe(false);
    expect(same(abs(x), x)).toBe(false);
    expect(same(sqrt(pow(x, 2)), x)).toBe(false);
    expect(same(abs(pow(add(x, y), 2)), abs(add(pow(x, 2), mul(2, x, y), pow(y, 2))))).toBe(true);
  });

  it('recognise an identically zero expression, and have none where a denominator vanishes identically', () => {
    const f = new Fingerprints();
    const zero = sub(pow(add(x, y), 2), add(pow(x, 2), mul(2, x, y), pow(y, 2)));
    expect(zero).not.toBe(ZERO);
    expect(isZeroFingerprint(f.of(zero))).toBe(true);
    expect(f.of(div(x, zero))).toBeNull();
    expect(isZeroFingerprint(f.of(sub(x, y)))).toBe(false);
  });

  it('give a bound symbol the value of its expression', () => {
    const f = new Fingerprints();
    const t = new Temp('t');
    f.bind(t, add(x, y));
    expect(sameFingerprint(f.of(mul(2, t.e)), f.of(add(mul(2, x), mul(2, y))))).toBe(true);
    expect(sameFingerprint(f.of(t.e), f.of(x))).toBe(false);
  });
});

describe('temporaries by value (TempPool)', () => {
  it('binds one temporary per value: the second triangle of a symmetric matrix reads the first', () => {
    const pool = new TempPool('p.');
    const A = congruence();
    const upper = pool.use(A[0][1], 'a01');
    expect(pool.use(A[1][0], 'a10')).toBe(upper);
    expect(pool.assigns).toHaveLength(1);
    // a value seen by a pool forked from it (a trial of the symbolic solve) too
    const child = new TempPool('p.', pool);
    expect(child.use(A[1][0], 'a10')).toBe(upper);
    expect(child.assigns).toHaveLength(0);
  });

  it('binds nothing for an identically zero coefficient: it is ZERO', () => {
    const pool = new TempPool('p.');
    expect(pool.use(sub(pow(add(x, y), 2), add(pow(x, 2), mul(2, x, y), pow(y, 2))), 'z')).toBe(ZERO);
    expect(pool.assigns).toHaveLength(0);
  });
});
