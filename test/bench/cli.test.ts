// `kron bench` end to end (src/cli/bench.ts): the JSON rows of issue 7, the
// files it writes, and its usage errors. Shapes only: speed is the benchmark's
// business, never a test's.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kronInProcess } from '../cli/in-process.ts';

const kron = (...args: string[]) => kronInProcess('bench', ...args);

describe('kron bench', () => {
  it('--json --n 1,2 --models chain: torn and relaxed rows before and after a detach, mujoco rows, per n; bench.json, bench.md, chain.svg written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'kron-bench-'));
    const r = await kron('--json', '--n', '1,2', '--models', 'chain', '--rounds', '5', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.map((x) => `${x.model} ${x.n} ${x.mode}${x.afterDetach ? ' detached' : ''}`).sort()).toEqual([
      'chain 1 mujoco',
      'chain 1 relaxed',
      'chain 1 relaxed detached',
      'chain 1 torn',
      'chain 1 torn detached',
      'chain 2 mujoco',
      'chain 2 relaxed',
      'chain 2 relaxed detached',
      'chain 2 torn',
      'chain 2 torn detached',
    ]);
    for (const row of rows) {
      expect(row.usPerEval).toBeGreaterThan(0);
      expect(row.usMin).toBeGreaterThan(0);
      expect(row.usMin).toBeLessThanOrEqual(row.usPerEval as number);
      if (row.mode === 'mujoco') expect(Object.keys(row).sort()).toEqual(['mode', 'model', 'n', 'usMin', 'usPerEval']);
      else {
        expect(row.compileMs).toBeGreaterThan(0);
        expect(row.compileCpuMs).toBeGreaterThan(0);
        expect(Object.keys(row.ops as object).sort()).toEqual(['add', 'div', 'fn', 'mul']);
      }
    }
    expect(r.stderr).toContain('timing 4 compiled forms in 5 interleaved rounds');
    const saved = JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8'));
    expect(saved.rows).toEqual(rows);
    expect(saved.machine.node).toBe(process.version);
    expect(saved.agreement.every((a: { maxRelDiff: number }) => a.maxRelDiff < 1e-8)).toBe(true);
    const md = readFileSync(join(out, 'bench.md'), 'utf8');
    expect(md).toContain('| chain | 2 |');
    expect(md).toMatch(/- relaxed after an ArrayBuffer was detached: \d\.\d\d–\d\.\d\d× its time before/);
    expect(existsSync(join(out, 'chain.svg'))).toBe(true);
  });

  it('--max-torn-n skips the larger torn rows and says so', async () => {
    const out = mkdtempSync(join(tmpdir(), 'kron-bench-'));
    const r = await kron('--n', '1,2', '--models', 'chain', '--max-torn-n', '1', '--no-mujoco', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('skipped chain n=2 torn: n > --max-torn-n 1');
    const saved = JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8'));
    expect(saved.rows.map((x: { n: number; mode: string }) => `${x.n} ${x.mode}`).sort()).toEqual(['1 relaxed', '1 torn', '2 relaxed']);
  });

  it('usage errors exit 2 and name the flag', async () => {
    for (const [args, text] of [
      [['--n', '0'], '--n'],
      [['--models', 'chain,robot'], 'unknown model "robot"'],
      [['--bogus'], 'bogus'],
    ] as const) {
      const r = await kron(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(text);
    }
  });
});
