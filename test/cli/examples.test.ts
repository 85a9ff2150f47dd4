// kron examples: the list is every file of examples/ with the summary its
// first line gives; a copy is byte for byte the shipped file, into the
// current folder or the one named, and a file already there is kept unless
// --force. Oracles: the folder's own listing and the files' bytes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

const root = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'kron-examples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function kron(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '',
    stderr = '';
  const code = await main(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

const shipped = (name: string) => readFileSync(join(root, 'examples', `${name}.ts`), 'utf8');

describe('kron examples', () => {
  it('lists every example with the summary of its first line', async () => {
    const r = await kron('examples');
    expect(r.code, r.stderr).toBe(0);
    const names = readdirSync(join(root, 'examples'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3))
      .sort();
    const lines = r.stdout.split('\n').slice(0, names.length);
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(names);
    for (const [k, name] of names.entries()) {
      const summary = shipped(name).split('\n')[0].slice(`// ${name}: `.length);
      expect(lines[k]).toMatch(new RegExp(`^${name} +${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    }
    expect(r.stdout).toContain('run it: npx tsx <name>.ts');
  });

  it('copies one into the current folder, byte for byte, and says how to run it', () => {
    const dir = mkdtempSync(join(work, 'here-'));
    const r = spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), 'examples', 'pendulum'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'pendulum.ts'), 'utf8')).toBe(shipped('pendulum'));
    expect(r.stdout).toBe('copied pendulum.ts to pendulum.ts\nrun it: npx tsx pendulum.ts\n');
  });

  it('copies into a folder it makes; a file already there is kept without --force (exit 2), replaced with it', async () => {
    const dir = join(work, 'robots');
    const first = await kron('examples', 'urdf-pd.ts', dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`run it: cd ${dir} && npx tsx urdf-pd.ts`);
    writeFileSync(join(dir, 'urdf-pd.ts'), '// mine\n');
    const again = await kron('examples', 'urdf-pd', dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `UsageError: ${join(dir, 'urdf-pd.ts')} exists already\n  hint: kron examples urdf-pd ${dir} --force overwrites it; or give another folder: kron examples urdf-pd <dir>\n`,
    );
    expect(readFileSync(join(dir, 'urdf-pd.ts'), 'utf8')).toBe('// mine\n');
    const forced = await kron('examples', 'urdf-pd', dir, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, 'urdf-pd.ts'), 'utf8')).toBe(shipped('urdf-pd'));
  });

  it('a misspelt name, flag or extra argument is a usage error with the nearest right one', async () => {
    const name = await kron('examples', 'pendulm', join(work, 'none'));
    expect(name.code).toBe(2);
    expect(name.stderr).toContain('UsageError: no example named "pendulm"');
    expect(name.stderr).toContain('hint: did you mean pendulum? examples: fourbar, ilqr, inverse-dynamics,');
    expect(existsSync(join(work, 'none'))).toBe(false);
    const flag = await kron('examples', 'pendulum', '--forse');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('did you mean --force?');
    const extra = await kron('examples', 'pendulum', 'a', 'b');
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('unexpected arguments: b');
  });

  it('a folder that cannot be made is an OutputError naming the file (exit 1), not a stack', async () => {
    writeFileSync(join(work, 'a-file'), '');
    const r = await kron('examples', 'pendulum', join(work, 'a-file', 'sub'));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `OutputError: cannot write ${join(work, 'a-file', 'sub', 'pendulum.ts')}: a part of its path is a file, not a folder (ENOTDIR)\n  hint: check the path\n`,
    );
  });

  it('is a command of kron --help, with help of its own', async () => {
    expect((await kron('--help')).stdout).toMatch(/\n {2}examples +list the example programs/);
    expect((await kron('examples', '--help')).stdout).toContain('usage: kron examples');
  });
});
