// "Did you mean" in the hints of typed errors, the example paths that help
// and hints name, and simulate()'s default step. Oracles: the edit distance
// by hand (one swap, one insertion, and names too far apart); the files the
// hints name exist from the folder the user runs in; simulate() without a
// step is the run with the CLI's 1e-3 s, sample for sample.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { closest, didYouMean } from '../../src/suggest.ts';
import { compile, simulate } from '../../src/index.ts';
import { linearize } from '../../src/analysis/linearize.ts';
import pendulum from '../../mechanisms/pendulum.ts';

async function kron(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '',
    stderr = '';
  const code = await main(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

describe('closest: the known name within a small edit distance', () => {
  it('a swap of neighbours, a missing letter and a wrong case are one edit; names far apart are not suggested', () => {
    expect(closest('stpo', ['step', 'stop', 'start'])).toBe('stop');
    expect(closest('intergrator', ['interval', 'integrator'])).toBe('integrator');
    expect(closest('J1.Q', ['j1.q', 'j1.qd'])).toBe('j1.q');
    // two edits turn j1.q into j2.w, but that is half the name: not a misspelling
    expect(closest('j1.q', ['j2.w'])).toBeUndefined();
    expect(didYouMean('zzz', ['stop'])).toBe('');
    expect(didYouMean('sim', ['simulate'])).toBe('');
  });
});

describe('kron: did you mean, for commands, flags and signal names', () => {
  it('a misspelt command and a misspelt flag name the nearest one (exit 2)', async () => {
    const command = await kron('simulat', 'mechanisms/pendulum.ts');
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('hint: did you mean simulate? commands: compile, simulate,');
    const flag = await kron('simulate', 'mechanisms/pendulum.ts', '--stpo', '1');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe("UsageError: Unknown option '--stpo'\n  hint: did you mean --stop? kron simulate --help lists the options\n");
    const none = await kron('compile', 'mechanisms/pendulum.ts', '--frobnicate');
    expect(none.stderr).toBe("UsageError: Unknown option '--frobnicate'\n  hint: kron compile --help lists the options\n");
  });

  it('a misspelt signal, start value and operating point name the nearest state', async () => {
    const signal = await kron('simulate', 'mechanisms/pendulum.ts', '--stop', '0.01', '--signals', 'J1.g');
    expect(signal.code).toBe(1);
    expect(signal.stderr).toContain('hint: did you mean j1.q? ');
    const start = await kron('simulate', 'mechanisms/pendulum.ts', '--stop', '0.01', '--start', 'j1.dq=1');
    expect(start.stderr).toContain('no state named j1.dq to give a start value');
    expect(start.stderr).toContain('hint: did you mean j1.qd? states: j1.q, j1.qd');
    const compiled = compile(pendulum());
    expect(() => linearize(compiled, { at: { 'j1.q': 0 }, inputs: ['j1.tua'] })).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ hint: expect.stringMatching(/^did you mean j1\.tau\? inputs: j1\.tau/) }) }),
    );
    expect(() => compiled.createState().setInput('j1.tu', 1)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ hint: expect.stringMatching(/^did you mean j1\.tau\? /) }) }),
    );
  });
});

describe('example paths in help and hints', () => {
  it('from a folder outside the package, help and the file-not-found hint name example files that exist from there', () => {
    const away = mkdtempSync(join(tmpdir(), 'kron-away-'));
    const bin = resolve('bin/kron.mjs');
    const help = spawnSync(process.execPath, [bin, 'simulate', '--help'], { cwd: away, encoding: 'utf8' });
    const missing = spawnSync(process.execPath, [bin, 'simulate', 'nothing.ts'], { cwd: away, encoding: 'utf8' });
    expect(missing.status).toBe(2);
    const named = [...`${help.stdout}\n${missing.stderr}`.matchAll(/(\S*mechanisms\/[\w/.-]+\.(?:ts|urdf))/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(5);
    for (const file of named) expect(existsSync(resolve(away, file)), `${file} from ${away}`).toBe(true);
    // in the repository the paths are as they were: mechanisms/...
    expect(spawnSync(process.execPath, [bin, 'simulate', 'nothing.ts'], { encoding: 'utf8' }).stderr).toContain('e.g. mechanisms/drivetrain.ts');
  });
});

describe('simulate() without a step', () => {
  it('takes the CLI default, 1e-3 s: the same samples as step: 1e-3', () => {
    const c = compile(pendulum());
    const without = simulate(c, { stop: 0.05, interval: 0.01 });
    const given = simulate(c, { stop: 0.05, step: 1e-3, interval: 0.01 });
    expect(without.time.length).toBe(6);
    expect([...without.get('j1.q')]).toEqual([...given.get('j1.q')]);
  });
});
