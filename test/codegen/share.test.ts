// Shared generated code: repeated structure (the bodies of a chain) is emitted
// once and called with offsets, computes exactly what the unshared code
// computes, and its operation counts are those of the calls it makes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import chain from '../../mechanisms/chain.ts';
import puma560 from '../../mechanisms/puma560.ts';
import { compile } from '../../src/compile.ts';
import type { CompiledModel } from '../../src/codegen/compiled.ts';
import { type OpCounts, addOps, noOps } from '../../src/codegen/ops.ts';
import { Sharing, pieces, share } from '../../src/codegen/share.ts';
import { type Stmt, elem, name, num, printBody, printFn } from '../../src/codegen/ir.ts';

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** the operations printed in one function's text, calls not followed */
function printedOps(text: string): OpCounts {
  const body = text.replace(/\[[^\]]*\]/g, '[]').replace(/\d+(\.\d+)?e[-+]\d+/g, '1');
  return {
    add: (body.match(/ \+ /g) ?? []).length + (body.match(/[\w\])] - /g) ?? []).length,
    mul: (body.match(/\*/g) ?? []).length,
    div: (body.match(/\//g) ?? []).length - (body.match(/\/\//g) ?? []).length * 2,
    fn: (body.match(/Math\.\w+\(/g) ?? []).length,
  };
}

/** the operations one call of `name` executes: its own, and those of every call it makes, each time it makes it */
function executedOps(source: string, name: string): OpCounts {
  const functions = new Map<string, string>();
  for (const m of source.matchAll(/^ {2}function (\w+)\([^)]*\) \{\n([\s\S]*?)\n {2}\}$/gm)) functions.set(m[1], m[2]);
  const count = (fn: string): OpCounts => {
    const text = functions.get(fn)!;
    const ops = printedOps(text);
    for (const call of text.matchAll(/^\s*(\w+)\(t, x, u, p, w[^)]*\);$/gm)) addOps(ops, count(call[1]));
    return ops;
  };
  return count(name);
}

/** the functions derivatives() and outputs() reach without entering a pivot check's fallback, and their characters */
function relaxedPath(c: CompiledModel): { functions: number; chars: number } {
  const body = c.generated.body;
  const functions = new Map<string, string>();
  for (const m of body.matchAll(/^function (\w+)\([^)]*\) \{\n([\s\S]*?)\n\}$/gm)) functions.set(m[1], m[2]);
  const reached = new Set<string>();
  const visit = (name: string) => {
    if (reached.has(name) || name.startsWith('fallback') || !functions.has(name)) return;
    reached.add(name);
    for (const call of functions.get(name)!.matchAll(/\b(\w+)\(t, x, u, p, w/g)) visit(call[1]);
  };
  visit('derivatives');
  visit('outputs');
  return { functions: reached.size, chars: [...reached].reduce((sum, f) => sum + functions.get(f)!.length, 0) };
}

function randomState(c: CompiledModel, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from(c.x0(), () => 2 * r() - 1);
}

describe('shared code', () => {
  const n = 64;
  // sharing is the flat compile's (templates.test.ts: the templated one)
  const shared = compile(chain({ n }), { mode: 'relaxed', templates: false });
  const unshared = compile(chain({ n }), { mode: 'relaxed', share: false });

  it('emits the bodies of a relaxed chain once, not n times', () => {
    const calls = [...shared.generated.body.matchAll(/\b(s\d+)\(t, x, u, p, w, /g)].map((m) => m[1]);
    const most = Math.max(...[...new Set(calls)].map((s) => calls.filter((c) => c === s).length));
    expect(most).toBeGreaterThanOrEqual(n / 2 - 4); // the backward sweep: one function per two bodies (z and y axes)
    // the relaxed path alone (the torn fallback of its pivot checks is the torn form's code); 0.42 of it,
    // 0.35 without the outputs pass's sums over all bodies (momentum.*, com.*: one expression each, nothing repeated to share)
    expect(relaxedPath(shared).chars).toBeLessThan(0.45 * relaxedPath(unshared).chars);
    expect(relaxedPath(shared).functions).toBeLessThan(0.6 * relaxedPath(unshared).functions);
    // and it still grows less than linearly: n = 128 needs far less than twice the code of n = 64
    const larger = compile(chain({ n: 2 * n }), { mode: 'relaxed', templates: false });
    expect(relaxedPath(larger).chars).toBeLessThan(1.6 * relaxedPath(shared).chars);
    expect(larger.generated.body.length).toBeLessThan(1.7 * shared.generated.body.length);
  });

  it('computes exactly what the unshared code computes, at random states', () => {
    expect(shared.generated.layout).toEqual(unshared.generated.layout);
    for (const seed of [1, 2, 3, 4, 5]) {
      const x = randomState(shared, seed);
      const a = new Float64Array(x.length),
        b = new Float64Array(x.length);
      shared.derivatives(0.3, x, a);
      unshared.derivatives(0.3, x, b);
      for (let i = 0; i < x.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(b[i])));
      // every unknown and temporary too, outputs included
      shared.signal('b1.frame_a.f[1]');
      unshared.signal('b1.frame_a.f[1]');
      for (let k = 0; k < shared.w.length; k++) expect(shared.w[k]).toBe(unshared.w[k]);
    }
  });

  it('emits a self-contained module that runs the shared code', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kron-share-')), 'chain.js');
    writeFileSync(file, shared.source());
    const mod = await import(pathToFileURL(file).href);
    const x = randomState(shared, 9);
    const dx = new Float64Array(x.length),
      expected = new Float64Array(x.length);
    const w = new Float64Array(mod.layout.workspace.length);
    mod.create()(0, x, dx, Float64Array.from(unshared.u), Float64Array.from(unshared.p), w);
    unshared.derivatives(0, x, expected);
    expect([...dx]).toEqual([...expected]);
  });

  it('counts a shared function once per call', () => {
    expect(shared.report.ops).toEqual(unshared.report.ops);
    expect(shared.report.outputOps).toEqual(unshared.report.outputOps);
    const source = shared.source();
    expect(executedOps(source, 'derivatives')).toEqual(shared.report.ops);
    expect(executedOps(source, 'outputs')).toEqual(shared.report.outputOps);
    // the text alone counts far less: most of it runs many times (shared functions of derivatives() and of outputs())
    const once = noOps();
    for (const m of source.matchAll(/^ {2}function s\d+\([^)]*\) \{\n([\s\S]*?)\n {2}\}$/gm)) addOps(once, printedOps(m[1]));
    expect(once.mul).toBeLessThan((shared.report.ops.mul + shared.report.outputOps.mul) / 4);
  });

  it('leaves a model without repeats as it was: PUMA-560 has other numbers on every link', () => {
    const a = compile(puma560(), { mode: 'relaxed' });
    const b = compile(puma560(), { mode: 'relaxed', share: false });
    expect(a.report.ops).toEqual(b.report.ops);
    const x = randomState(a, 7);
    const da = new Float64Array(x.length),
      db = new Float64Array(x.length);
    a.derivatives(0, x, da);
    b.derivatives(0, x, db);
    expect([...da]).toEqual([...db]);
  });
});

