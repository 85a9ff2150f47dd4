// kron compile / simulate with --relax-iterate: the report's text, the sweep
// statistics on stderr, and what a user sees when the iteration fails or its
// settings cannot run (exact messages, as in the error catalogue).
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

async function kron(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

describe('kron with --relax-iterate', () => {
  it('compile: the loop is iterated on, and the report says how', async () => {
    const r = await kron('compile', 'mechanisms/rcgrid.ts', '--set', 'n=4', '--relax-iterate', '--iterate-omega', '1.2');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('model rcgrid (relaxed)');
    expect(r.stdout).toContain('relaxed loop: 54 equations -> 39 blocks of the relaxed BLT form (largest 1), 15 equations left to iterate on');
    expect(r.stdout).toContain('relaxing iteration: Gauss-Seidel (SOR, omega 1.2) on 15 variables, tol 1e-10, at most 500 sweeps');
    const json = JSON.parse((await kron('compile', 'mechanisms/rcgrid.ts', '--set', 'n=4', '--iterate-tol', '1e-8', '--json')).stdout);
    expect(json.relaxedLoops[0]).toMatchObject({ method: 'iteration', iteration: { variables: 15, tol: 1e-8, maxSweeps: 500, omega: 1 } });
  });

  it('simulate: sweeps per evaluation on stderr', async () => {
    const r = await kron('simulate', 'mechanisms/rcgrid.ts', '--set', 'n=4', '--relax-iterate', '--stop', '0.01');
    expect(r.code).toBe(0);
    // 10 RK4 steps of 4 evaluations; the samples (states only) read x without evaluating
    expect(r.stderr).toMatch(/^relaxing iteration of relaxed loop 0: 40 evaluations, sweeps per evaluation mean \d+\.\d\d, max \d+\n$/);
  });

  it('the drive train: nothing to iterate on', async () => {
    const r = await kron('compile', 'mechanisms/drivetrain.ts', '--relax-iterate');
    expect(r.stdout).toContain('    no remainder: eliminated exactly (nothing to iterate on)');
  });

  it('an iteration that does not converge (exit 1)', async () => {
    const r = await kron('simulate', 'mechanisms/rcgrid.ts', '--set', 'n=3', '--iterate-max-sweeps', '2', '--iterate-tol', '1e-12', '--stop', '0.01');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^SimulationError: the relaxing iteration of relaxed loop 0 \(8 iteration variables\) did not converge in 2 sweeps at time 0: the slowest variables still changed by Rc_\d_\d\.vp \(\d\.\de-\d+\), /,
    );
    expect(r.stderr).toContain('  hint: Gauss-Seidel converges slowly where the rows are far from diagonally dominant');
  });

  it('an over-relaxation factor outside (0, 2) (exit 2)', async () => {
    const r = await kron('compile', 'mechanisms/rcgrid.ts', '--iterate-omega', '2.5');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'UsageError: over-relaxation factor 2.5 must lie in (0, 2)\n  hint: successive over-relaxation converges only for 0 < omega < 2; 1 is Gauss-Seidel, e.g. --iterate-omega 1.3\n',
    );
  });
});
