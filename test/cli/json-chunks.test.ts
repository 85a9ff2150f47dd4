// JSON in pieces against JSON.stringify, the oracle: the same text for plain
// data (typed arrays as arrays), in pieces of bounded size, and for a whole
// `kron simulate --out run.json` of a mechanism (scene, poses, report).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/cli/json-chunks.ts';
import { main } from '../../src/cli/main.ts';
import { compile } from '../../src/compile.ts';
import { simulatePlayback } from '../../src/io/playback.ts';
import build from '../../mechanisms/fourbar.ts';

/** typed arrays as plain arrays: what JSON.stringify must be given to write them as arrays */
const plain = (v: unknown): unknown =>
  ArrayBuffer.isView(v)
    ? [...(v as Float64Array)]
    : Array.isArray(v)
      ? v.map(plain)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
        : v;

describe('jsonChunks', () => {
  it("is JSON.stringify's text: nested objects, arrays, strings with quotes, non-finite numbers as null, undefined members left out", () => {
    const data = {
      a: 1,
      b: 'say "hi"\n',
      c: [1, 'x', null, undefined, [2, 3]],
      d: { e: undefined, f: -0, g: NaN, h: [Infinity, 1e21, 5e-324] },
      t: new Float64Array([0.1, -2, NaN]),
      empty: [],
      nothing: {},
      yes: true,
      fn: () => 1,
    };
    expect([...jsonChunks(data)].join('')).toBe(JSON.stringify(plain(data)));
    expect([...jsonChunks([1, 2])].join('')).toBe('[1,2]');
    expect([...jsonChunks('text')].join('')).toBe('"text"');
  });

  it('long arrays come in pieces near the size asked for, never one string', () => {
    const long = { time: Float64Array.from({ length: 100_000 }, (_, i) => i * 1e-3) };
    const pieces = [...jsonChunks(long, 4096)];
    expect(pieces.length).toBeGreaterThan(100);
    for (const p of pieces) expect(p.length).toBeLessThan(4096 + 32);
    expect(pieces.join('')).toBe(JSON.stringify(plain(long)));
  });

  it('kron simulate --out run.json writes what JSON.stringify writes of the same run (scene, poses, report)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'kron-json-')), 'run.json');
    let stderr = '';
    const code = await main(['simulate', 'mechanisms/fourbar.ts', '--stop', '0.2', '--interval', '0.01', '--no-cache', '--out', out], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
    });
    expect(stderr).toBe(`wrote 21 samples of 2 signals to ${out}\n`);
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    const compiled = compile(build());
    const { result, playback } = simulatePlayback(build(), compiled, { stop: 0.2, step: 1e-3, interval: 0.01 });
    const expected = JSON.parse(JSON.stringify({ model: compiled.report.model, ...result.toJSON(), ...playback }));
    // the compile's time and cache entry differ from one compile to the next
    for (const r of [written.report, expected.report]) (delete r.compileMs, delete r.cache);
    expect(written).toEqual(expected);
  });
});
