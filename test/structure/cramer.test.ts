// Cramer's rule with shared subdeterminants (Carpanzano & Formenti 1994), checked against
// independent oracles: dense Gaussian elimination with partial pivoting written here, the
// closed-form count of distinct minors of [H c], and the code emitter's own operation counts.
//
// Glossary
//   GE        gaussSolve below: the numeric oracle for z and det(H)
//   total     mul + add + div + fn of an OpCounts
//   pattern   which entries of H are structurally nonzero

import { describe, expect, it } from 'vitest';
import { type Expr, ZERO, add, div, evaluate, mul, num, show, sin, sub, substitute } from '../../src/expr/index.ts';
import { Model } from '../../src/model/index.ts';
import { type OpCounts, choleskyOps, luOps } from '../../src/codegen/ops.ts';
import { Scope } from '../../src/codegen/emitter.ts';
import { cramerSolve, expressionOps } from '../../src/structure/cramer.ts';
import { StructuralError } from '../../src/errors.ts';
import { permutation, randInt, rng } from './helpers.ts';

const m = new Model('t');
const SYMS = ['x', 'y', 'w', 'v'].map((n) => m.variable(n));

type Result = ReturnType<typeof cramerSolve>;

// (A row-major k x k, b, k) => z with A z = b and det(A), by Gaussian elimination with partial pivoting
function gaussSolve(A0: readonly number[], b0: readonly number[], k: number): { z: number[]; det: number } {
  const A = [...A0],
    b = [...b0];
  let det = 1;
  for (let p = 0; p < k; p++) {
    let piv = p;
    for (let i = p + 1; i < k; i++) if (Math.abs(A[i * k + p]) > Math.abs(A[piv * k + p])) piv = i;
    if (piv !== p) {
      for (let j = 0; j < k; j++) [A[p * k + j], A[piv * k + j]] = [A[piv * k + j], A[p * k + j]];
      [b[p], b[piv]] = [b[piv], b[p]];
      det = -det;
    }
    det *= A[p * k + p];
    for (let i = p + 1; i < k; i++) {
      const l = A[i * k + p] / A[p * k + p];
      for (let j = p; j < k; j++) A[i * k + j] -= l * A[p * k + j];
      b[i] -= l * b[p];
    }
  }
  const z = new Array<number>(k).fill(0);
  for (let i = k - 1; i >= 0; i--) {
    let s = b[i];
    for (let j = i + 1; j < k; j++) s -= A[i * k + j] * z[j];
    z[i] = s / A[i * k + i];
  }
  return { z, det };
}

// (result, values of the model symbols) => z and det evaluated; temps in assigns order, so a temp
// read before it is assigned throws
function evaluateResult(r: Result, symValue: Map<number, number>): { z: number[]; det: number } {
  const values = new Map(symValue);
  const value = (s: { id: number; name: string }) => {
    const v = values.get(s.id);
    if (v === undefined) throw new Error(`${s.name} read before it is assigned`);
    return v;
  };
  for (const a of r.assigns) {
    expect(values.has(a.target.id), `${a.target.name} assigned twice`).toBe(false);
    values.set(a.target.id, evaluate(a.expr, value));
  }
  return { z: r.z.map((e) => evaluate(e, value)), det: evaluate(r.det, value) };
}

const maxAbs = (v: readonly number[]) => Math.max(...v.map(Math.abs));

