// kron linearize: the text tables, the JSON result, and its errors (exit 1
// for a model error, 2 for usage), in-process through main(argv, io).
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

async function kron(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

const g = 9.80665,
  I = 0.01 + 0.25; // mechanisms/pendulum.ts: Izz + m L^2

describe('kron linearize', () => {
  it('prints A and B of the pendulum at the bottom, named by state and input', async () => {
    const r = await kron('linearize', 'mechanisms/pendulum.ts', '--at', 'j1.q=-1.5707963267948966,j1.qd=0');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    // a tree without outputs: its analytical derivatives (test/linearize/tree.test.ts)
    expect(lines[0]).toMatch(/^linearization of pendulum at t = 0 \(compile [\d.]+ ms, linearize [\d.]+ ms, analytical tree derivatives\)$/);
    expect(lines.slice(1, 3)).toEqual(['  states x: j1.q = -1.5707963, j1.qd = 0', '  inputs u: j1.tau = 0']);
    expect(r.stdout).toContain(['A =          j1.q  j1.qd', 'j1.q            0      1', `j1.qd  ${Number(((-g * 0.5) / I).toPrecision(8))}      0`].join('\n'));
    // sqrt(g / l_eff) = sqrt(9.80665 / 0.52)
    expect(r.stdout).toContain(`\neigenvalues of A: ±${Number(Math.sqrt(g / (I / 0.5)).toPrecision(8))}i\n`);
    expect(r.stdout).toContain(['B =       j1.tau', 'j1.q           0', `j1.qd  ${Number((1 / I).toPrecision(8))}`].join('\n'));
  });
  it('--json with outputs, inputs, a frame Jacobian, --set and --mode', async () => {
    const r = await kron(
      'linearize',
      'mechanisms/pendulum.ts',
      '--at',
      'j1.q=0.5',
      '--at',
      'j1.tau=0.2',
      '--outputs',
      'der(j1.qd),j1.q',
      '--frame',
      'j1.frame_b',
      '--set',
      'm=2',
      '--mode',
      'relaxed',
      '--json',
    );
    expect(r.code).toBe(0);
    const l = JSON.parse(r.stdout);
    const Ip = 0.01 + 2 * 0.25;
    expect(l.states).toEqual(['j1.q', 'j1.qd']);
    expect(l.outputs).toEqual(['der(j1.qd)', 'j1.q']);
    expect(l.u).toEqual([0.2]);
    expect(l.A[1][0]).toBeCloseTo((2 * g * 0.5 * Math.sin(0.5)) / Ip, 12);
    expect(l.C).toEqual([l.A[1], [1, 0]]);
    // above the horizontal, pushed away from the bottom: a saddle, ±sqrt(A21)
    expect(l.eigenvalues[0].re).toBeCloseTo(Math.sqrt(l.A[1][0]), 12);
    expect(l.eigenvalues[1].re).toBeCloseTo(-Math.sqrt(l.A[1][0]), 12);
    expect(l.D).toEqual([l.B[1], [0]]);
    expect(l.y[0]).toBeCloseTo((0.2 - 2 * g * 0.5 * Math.cos(0.5)) / Ip, 12);
    expect(l.frames[0].frame).toBe('j1.frame_b');
    expect(l.frames[0].J).toEqual([[0], [0], [0], [0], [0], [1]]);
  });
  it('a four-bar: one state joint, the loop closed', async () => {
    const r = await kron('linearize', 'mechanisms/fourbar.ts', '--at', 'j1.q=0.3,j1.qd=0', '--inputs', 'j1.tau', '--outputs', 'j4.q', '--json');
    expect(r.code).toBe(0);
    const l = JSON.parse(r.stdout);
    expect(l.states).toEqual(['j1.q', 'j1.qd']);
    expect(l.inputs).toEqual(['j1.tau']);
    expect(l.D).toEqual([[0]]);
    // the loop closes where (1.2 + s)^2 = 0.8 + 0.2 cos(phi) - 0.04 sin(phi) (mechanisms/fourbar.ts): ds/dphi by hand
    const phi = 0.3,
      s = Math.sqrt(0.8 + 0.2 * Math.cos(phi) - 0.04 * Math.sin(phi)) - 1.2;
    expect(l.y[0]).toBeCloseTo(s, 10);
    expect(l.C[0][0]).toBeCloseTo((-0.2 * Math.sin(phi) - 0.04 * Math.cos(phi)) / (2 * (1.2 + s)), 10);
  });
  it('--method generated: the four-bar through its loop by generated code, the same ds/dphi and A as the symbolic path; a bad method is exit 2', async () => {
    const at = ['--at', 'j1.q=0.3,j1.qd=0', '--outputs', 'j4.q', '--json'];
    const [g, s] = await Promise.all(['generated', 'symbolic'].map((m) => kron('linearize', 'mechanisms/fourbar.ts', ...at, '--method', m)));
    const [lg, ls] = [JSON.parse(g.stdout), JSON.parse(s.stdout)];
    expect([lg.method, ls.method]).toEqual(['generated', 'symbolic']);
    const phi = 0.3,
      slide = Math.sqrt(0.8 + 0.2 * Math.cos(phi) - 0.04 * Math.sin(phi)) - 1.2;
    expect(lg.C[0][0]).toBeCloseTo((-0.2 * Math.sin(phi) - 0.04 * Math.cos(phi)) / (2 * (1.2 + slide)), 12);
    expect(lg.A[1][0]).toBeCloseTo(ls.A[1][0], 10);
    const text = await kron('linearize', 'mechanisms/fourbar.ts', '--at', 'j1.q=0.3', '--method', 'generated');
    expect(text.stdout.split('\n')[0]).toMatch(/linearize [\d.]+ ms, generated code\)$/);
    const bad = await kron('linearize', 'mechanisms/fourbar.ts', '--method', 'fast');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/UsageError: --method fast: not a method/);
  });
  it('a model without states (the resistor ladder) says so', async () => {
    const r = await kron('linearize', 'mechanisms/resistorladder.ts');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(1)).toEqual([
      '  states x: (none)',
      '  inputs u: (none)',
      "  x' = f(x, u) there: (none)",
      '',
      'no states: A, B and C are empty',
      '',
    ]);
  });
  it('errors: an unknown state (exit 1), a bad --at and a missing model file (exit 2)', async () => {
    const bad = await kron('linearize', 'mechanisms/pendulum.ts', '--at', 'j9.q=0');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'ModelError: no state or input named j9.q: the operating point is given by the states and inputs\n  variables: j9.q\n  hint: did you mean j1.q? states: j1.q, j1.qd; inputs: j1.tau\n',
    );
    const format = await kron('linearize', 'mechanisms/pendulum.ts', '--at', 'j1.q');
    expect(format.code).toBe(2);
    expect(format.stderr).toBe('UsageError: --at expects name=value, got "j1.q"\n  hint: e.g. --at j1.q=0.1,j1.qd=0\n');
    const none = await kron('linearize');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('UsageError: kron linearize needs a model file');
    const help = await kron('linearize', '--help');
    expect(help.stdout).toContain('usage: kron linearize <model.ts|robot.urdf> --at name=value,...');
  });
});
