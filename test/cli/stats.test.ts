// kron simulate --stats: what the integration cost, on stderr, counted
// independently of the integrators: RK4 evaluates the derivatives four
// times a step; Cash-Karp six times an attempt, the first stage shared by a
// step's attempts (steps + 5 (steps + rejected)); a run of n samples at a
// fixed step h to stop T takes T / h steps.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

async function run(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

const line = (stderr: string) => /^integration: .*$/m.exec(stderr)?.[0];

describe('kron simulate --stats', () => {
  it('rk4: T / h steps, four evaluations each', async () => {
    const r = await run('simulate', 'mechanisms/pendulum.ts', '--stop', '0.25', '--step', '0.005', '--stats');
    expect(r.code).toBe(0);
    expect(line(r.stderr)).toBe('integration: rk4, 50 steps (0 rejected), 200 evaluations of the derivatives');
  });

  it('adaptive: steps + 5 (steps + rejected) evaluations', async () => {
    const r = await run('simulate', 'mechanisms/pendulum.ts', '--stop', '1', '--step', '0.5', '--interval', '0.5', '--integrator', 'adaptive', '--stats');
    expect(r.code).toBe(0);
    const [, steps, rejected, evaluations] = /integration: adaptive, (\d+) steps \((\d+) rejected\), (\d+) evaluations of the derivatives$/
      .exec(line(r.stderr)!)!
      .map(Number);
    expect(rejected).toBeGreaterThan(0); // a first step of 0.5 s is too large for rtol 1e-6
    expect(evaluations).toBe(steps + 5 * (steps + rejected));
  });

  it('radau: Jacobians and LU decompositions too; without --stats nothing is said', async () => {
    const r = await run('simulate', 'test/sim/fixtures/arm3.ts', '--stop', '1', '--interval', '0.1', '--integrator', 'radau', '--stats');
    expect(r.code).toBe(0);
    expect(line(r.stderr)).toMatch(
      /^integration: radau, \d+ steps \(\d+ rejected\), \d+ evaluations of the derivatives, [1-9]\d* Jacobians, [1-9]\d* LU decompositions$/,
    );
    const quiet = await run('simulate', 'mechanisms/pendulum.ts', '--stop', '0.01');
    expect(quiet.stderr).toBe('');
  });
});
