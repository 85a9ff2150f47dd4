// The WebAssembly target (src/codegen/wasm.ts) against the JavaScript target:
// the same derivatives, workspace and trajectories bit for bit on trees, on
// loops whose Newton stays JavaScript, through a relaxed pivot's torn
// fallback, on seeded random mechanisms; per-state memories; the portable form.
import { describe, expect, it } from 'vitest';
import { type Mechanism, UsageError, compile, simulate } from '../../src/index.ts';
import { CompiledModel } from '../../src/codegen/compiled.ts';
import type { CompileOptions } from '../../src/compile.ts';
import chain from '../../mechanisms/chain.ts';
import puma from '../../mechanisms/puma560.ts';
import humanoid from '../../mechanisms/humanoid.ts';
import fourbar from '../../mechanisms/fourbar.ts';
import { buildMechanism } from '../../bench/fuzz/describe.ts';
import { generate } from '../../bench/fuzz/generate.ts';
import { heavyLightBranches } from '../multibody/branches.ts';

/** both targets run for 0.2 s: every sample of every state identical (Object.is: NaN and -0 too) */
function sameRun(build: () => Mechanism, options: CompileOptions) {
  const js = compile(build(), options),
    wasm = compile(build(), { ...options, target: 'wasm' });
  const [a, b] = [js, wasm].map((c) => simulate(c, { stop: 0.2, step: 1e-3 }));
  const differs = a.columns.findIndex((col, k) => col.some((v, i) => !Object.is(v, b.columns[k][i])));
  return { js, wasm, differs };
}

describe('target wasm', () => {
  it.each([
    ['the relaxed chain of 16', () => chain({ n: 16 })],
    ['the relaxed PUMA 560', () => puma()],
    ['the relaxed humanoid (32 dof, branched)', () => humanoid()],
  ])('%s: every function of derivatives() is WebAssembly, the run the same bit for bit', (_, build) => {
    const { wasm, differs } = sameRun(build, { mode: 'relaxed' });
    expect(wasm.report.target).toBe('wasm');
    expect(wasm.wasm!.translated).toBe(wasm.wasm!.called);
    expect(differs).toBe(-1);
  });

  it('torn forms and loops: solves and Newton stay JavaScript on the same memory, the run the same bit for bit', () => {
    for (const [build, mode] of [
      [() => puma(), 'torn'],
      [() => fourbar(), 'torn'],
      [() => fourbar(), 'relaxed'],
    ] as const) {
      const { wasm, differs } = sameRun(build, { mode });
      expect(wasm.report.target).toBe('wasm');
      expect(wasm.wasm!.translated).toBeGreaterThan(0);
      expect(Object.keys(wasm.wasm!.kept).length).toBeGreaterThan(0);
      expect(Object.values(wasm.wasm!.kept).every((why) => why.length > 0)).toBe(true);
      expect(differs).toBe(-1);
    }
  });

  it("a relaxed pivot's failed check sets the flag in WebAssembly, and the torn fallback (JavaScript) solves that evaluation", () => {
    const branches = heavyLightBranches;
    const js = compile(branches(), { mode: 'relaxed' }),
      wasm = compile(branches(), { mode: 'relaxed', target: 'wasm' });
    const x = js.x0(),
      a = new Float64Array(x.length),
      b = new Float64Array(x.length);
    js.derivatives(0, x, a);
    wasm.derivatives(0, x, b);
    expect(wasm.fallbackEvaluations()).toBe(1);
    expect(js.fallbackEvaluations()).toBe(1);
    expect([...b]).toEqual([...a]);
    expect(wasm.signal('jlight.frame_b.f[1]')).toBe(js.signal('jlight.frame_b.f[1]'));
  });

  it('seeded random mechanisms (the fuzzer’s trees and loops, both forms): the same derivatives and workspace bit for bit', () => {
    let compared = 0;
    for (let seed = 1; compared < 16 && seed < 200; seed++) {
      for (const mode of ['torn', 'relaxed'] as const) {
        let js: CompiledModel;
        try {
          js = compile(buildMechanism(generate(seed)), { mode });
        } catch {
          continue; // a mechanism that does not compile (the fuzzer's compile-error class)
        }
        // compile() itself compares the two targets at two states and throws on any difference
        const wasm = compile(buildMechanism(generate(seed)), { mode, target: 'wasm' });
        const x = js.x0().map((v, i) => v + 0.1 * Math.cos(i)),
          a = new Float64Array(x.length),
          b = new Float64Array(x.length);
        let failed: unknown;
        try {
          js.derivatives(0, x, a);
        } catch (e) {
          failed = e;
        }
        if (failed) {
          expect(() => wasm.derivatives(0, x, b)).toThrow((failed as Error).message);
        } else {
          wasm.derivatives(0, x, b);
          expect([...b]).toEqual([...a]);
          const names = js.signalNames();
          expect(names.map((n) => wasm.signal(n))).toEqual(names.map((n) => js.signal(n)));
        }
        compared++;
      }
    }
    expect(compared).toBe(16);
  });

  it('each state has its own memory; the portable form runs WebAssembly too', () => {
    const c = compile(chain({ n: 4 }), { mode: 'relaxed', target: 'wasm' });
    const one = c.createState(),
      two = c.createState();
    const x = c.x0(),
      y = c.x0().map((v) => v + 0.5),
      dx = new Float64Array(x.length);
    one.derivatives(0, x, dx);
    const before = one.signal('b4.frame_a.f[1]');
    two.derivatives(0, y, dx);
    expect(one.signal('b4.frame_a.f[1]')).toBe(before);
    expect(two.signal('b4.frame_a.f[1]')).not.toBe(before);
    const copy = new CompiledModel(structuredClone(c.portable()));
    expect(copy.wasm).toBeDefined();
    const d1 = new Float64Array(x.length),
      d2 = new Float64Array(x.length);
    c.derivatives(0, y, d1);
    copy.derivatives(0, y, d2);
    expect([...d2]).toEqual([...d1]);
  });

  it('an unknown target is a usage error', () => {
    expect(() => compile(chain({ n: 2 }), { target: 'gpu' as never })).toThrow(UsageError);
  });
});