function expectClose(actual: readonly number[], expected: readonly number[], what: string): void {
  const scale = Math.max(1, maxAbs(expected));
  const err = maxAbs(actual.map((a, i) => a - expected[i]));
  expect(err / scale, `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-10);
}

/** a random nonzero constant in [-2, 2] */
function constant(rand: () => number): number {
  const c = Math.round((rand() * 4 - 2) * 100) / 100;
  return c === 0 ? 0.5 : c;
}

/** a random entry: constant, symbol, or a small expression over the symbols */
function randomEntry(rand: () => number): Expr {
  const s = () => SYMS[randInt(rand, SYMS.length)];
  switch (randInt(rand, 7)) {
    case 0:
      return num(constant(rand));
    case 1:
      return s();
    case 2:
      return add(s(), constant(rand));
    case 3:
      return mul(s(), s());
    case 4:
      return sub(mul(constant(rand), s()), s());
    case 5:
      return div(s(), add(2, s()));
    default:
      return sin(add(s(), constant(rand)));
  }
}

/** symbol values in [0.5, 1.5] */
function randomValues(rand: () => number): Map<number, number> {
  return new Map(SYMS.map((e) => [e.sym!.id, 0.5 + rand()]));
}

/** H with entry(i, j) where pattern(i, j), else the constant 0 */
function matrix(k: number, pattern: (i: number, j: number) => boolean, entry: (i: number, j: number) => Expr): Expr[] {
  const H: Expr[] = [];
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) H.push(pattern(i, j) ? entry(i, j) : ZERO);
  return H;
}

// (seed, k, pattern, entries) => whether Cramer's solution matched GE (false: both found H singular)
function checkAgainstGauss(seed: number, k: number, pattern: (i: number, j: number) => boolean, entry: (rand: () => number) => Expr): boolean {
  const rand = rng(seed);
  const H = matrix(k, pattern, () => entry(rand));
  const c = Array.from({ length: k }, () => entry(rand));
  const values = randomValues(rand);
  const at = (e: Expr) => evaluate(e, (s) => values.get(s.id)!);
  const ge = gaussSolve(H.map(at), c.map(at), k);
  let r: Result;
  try {
    r = cramerSolve(H, c, k, 'b.');
  } catch (e) {
    if (!(e instanceof StructuralError)) throw e;
    expect(Math.abs(ge.det), `seed ${seed}: ${e.message}`).toBeLessThan(1e-12);
    return false;
  }
  const got = evaluateResult(r, values);
  expectClose(got.z, ge.z, `seed ${seed} k ${k} z`);
  expectClose([got.det], [ge.det], `seed ${seed} k ${k} det`);
  return true;
}

const dense = () => true;
const total = (o: OpCounts) => o.mul + o.add + o.div + o.fn;
const opsOf = (r: Result) => expressionOps([...r.assigns.map((a) => a.expr), ...r.z]);

let systems = 0;

/** symbolic k x k system, every entry (on the pattern) its own fresh symbol */
function symbolic(k: number, pattern: (i: number, j: number) => boolean = dense, tag = 's'): { H: Expr[]; c: Expr[] } {
  const name = `${tag}${systems++}_`;
  const H = matrix(k, pattern, (i, j) => m.variable(`${name}h${i}${j}`));
  const c = Array.from({ length: k }, (_, i) => m.variable(`${name}c${i}`));
  return { H, c };
}

const binomial = (n: number, r: number): number => (r < 0 || r > n ? 0 : r === 0 ? 1 : (binomial(n - 1, r - 1) * n) / r);

describe('cramerSolve against Gaussian elimination', () => {
  it('solves seeded random dense systems with symbolic entries, k = 1..4', () => {
    let solved = 0;
    for (let k = 1; k <= 4; k++) for (let seed = 1; seed <= 40; seed++) if (checkAgainstGauss(1000 * k + seed, k, dense, randomEntry)) solved++;
    expect(solved).toBeGreaterThan(150);
  });

  it('solves seeded random dense systems of plain constants, with no temporaries', () => {
    for (let k = 1; k <= 4; k++) {
      for (let seed = 1; seed <= 20; seed++) {
        expect(checkAgainstGauss(5000 + 100 * k + seed, k, dense, (rand) => num(constant(rand)))).toBe(true);
        const rand = rng(5000 + 100 * k + seed);
        const r = cramerSolve(
          matrix(k, dense, () => num(constant(rand))),
          Array.from({ length: k }, () => num(constant(rand))),
          k,
        );
        expect(r.assigns).toEqual([]);
        expect(r.z.every((e) => e.op === 'const')).toBe(true);
      }
    }
  });

  it('solves random sparse systems, reducible ones included (block triangular form, det sign)', () => {
    let solved = 0;
    for (let k = 2; k <= 5; k++) {
      for (let seed = 1; seed <= 40; seed++) {
        const rand = rng(9000 + 100 * k + seed);
        const rowOf = permutation(rand, k); // a nonzero on a random transversal, so H is structurally regular
        const extra = new Set<number>();
        for (let i = 0; i < k * k; i++) if (rand() < 0.3) extra.add(i);
        const pattern = (i: number, j: number) => rowOf[j] === i || extra.has(i * k + j);
        if (checkAgainstGauss(9000 + 100 * k + seed, k, pattern, randomEntry)) solved++;
      }
    }
    expect(solved).toBeGreaterThan(150);
  });

  it('solves the matrix M of the paper (figure 2), constants and symbols mixed', () => {
    const [W, a, Y, b] = SYMS;
    const Z = m.variable('Z');
    const rows = [
      [10, W, 0, 0, 0],
      [a, 1, 0, Y, 0],
      [2, 0, 1, 0, 1],
      [1, 4, 1, 3, 1],
      [0, b, 0, a, Z],
    ];
    const H = rows.flat().map((e) => (typeof e === 'number' ? num(e) : e));
    const c = [W, num(1), a, b, Y];
    const values = new Map([...SYMS.map((e, i) => [e.sym!.id, 0.7 + 0.2 * i] as [number, number]), [Z.sym!.id, 1.3]]);
    const at = (e: Expr) => evaluate(e, (s) => values.get(s.id)!);
    const got = evaluateResult(cramerSolve(H, c, 5), values);
    const ge = gaussSolve(H.map(at), c.map(at), 5);
    expectClose(got.z, ge.z, 'figure 2 z');
    expectClose([got.det], [ge.det], 'figure 2 det');
  });

  it('gets the sign of det(H) right for permutation matrices', () => {
    const k = 4;
    for (let seed = 1; seed <= 12; seed++) {
      const rand = rng(seed);
      const rowOf = permutation(rand, k);
      const H = matrix(
        k,
        (i, j) => rowOf[j] === i,
        () => num(1),
      );
      const c = [1, 2, 3, 4].map(num);
      const r = cramerSolve(H, c, k);
      const ge = gaussSolve(
        H.map((e) => e.value),
        c.map((e) => e.value),
        k,
      );
      expect(r.det).toBe(num(ge.det));
      expect(r.z.map((e) => e.value)).toEqual(ge.z);
    }
  });

  it('throws a StructuralError for a structurally singular H and for an identically zero det', () => {
    const [x, y] = SYMS;
    expect(() => cramerSolve([x, y, ZERO, ZERO], [x, y], 2)).toThrow(StructuralError);
    expect(() => cramerSolve([x, y, x, y], [x, y], 2)).toThrow(/identically zero/);
  });
});

describe("shared subdeterminants (the paper's tree, section 5)", () => {
  it('binds each distinct minor of [H c] once: sum over orders 2..k-1 of C(k+1, m), plus det', () => {
    for (let k = 2; k <= 5; k++) {
      const { H, c } = symbolic(k);
      const r = cramerSolve(H, c, k, 'b7.');
      let minors = 1;
      for (let order = 2; order < k; order++) minors += binomial(k + 1, order);
      expect(r.assigns.length).toBe(minors);
      expect(new Set(r.assigns.map((a) => a.expr.id)).size).toBe(r.assigns.length);
      const det = r.assigns.filter((a) => a.target.name === 'b7.det');
      expect(det.length).toBe(1);
      expect(r.det).toBe(det[0].target.e);
    }
  });

  it('costs sum over orders 2..k of C(k+1, m) minors of m mul and m-1 add each, plus k div, on dense H', () => {
    for (let k = 1; k <= 5; k++) {
      const { H, c } = symbolic(k);
      const expected: OpCounts = { mul: 0, add: 0, div: k, fn: 0 };
      for (let order = 2; order <= k; order++) {
        expected.mul += order * binomial(k + 1, order);
        expected.add += (order - 1) * binomial(k + 1, order);
      }
      expect(opsOf(cramerSolve(H, c, k))).toEqual(expected);
    }
  });

  it('counts operations exactly as the code emitter does', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rand = rng(300 + seed);
      const k = 1 + (seed % 4);
      let r: Result;
      try {
        r = cramerSolve(
          matrix(
            k,
            () => rand() < 0.8,
            () => randomEntry(rand),
          ),
          Array.from({ length: k }, () => randomEntry(rand)),
          k,
        );
      } catch {
        continue;
      }
      const exprs = [...r.assigns.map((a) => a.expr), ...r.z];
      const scope = new Scope((s) => s.name, '', { next: 0 }).prepare(exprs);
      for (const e of exprs) scope.code(e);
      expect(expressionOps(exprs)).toEqual(scope.ops);
    }
  });
});

describe('structural zeros', () => {
  const k = 4;
  const denseOps = () => {
    const { H, c } = symbolic(k);
    return opsOf(cramerSolve(H, c, k));
  };

  it('solves a lower-triangular H by forward substitution: far fewer operations than dense', () => {
    const { H, c } = symbolic(k, (i, j) => j <= i, 'lower');
    const ops = opsOf(cramerSolve(H, c, k));
    expect(ops).toEqual({ mul: 6, add: 6, div: 4, fn: 0 }); // k(k-1)/2 mul and add, k div
    expect(total(ops) * 4).toBeLessThan(total(denseOps()));
  });

  it('solves an upper-triangular H by back substitution', () => {
    const { H, c } = symbolic(k, (i, j) => j >= i, 'upper');
    expect(opsOf(cramerSolve(H, c, k))).toEqual({ mul: 6, add: 6, div: 4, fn: 0 });
  });

  it('reduces a diagonal H to k divisions z_i = c_i / H_ii and no multiplications', () => {
    const { H, c } = symbolic(k, (i, j) => i === j, 'diag');
    const r = cramerSolve(H, c, k);
    expect(opsOf(r)).toEqual({ mul: 0, add: 0, div: k, fn: 0 });
    expect(r.assigns).toEqual([]);
    r.z.forEach((zi, i) => expect(zi).toBe(div(c[i], H[i * k + i])));
    expect(r.det).toBe(mul(H[0], H[5], H[10], H[15]));
  });

  it('solves two independent 2x2 blocks for the price of two', () => {
    const block = (i: number, j: number) => Math.floor(i / 2) === Math.floor(j / 2);
    const { H, c } = symbolic(k, block, 'blocks');
    const two = symbolic(2, dense, 'two');
    const one = opsOf(cramerSolve(two.H, two.c, 2));
    expect(opsOf(cramerSolve(H, c, k))).toEqual({ mul: 2 * one.mul, add: 2 * one.add, div: 2 * one.div, fn: 0 });
  });

  it('expands a tridiagonal H along its sparsest lines: cheaper than dense', () => {
    const { H, c } = symbolic(k, (i, j) => Math.abs(i - j) <= 1, 'tri');
    const ops = opsOf(cramerSolve(H, c, k));
    expect(total(ops)).toBeLessThan(total(denseOps()) / 2);
  });
});

describe('op counts against the runtime dense solvers', () => {
  it('prints Cramer vs LU vs Cholesky for dense symbolic k = 1..4 and checks how they grow', () => {
    const rows: string[] = ['| k | Cramer mul/add/div | total | LU mul/add/div | total | Cholesky mul/add/div/sqrt | total |', '|---|---|---|---|---|---|---|'];
    const cramer: OpCounts[] = [];
    for (let k = 1; k <= 4; k++) {
      const { H, c } = symbolic(k, dense, 'cmp');
      const cr = opsOf(cramerSolve(H, c, k));
      const lu = luOps(k),
        ch = choleskyOps(k);
      cramer.push(cr);
      rows.push(
        `| ${k} | ${cr.mul}/${cr.add}/${cr.div} | ${total(cr)} | ${lu.mul}/${lu.add}/${lu.div} | ${total(lu)} | ${ch.mul}/${ch.add}/${ch.div}/${ch.fn} | ${total(ch)} |`,
      );
    }
    console.log(rows.join('\n'));
    // k = 1: one division (generated code divides directly; luSolve would scale first)
    expect(cramer[0]).toEqual({ mul: 0, add: 0, div: 1, fn: 0 });
    for (let k = 2; k <= 4; k++) {
      const cr = cramer[k - 1],
        lu = luOps(k);
      // Cramer divides k times; LU k(k+1)/2 times, plus 2k for its row and column scales
      expect(cr.div).toBe(k);
      expect(lu.div).toBe((k * (k + 1)) / 2 + 2 * k);
      // the gap narrows as k grows: Cramer grows like k 2^k, LU like k^3 / 3 (+ O(k^2) for the scales)
      if (k > 2) expect(total(cr) / total(lu)).toBeGreaterThan(total(cramer[k - 2]) / total(luOps(k - 1)));
    }
    // against the scaled LU (singularity judged on the equilibrated matrix) Cramer's rule
    // alone is cheaper up to k = 4 (11 vs 33, 41 vs 76, 119 vs 142); the generated code adds
    // its Hadamard check (k^2 abs) and compares the totals (codegen/generate.ts, cramerIfCheaper)
    for (let k = 2; k <= 4; k++) expect(total(cramer[k - 1])).toBeLessThan(total(luOps(k)));
  });
});

describe('determinism', () => {
  it('builds the same expressions and the same assign order twice (temporaries matched by position)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const build = () => {
        const rand = rng(700 + seed);
        const k = 2 + (seed % 3);
        return cramerSolve(
          matrix(
            k,
            () => rand() < 0.85,
            () => randomEntry(rand),
          ),
          Array.from({ length: k }, () => randomEntry(rand)),
          k,
          'b1.',
        );
      };
      let r1: Result, r2: Result;
      try {
        r1 = build();
        r2 = build();
      } catch {
        continue;
      }
      expect(r2.assigns.map((a) => a.target.name)).toEqual(r1.assigns.map((a) => a.target.name));
      // the second build's Temps are fresh symbols; renamed to the first build's, every node is the same object
      const rename = new Map(r2.assigns.map((a, i) => [a.target.id, r1.assigns[i].target.e]));
      r2.assigns.forEach((a, i) => expect(substitute(a.expr, rename)).toBe(r1.assigns[i].expr));
      r2.z.forEach((e, i) => expect(substitute(e, rename)).toBe(r1.z[i]));
      expect(substitute(r2.det, rename)).toBe(r1.det);
      expect(r1.z.map((e) => show(e))).toEqual(r2.z.map((e) => show(substitute(e, rename))));
    }
  });

  it('builds literally the same nodes when nothing needs a temporary', () => {
    for (const [k, pattern] of [
      [1, dense],
      [3, (i: number, j: number) => i === j],
    ] as const) {
      const { H, c } = symbolic(k, pattern, 'same');
      const r1 = cramerSolve(H, c, k),
        r2 = cramerSolve(H, c, k);
      expect(r1.assigns).toEqual([]);
      r1.z.forEach((e, i) => expect(r2.z[i]).toBe(e));
      expect(r2.det).toBe(r1.det);
    }
  });
});