describe('pieces', () => {
  it('cuts a repeated region at its period, so that its pieces are equal', () => {
    const r = rng(3);
    const unit = Array.from({ length: 37 }, () => Math.floor(r() * 1e6));
    const prefix = Array.from({ length: 13 }, () => -Math.floor(r() * 1e6));
    const shapes = [...prefix, ...Array.from({ length: 30 }, () => unit).flat(), 1, 2, 3];
    const cut = pieces(shapes, 100);
    expect(cut[0][0]).toBe(0);
    expect(cut.at(-1)![1]).toBe(shapes.length);
    for (let i = 1; i < cut.length; i++) expect(cut[i][0]).toBe(cut[i - 1][1]);
    const inRegion = cut.filter(([a, b]) => a >= 13 && b <= 13 + 30 * 37);
    expect(inRegion.length).toBeGreaterThanOrEqual(14);
    expect(inRegion.every((p) => p[2])).toBe(true);
    const key = (p: [number, number, boolean]) => shapes.slice(p[0], p[1]).join();
    // two periods to a piece (a power of two below 100 / 37): all equal
    expect(new Set(inRegion.map(key)).size).toBe(1);
    expect(inRegion[0][1] - inRegion[0][0]).toBe(74);
  });
});

describe('share', () => {
  const fn = (name: string, body: Stmt[]) => ({ name, body, text: printBody(body) });
  /** const v0 = w[a]*x[b]; w[c] = v0 + w[3] + k; */
  const piece = (a: number, b: number, c: number, k = 0.5): Stmt[] => [
    { k: 'const', name: 'v0', v: { k: 'mul', c: 1, f: [elem('w', a), elem('x', b)] } },
    { k: 'store', to: elem('w', c), v: { k: 'add', t: [name('v0'), elem('w', 3), num(k)] } },
  ];
  it('shares bodies equal up to shifted indices, with one offset per way the indices move', () => {
    const s = share([fn('f0', piece(10, 2, 40)), fn('f1', piece(20, 4, 70)), fn('f2', piece(30, 6, 100))], ['t', 'x', 'u', 'p', 'w'], 0);
    expect([...s.functions.values()].map((f) => printFn(f))).toEqual([
      'function s0(t, x, u, p, w, o0, o1, o2) {\n  const v0 = w[o0]*x[o1];\n  w[o2] = v0 + w[3] + 0.5;\n}',
    ]);
    expect(s.calls.get('f0')).toEqual({ fn: 's0', offsets: [10, 2, 40] });
    expect(s.calls.get('f2')).toEqual({ fn: 's0', offsets: [30, 6, 100] });
  });
  it('shares the same when the IR is let go as functions are made (all but the first few of each group)', () => {
    const raws = () => Array.from({ length: 12 }, (_, j) => fn(`f${j}`, piece(10 * j, 2 * j, 40 + 30 * j)));
    const kept = share(raws(), ['t', 'x', 'u', 'p', 'w'], 0);
    const lean = new Sharing(false, 0);
    const made = raws();
    for (const r of made) lean.add(r);
    expect(made.filter((r) => r.body).length).toBe(8);
    expect(lean.shared(['t', 'x', 'u', 'p', 'w'])).toEqual(kept);
  });
  it('does not share bodies that differ in anything but indices', () => {
    const s = share([fn('f0', piece(0, 1, 1)), fn('f1', piece(1, 2, 2, 0.25)), fn('f2', piece(2, 3, 3, 0.75))], ['t', 'x', 'u', 'p', 'w'], 0);
    expect(s.calls.size).toBe(0);
  });
});
