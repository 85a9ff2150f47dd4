// The WebAssembly dense Cholesky kernel (src/codegen/wasm-cholesky.ts):
// bit for bit the JavaScript choleskySolve of runtime.ts (factor, solution
// and verdict) on seeded random matrices of every size class, definite,
// indefinite, singular and broken; its solution checked against A x = b
// itself; and in a compiled model (the torn chain, the target wasm) the
// derivatives of the JavaScript target, with the kernel in use.
import { describe, expect, it } from 'vitest';
import { choleskyKernelInstance } from '../../src/codegen/wasm.ts';
import { choleskySolve, choleskyTiny } from '../../src/codegen/runtime.ts';
import { compile, simulate } from '../../src/index.ts';
import chain from '../../mechanisms/chain.ts';

const kernel = choleskyKernelInstance(4);
const mem = new Float64Array(kernel.memory.buffer);

/** mulberry32: seeded, so a failure reproduces */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

/** M M^T + shift I for a random M: symmetric, definite for shift > 0 */
function gram(n: number, seed: number, shift: number): Float64Array {
  const r = random(seed),
    M = Float64Array.from({ length: n * n }, r),
    A = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = i === j ? shift : 0;
      for (let k = 0; k < n; k++) s += M[i * n + k] * M[j * n + k];
      A[i * n + j] = s;
    }
  return A;
}

/** both solves on copies of (A, b): their verdicts and every entry of A and b afterwards */
function both(n: number, A: Float64Array, b: Float64Array) {
  const jsA = Array.from(A),
    jsB = Array.from(b);
  const js = choleskySolve(n, jsA, jsB);
  mem.set(A, 0);
  mem.set(b, n * n);
  const wasm = kernel.cholesky(n, 0, n * n * 8, choleskyTiny(n));
  const same = jsA.every((v, i) => Object.is(v, mem[i])) && jsB.every((v, i) => Object.is(v, mem[n * n + i]));
  return { js, wasm, same, x: mem.slice(n * n, n * n + n) };
}

describe('the WebAssembly Cholesky kernel', () => {
  it.each([1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 70])('n = %i: the JavaScript solve bit for bit, and A x = b', (n) => {
    for (const seed of [1, 2, 3]) {
      const A = gram(n, seed * 100 + n, 0.1),
        b = Float64Array.from({ length: n }, random(seed));
      const { js, wasm, same, x } = both(n, A, b);
      expect(same).toBe(true);
      expect(wasm).toBe(js);
      expect(wasm).toBeGreaterThan(0);
      // an independent check: the residual of the original system, against its scale
      const scale = Math.max(...A.map(Math.abs)) * Math.max(...x.map(Math.abs));
      for (let i = 0; i < n; i++) {
        let r = -b[i];
        for (let k = 0; k < n; k++) r += A[i * n + k] * x[k];
        expect(Math.abs(r)).toBeLessThan(1e-10 * scale);
      }
    }
  });

  it('indefinite (a negative pivot) returns 0, singular (rank 1) and broken diagonals -1, as choleskySolve does', () => {
    const n = 20,
      b = new Float64Array(n).fill(1);
    // a positive diagonal whose pivot goes negative (the s test), and a negative diagonal (the ajj test)
    const coupled = gram(n, 7, 0.1);
    coupled[13 * n + 12] = coupled[12 * n + 13] = 1e3;
    const negative = gram(n, 8, 0.1);
    negative[13 * n + 13] = -50;
    const rankOne = new Float64Array(n * n).map((_, at) => (1 + (at % n)) * (1 + Math.floor(at / n)));
    const cases: [string, Float64Array, number][] = [
      ['indefinite pivot', coupled, 0],
      ['negative diagonal', negative, 0],
      ['rank one', rankOne, -1],
    ];
    for (const bad of [0, NaN, Infinity, -3]) {
      const A = gram(n, 9, 0.1);
      A[5 * n + 5] = bad;
      cases.push([`diagonal ${bad}`, A, bad < 0 ? 0 : -1]);
    }
    for (const [what, A, verdict] of cases) {
      const r = both(n, A, b);
      expect(r.same, what).toBe(true);
      expect(r.wasm, what).toBe(r.js);
      expect(r.wasm, what).toBe(verdict);
    }
  });

  it('the torn chain of 24 (H 24 x 24): its solve runs in WebAssembly, the run is the JavaScript one bit for bit', () => {
    const js = compile(chain({ n: 24 }), { mode: 'torn' }),
      wasm = compile(chain({ n: 24 }), { mode: 'torn', target: 'wasm' });
    expect(wasm.report.target).toBe('wasm');
    expect(Object.keys(wasm.wasm!.arena ?? {}).length).toBe(2);
    expect(wasm.generated.body).toContain('choleskySolve(24, ');
    const [a, b] = [js, wasm].map((c) => simulate(c, { stop: 0.1, step: 1e-3 }));
    expect(a.columns.every((col, k) => col.every((v, i) => Object.is(v, b.columns[k][i])))).toBe(true);
  });
});
