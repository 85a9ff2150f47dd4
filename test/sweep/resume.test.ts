// kron sweep --out keeps each run as it finishes (<out>.partial): a sweep
// stopped by SIGTERM keeps its runs, and the same command again resumes and
// writes the very CSV an uninterrupted sweep writes (the oracle), a line cut
// short by a crash dropped. A partial file of another sweep, or not written
// by Kron, is refused and left alone.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { compile } from '../../src/compile.ts';
import { sweepPoints } from '../../src/sweep/sweep.ts';
import { sweepIdentity } from '../../src/sweep/partial.ts';
import build from '../../mechanisms/pendulum.ts';

const root = new URL('../../', import.meta.url).pathname;

async function kron(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

const sweepArgs = (out: string, stop = '0.05') => [
  'mechanisms/pendulum.ts',
  '--grid',
  'j1.q=0:1:1000',
  '--stop',
  stop,
  '--signals',
  'j1.q',
  '--workers',
  '2',
  '--out',
  out,
];
const lineCount = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);

/** resolves once the file has `lines` lines */
async function lines(child: ChildProcess, file: string, count: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (lineCount(file) >= count) return;
    if (child.exitCode !== null) throw new Error(`kron exited early with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${file} did not reach ${count} lines within 30 s`);
}

describe('kron sweep --out: runs kept as they finish, resumed by the same command', () => {
  it('SIGTERM keeps the finished runs (exit 143, a message); another sweep is refused; the same command resumes to the uninterrupted CSV byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-resume-'));
    const reference = join(dir, 'reference.csv'),
      out = join(dir, 'sweep.csv'),
      partial = `${out}.partial`;
    expect((await kron('sweep', ...sweepArgs(reference))).stderr).toBe(`wrote 1000 runs (0 failed) to ${reference}\n`);

    const child = spawn(process.execPath, [join(root, 'bin/kron.mjs'), 'sweep', ...sweepArgs(out)], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    await lines(child, partial, 30);
    child.kill('SIGTERM');
    expect(await exit).toBe(143);
    const kept = lineCount(partial) - 1; // the first line names the sweep
    expect(stderr).toBe(`interrupted by SIGTERM: ${kept} of 1000 runs are in ${partial}; the same command again resumes from there\n`);
    expect(kept).toBeLessThan(1000);
    expect(existsSync(out)).toBe(false);

    // the same --out with other settings: refused, the file left alone
    const before = readFileSync(partial, 'utf8');
    const other = await kron('sweep', ...sweepArgs(out, '0.06'));
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      new RegExp(
        `^UsageError: ${partial} holds another sweep \\([0-9a-f]{16}, not [0-9a-f]{16}\\): another model, other settings, another metric or other runs\n  hint: it is the partial file of --out ${out}: delete it to start this sweep afresh, or give another --out\n$`,
      ),
    );
    expect(readFileSync(partial, 'utf8')).toBe(before);

    // a crash in the middle of a line: that line is dropped
    appendFileSync(partial, `{"index":${kept},"status":"o`);
    const resumed = await kron('sweep', ...sweepArgs(out));
    expect(resumed.stderr).toBe(`resuming: ${kept} of 1000 runs are in ${partial}\nwrote 1000 runs (0 failed) to ${out}\n`);
    expect(resumed.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(reference, 'utf8'));
    expect(existsSync(partial)).toBe(false);
  });

  it('a partial file Kron did not write is refused, and left alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-resume-'));
    const out = join(dir, 'sweep.csv');
    writeFileSync(`${out}.partial`, 'run,j1.q\n0,1\n');
    const r = await kron('sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0,1', '--stop', '0.01', '--workers', '1', '--out', out);
    expect(r.stderr).toBe(
      `UsageError: ${out}.partial is not a partial sweep file Kron wrote: line 1 is not JSON\n  hint: it is the partial file of --out ${out}: delete it to start this sweep afresh, or give another --out\n`,
    );
    expect(r.code).toBe(2);
    expect(readFileSync(`${out}.partial`, 'utf8')).toBe('run,j1.q\n0,1\n');
  });

  it('a sweep to stdout leaves no spool file behind; the partial file of a finished sweep is removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-resume-'));
    const r = await kron('sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0,1', '--stop', '0.01', '--signals', 'j1.q', '--workers', '1');
    expect(r.stdout.split('\n')[0]).toBe('run,j1.q,status,error,final(j1.q),min(j1.q),max(j1.q)');
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith(`kron-sweep-${process.pid}-`))).toEqual([]);
    const out = join(dir, 's.csv');
    await kron('sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0,1', '--stop', '0.01', '--workers', '1', '--out', out);
    expect(readdirSync(dir)).toEqual(['s.csv']);
  });

  it("the sweep's name changes with the metric module's text, the settings and the runs, not with a second compile", () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-resume-'));
    const metric = join(dir, 'metric.ts');
    writeFileSync(metric, 'export default () => 1;\n');
    const points = sweepPoints({ grid: ['j1.q=0:1:5'] });
    const settings = { simulate: { stop: 1, step: 1e-3 }, metric };
    const hash = (c = compile(build(), { foldParameters: false }), p = points, s = settings) => sweepIdentity(c, p, s).hash;
    const first = hash();
    expect(hash()).toBe(first); // compiled again: the same sweep
    expect(hash(undefined, sweepPoints({ grid: ['j1.q=0:1:6'] }))).not.toBe(first);
    expect(hash(undefined, undefined, { ...settings, simulate: { stop: 2, step: 1e-3 } })).not.toBe(first);
    writeFileSync(metric, 'export default () => 2;\n');
    expect(hash()).not.toBe(first);
  });
});
