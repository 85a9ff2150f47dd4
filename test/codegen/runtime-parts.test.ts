// The runtime a generated module carries (codegen/runtime/source.ts) against
// the TypeScript sources it is made from: the committed parts are what
// scripts/runtime-parts.ts makes of the sources now; each part's text,
// evaluated, computes what the source function computes, to the bit, on
// random systems; a module carries the helpers its code calls and no others
// (each called helper defined in the module, none defined that nothing
// calls), on models that reach every kind of solve.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARTS_FILE, partsFileText, runtimeParts } from '../../scripts/runtime-parts.ts';
import { RUNTIME_PARTS } from '../../src/codegen/runtime/parts.generated.ts';
import { type RuntimeName, runtimeClosure, runtimeSource } from '../../src/codegen/runtime/source.ts';
import { choleskySolve, doubles, luSolve, signWatch, sparseCholeskySolve } from '../../src/codegen/runtime.ts';
import { loadModel } from '../../src/cli/load.ts';
import { compile, type CompileOptions } from '../../src/compile.ts';
import { prng } from '../multibody/random-tree.ts';

const NAMES = Object.keys(RUNTIME_PARTS) as RuntimeName[];

/** the parts' functions, evaluated from their text as a module evaluates them */
function evaluated<T>(names: RuntimeName[]): T {
  return new Function(`${runtimeSource(names)}\nreturn { ${names.join(', ')} };`)() as T;
}

describe('the runtime a generated module carries', () => {
  it('is what scripts/runtime-parts.ts makes of the sources (npm run build:runtime)', async () => {
    expect(readFileSync(PARTS_FILE, 'utf8')).toBe(partsFileText(await runtimeParts()));
  });

  it('lists every helper a part calls among its dependencies', () => {
    for (const name of NAMES) {
      const text = RUNTIME_PARTS[name].text.replace(/\/\/.*$/gm, ''); // esbuild keeps a few comments
      for (const other of NAMES)
        if (other !== name && new RegExp(`\\b${other}\\b`).test(text)) expect(RUNTIME_PARTS[name].deps as readonly string[]).toContain(other);
    }
    expect(runtimeClosure(['luSolve'])).toEqual(['singularBelow', 'doubles', 'scratch', 'space', 'luSolve', 'luApply']);
  });

  it('computes what the TypeScript functions compute, to the bit', () => {
    type Fns = { luSolve: typeof luSolve; choleskySolve: typeof choleskySolve; sparseCholeskySolve: typeof sparseCholeskySolve; signWatch: typeof signWatch };
    const text = evaluated<Fns>(['luSolve', 'choleskySolve', 'sparseCholeskySolve', 'signWatch']);
    const rnd = prng(35);
    for (let trial = 0; trial < 50; trial++) {
      const n = 1 + (trial % 9);
      // A random (LU) and A Aᵀ + n I (Cholesky), with a right-hand side
      const A = Array.from({ length: n * n }, () => rnd() * 2 - 1),
        b = Array.from({ length: n }, () => rnd() - 0.5);
      const S = Array.from({ length: n * n }, (_, k) =>
        A.reduce((s, _a, m) => (m < n ? s + A[Math.floor(k / n) * n + m] * A[(k % n) * n + m] : s), Math.floor(k / n) === k % n ? n : 0),
      );
      const same = (f: (M: number[], y: number[]) => number, g: (M: number[], y: number[]) => number, M: number[]) => {
        const [M1, y1, M2, y2] = [[...M], [...b], [...M], [...b]];
        expect(g(M2, y2)).toBe(f(M1, y1));
        expect(y2).toEqual(y1);
        expect(M2).toEqual(M1);
      };
      same(
        (M, y) => luSolve(n, M, y, true),
        (M, y) => text.luSolve(n, M, y, true),
        A,
      );
      same(
        (M, y) => choleskySolve(n, M, y),
        (M, y) => text.choleskySolve(n, M, y),
        S,
      );
      const order = Int32Array.from({ length: n }, (_, i) => i),
        start = Int32Array.from({ length: n + 1 }, (_, p) => (p * (2 * n - p - 1)) / 2);
      const rows = Int32Array.from(Array.from({ length: n }, (_, p) => Array.from({ length: n - p - 1 }, (_, q) => p + 1 + q)).flat());
      same(
        (M, y) => sparseCholeskySolve(n, M, y, order, start, rows, doubles(n)),
        (M, y) => text.sparseCholeskySolve(n, M, y, order, start, rows, doubles(n)),
        S,
      );
    }
    const [w1, w2] = [doubles(6), doubles(6)],
      R = [0, 1, 2, 3, 4, 5];
    for (let i = 0; i < 200; i++) {
      const t = i * 1e-3,
        v = Math.cos(7 * t) + 0.3 * rnd();
      expect(text.signWatch(w2, R, t, v)).toBe(signWatch(w1, R, t, v));
    }
    expect(w2).toEqual(w1);
  });

  // models that reach a dense and a sparse Cholesky, LU, Newton (a kinematic loop's closure), columns, checked pivots
  const cases: [string, CompileOptions][] = [
    ['mechanisms/pendulum.ts', {}],
    ['mechanisms/fourbar.ts', { mode: 'torn' }],
    ['mechanisms/puma560.ts', { mode: 'torn' }],
    ['mechanisms/humanoid.ts', { mode: 'torn' }],
    ['mechanisms/sixbar.ts', { mode: 'relaxed' }],
    ['mechanisms/slidercrank.ts', { mode: 'torn', target: 'wasm' }],
  ];
  it.each(cases)('carries what %s calls and nothing else (%o)', async (file, options) => {
    const { model } = await loadModel(file, {});
    const body = compile(model, options).source().split('export function create(fail = defaultFail) {')[1];
    const defined = NAMES.filter((n) => body.includes(`\n${RUNTIME_PARTS[n].text.replace(/^/gm, '  ')}\n`));
    // the module without the parts it carries: what its own code refers to
    let own = body;
    for (const n of defined) own = own.replace(RUNTIME_PARTS[n].text.replace(/^/gm, '  '), '');
    const called = NAMES.filter((n) => new RegExp(`\\b${n}\\b`).test(own));
    expect(called.length).toBeGreaterThan(0);
    expect(defined).toEqual(runtimeClosure(called));
  });
});
