// `--start name=value`: start values of states from the command line, for
// model modules and for URDF robots (whose joints have no parameter for
// them). Oracle: mechanisms/puma560.ts started by its own builder parameter
// (--set q2=0.5), which the URDF of the same robot matches to 1e-10
// (test/io/urdf-puma.test.ts).
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

async function kron(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '',
    stderr = '';
  const code = await main(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

const rows = (csv: string) =>
  csv
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').map(Number));
const SIGNALS = ['--signals', 'j2.q,j2.qd,der(j2.qd),der(j3.qd)', '--stop', '0.01', '--interval', '0.005'];

describe('kron simulate --start', () => {
  it('a mechanism module: --start j2.q=0.5 runs exactly as the builder parameter --set q2=0.5', async () => {
    const start = await kron('simulate', 'mechanisms/puma560.ts', '--start', 'j2.q=0.5', ...SIGNALS);
    const set = await kron('simulate', 'mechanisms/puma560.ts', '--set', 'q2=0.5', ...SIGNALS);
    expect([start.code, start.stderr]).toEqual([0, '']);
    expect(start.stdout).toBe(set.stdout);
    expect(rows(start.stdout)[0].slice(0, 3)).toEqual([0, 0.5, 0]);
  });

  it('a URDF robot: the first sample is the start value, and the accelerations are those of the module started there', async () => {
    const urdf = await kron('simulate', 'mechanisms/puma560.urdf', '--start', 'j2.q=0.5', '--start', 'j2.qd=0.25', ...SIGNALS);
    const module = await kron('simulate', 'mechanisms/puma560.ts', '--set', 'q2=0.5', '--start', 'j2.qd=0.25', ...SIGNALS);
    expect(urdf.code).toBe(0);
    const [u, m] = [rows(urdf.stdout), rows(module.stdout)];
    expect(u[0].slice(0, 3)).toEqual([0, 0.5, 0.25]);
    expect(Math.abs(u[0][3])).toBeGreaterThan(1); // gravity pulls the shoulder: not a trivial zero
    u.forEach((row, k) => row.forEach((v, i) => expect(Math.abs(v - m[k][i])).toBeLessThan(1e-9 * (1 + Math.abs(m[k][i])))));
  });

  it('kron compile accepts --start like the other shared flags', async () => {
    const r = await kron('compile', 'mechanisms/puma560.urdf', '--start', 'j2.q=0.5', '--json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).states).toBe(12);
  });

  it('a name that is not a state: exit 1, the states listed', async () => {
    const r = await kron('simulate', 'mechanisms/puma560.urdf', '--start', 'shoulder.q=0.5');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no state named shoulder\.q to give a start value/);
    expect(r.stderr).toMatch(/hint: states: j1\.q, j1\.qd, j2\.q, j2\.qd, /);
  });

  it('--set of a state is refused with a hint to --start; a malformed --start is a usage error', async () => {
    const set = await kron('simulate', 'mechanisms/puma560.urdf', '--set', 'j2.q=0.5');
    expect(set.code).toBe(1);
    expect(set.stderr).toMatch(/j2\.q is a variable, not a parameter: --set cannot change it/);
    expect(set.stderr).toMatch(/hint: give a state its start value with --start j2\.q=0\.5/);
    const bad = await kron('simulate', 'mechanisms/pendulum.ts', '--start', 'j1.q');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--start expects name=value, got "j1\.q"/);
  });
});
