// kron simulate's output survives: --out is written to a temporary file and
// renamed at the end, so Ctrl-C, SIGTERM, a failed run and a full disk leave
// the previous file byte for byte (and no temporary file behind), with a
// message and an exit code that is not 0. Real signals to a real process, a
// real ENOSPC (/dev/full) and a real EFBIG (a file size limit, ulimit -f).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import build from '../../mechanisms/pendulum.ts';

const root = new URL('../../', import.meta.url).pathname;
const kron = join(root, 'bin/kron.mjs');
const PREVIOUS = 'time,j1.q\n0,0.3\n'; // what an earlier run left

async function run(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

/** a folder with an earlier result in it */
function withPrevious(): { dir: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kron-out-'));
  const out = join(dir, 'run.csv');
  writeFileSync(out, PREVIOUS);
  return { dir, out };
}

const temporaries = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

/** resolves once the process wrote more than `bytes` to a temporary file in dir */
async function writing(child: ChildProcess, dir: string, bytes: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const tmp = temporaries(dir)[0];
    if (tmp && statSync(join(dir, tmp)).size > bytes) return;
    if (child.exitCode !== null) throw new Error(`kron exited early with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no temporary file grew within 30 s');
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('kron simulate --out survives', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} while writing: the previous file kept byte for byte, the temporary file removed, exit ${code} with a message`, async () => {
      const { dir, out } = withPrevious();
      const child = spawn(process.execPath, [kron, 'simulate', 'mechanisms/pendulum.ts', '--stop', '1e6', '--out', out], { cwd: root });
      const done = exited(child);
      await writing(child, dir, 100_000);
      child.kill(signal);
      const r = await done;
      expect(r.stderr).toBe(`interrupted by ${signal}: ${out} was left as it was\n`);
      expect(r.code).toBe(code);
      expect(readFileSync(out, 'utf8')).toBe(PREVIOUS);
      expect(temporaries(dir)).toEqual([]);
    });
  }

  it('a full disk (/dev/full: ENOSPC) is an OutputError naming the file (exit 1), not an internal error', async () => {
    const r = await run('simulate', 'mechanisms/pendulum.ts', '--stop', '1', '--out', '/dev/full');
    expect(r.stderr).toBe('OutputError: cannot write /dev/full: the disk is full (ENOSPC)\n  hint: free space on that disk, or write to another one\n');
    expect(r.code).toBe(1);
  });

  it('a file size limit reached mid-run (ulimit -f: EFBIG): an OutputError, the previous file kept, no temporary file', () => {
    const { dir, out } = withPrevious();
    // 1 MB allowed; 200 s of the pendulum every 1 ms is ~9 MB of CSV
    const r = spawnSync(
      'bash',
      ['-c', `ulimit -f 1024 && exec "${process.execPath}" "${kron}" simulate mechanisms/pendulum.ts --no-cache --stop 200 --out "${out}"`],
      { cwd: root, encoding: 'utf8' },
    );
    expect(r.stderr).toBe(
      `OutputError: cannot write ${out}: the file is larger than allowed (a file size limit: ulimit -f, or the file system's largest file) (EFBIG)\n  hint: sample less often (--interval) or raise the limit; the previous ${out} was left as it was\n`,
    );
    expect(r.status).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe(PREVIOUS);
    expect(temporaries(dir)).toEqual([]);
  });

  it('a run that fails part-way (a SimulationError) keeps the previous file and leaves no temporary file', async () => {
    const { dir, out } = withPrevious();
    const r = await run('simulate', 'test/errors/fixtures/blowup.ts', '--stop', '2', '--step', '0.25', '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^SimulationError: a non-finite value appeared/);
    expect(readFileSync(out, 'utf8')).toBe(PREVIOUS);
    expect(temporaries(dir)).toEqual([]);
  });

  it('a run that completes replaces the previous file with the CSV of simulate(), through a symbolic link too', async () => {
    const { dir, out } = withPrevious();
    const r = await run('simulate', 'mechanisms/pendulum.ts', '--stop', '0.5', '--out', out);
    expect(r.stderr).toBe(`wrote 501 samples of 2 signals to ${out}\n`);
    const expected = simulate(compile(build()), { stop: 0.5, step: 1e-3 }).toCSV();
    expect(readFileSync(out, 'utf8')).toBe(expected);
    expect(temporaries(dir)).toEqual([]);
    const stdout = await run('simulate', 'mechanisms/pendulum.ts', '--stop', '0.5');
    expect(stdout.stdout).toBe(expected); // streamed to stdout in blocks: the same text
    // a link stays a link: the file it points at is replaced
    writeFileSync(out, PREVIOUS);
    symlinkSync(out, join(dir, 'link.csv'));
    await run('simulate', 'mechanisms/pendulum.ts', '--stop', '0.5', '--out', join(dir, 'link.csv'));
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(out, 'utf8')).toBe(expected);
  });
});
