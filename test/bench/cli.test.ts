// `kron bench` end to end (src/cli/bench.ts): the JSON rows of issue 7, the
// files it writes, and its usage errors. Shapes only: speed is the benchmark's
// business, never a test's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const kron = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), 'bench', ...args], { cwd: root, encoding: 'utf8' });

describe('kron bench', () => {
  it('--json --n 1,2 --models chain: torn, relaxed and mujoco rows per n; bench.json, bench.md, chain.svg written', () => {
    const out = mkdtempSync(join(tmpdir(), 'kron-bench-'));
    const r = kron('--json', '--n', '1,2', '--models', 'chain', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.map((x) => `${x.model} ${x.n} ${x.mode}`).sort()).toEqual(
      ['chain 1 mujoco', 'chain 1 relaxed', 'chain 1 torn', 'chain 2 mujoco', 'chain 2 relaxed', 'chain 2 torn'],
    );
    for (const row of rows) {
      expect(row.usPerEval).toBeGreaterThan(0);
      if (row.mode === 'mujoco') expect(Object.keys(row).sort()).toEqual(['mode', 'model', 'n', 'usPerEval']);
      else {
        expect(row.compileMs).toBeGreaterThan(0);
        expect(Object.keys(row.ops as object).sort()).toEqual(['add', 'div', 'fn', 'mul']);
      }
    }
    const saved = JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8'));
    expect(saved.rows).toEqual(rows);
    expect(saved.machine.node).toBe(process.version);
    expect(saved.agreement.every((a: { maxRelDiff: number }) => a.maxRelDiff < 1e-8)).toBe(true);
    expect(readFileSync(join(out, 'bench.md'), 'utf8')).toContain('| chain | 2 |');
    expect(existsSync(join(out, 'chain.svg'))).toBe(true);
  });

  it('--max-torn-n skips the larger torn rows and says so', () => {
    const out = mkdtempSync(join(tmpdir(), 'kron-bench-'));
    const r = kron('--n', '1,2', '--models', 'chain', '--max-torn-n', '1', '--no-mujoco', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('skipped chain n=2 torn: n > --max-torn-n 1');
    const saved = JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8'));
    expect(saved.rows.map((x: { n: number; mode: string }) => `${x.n} ${x.mode}`).sort()).toEqual(['1 relaxed', '1 torn', '2 relaxed']);
  });

  it('usage errors exit 2 and name the flag', () => {
    for (const [args, text] of [[['--n', '0'], '--n'], [['--models', 'chain,robot'], 'unknown model "robot"'], [['--bogus'], 'bogus']] as const) {
      const r = kron(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(text);
    }
  });
});
