// The kron command end to end, as users and scripts call it. The commands run
// in this process through main() (test/cli/in-process.ts); what only a process
// shows runs bin/kron.mjs: the exit codes the shell sees, --version, a closed pipe.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kronInProcess as kron } from './in-process.ts';

const root = new URL('../../', import.meta.url).pathname;
const kronProcess = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), ...args], { cwd: root, encoding: 'utf8' });

describe('kron CLI', () => {
  it('compile --json prints the report with the drive train loop torn 4 -> 1', async () => {
    const r = await kron('compile', 'mechanisms/drivetrain.ts', '--json', '--mode', 'torn');
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ model: 'drivetrain', mode: 'torn', states: 1 });
    expect(report.blocks).toEqual([expect.objectContaining({ size: 4, tearing: 1, linear: true })]);
    for (const k of ['equations', 'unknowns', 'compileMs']) expect(typeof report[k]).toBe('number');
    expect(Object.keys(report.ops).sort()).toEqual(['add', 'div', 'fn', 'mul']);
  });
  it('compile --mode relaxed --json: the drive train has no block larger than 1 and no more operations than torn', async () => {
    const run = async (...extra: string[]) => {
      const r = await kron('compile', 'mechanisms/drivetrain.ts', '--json', '--keep-parameters', ...extra);
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const relaxed = await run('--mode', 'relaxed'),
      torn = await run('--mode', 'torn');
    expect(relaxed.mode).toBe('relaxed');
    expect(relaxed.blocks).toEqual([]);
    // parameters kept symbolic: the division by H = J2 + i^2 J1 is a checked pivot, with the torn loop (one division) to fall back on
    expect(relaxed.relaxedLoops).toEqual([{ size: 4, relaxedBlocks: 4, largest: 1, remainder: 0, checkedPivots: 1, fallback: 'division' }]);
    const total = (o: Record<string, number>) => o.mul + o.add + o.div + o.fn;
    // equal here: der(s2.w) needs H = J2 + i^2 J1 and c = i tau in both forms (3 mul, 1 add, 1 div)
    expect(total(relaxed.ops)).toBeLessThanOrEqual(total(torn.ops));
  });
  it('simulate writes a CSV whose header is time,<states> and whose last row matches eq. 5', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-'));
    const file = join(dir, 'd.csv');
    const r = await kron('simulate', 'mechanisms/drivetrain.ts', '--stop', '1', '--set', 'i=2', '--out', file);
    expect(r.status).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('time,s2.w');
    const [t, w] = lines[lines.length - 1].split(',').map(Number);
    expect(t).toBe(1);
    expect(w).toBeCloseTo((2 * 1) / (2 + 4 * 1), 12); // i tau / (J2 + i^2 J1) * t
  });
  it('simulate --out x.json writes time and signals as JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-'));
    const file = join(dir, 'd.json');
    expect(
      (await kron('simulate', 'mechanisms/drivetrain.ts', '--stop', '0.5', '--interval', '0.1', '--signals', 's2.w,der(s2.w)', '--out', file)).status,
    ).toBe(0);
    const r = JSON.parse(readFileSync(file, 'utf8'));
    expect(r.model).toBe('drivetrain');
    expect(r.time).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(r.signals['der(s2.w)'][3]).toBeCloseTo(3 / 11, 14);
    expect(r.signals['s2.w'][5]).toBeCloseTo((3 / 11) * 0.5, 12);
  });
  it('--gravity sets the world gravity of a mechanism (a pendulum about z under gravity along x)', async () => {
    const r = await kron('simulate', 'mechanisms/pendulum.ts', '--gravity', '9.80665,0,0', '--stop', '0', '--signals', 'der(j1.qd)');
    expect(r.status).toBe(0);
    const [, qdd] = r.stdout.trim().split('\n')[1].split(',').map(Number);
    // rod along x at q0 = 0.3: torque = r x (m g) about z = -m g L sin(q) with g along +x
    const { m, L, Izz, q0 } = { m: 1, L: 0.5, Izz: 0.01, q0: 0.3 };
    expect(qdd).toBeCloseTo((-m * 9.80665 * L * Math.sin(q0)) / (m * L * L + Izz), 10);
    expect((await kron('compile', 'mechanisms/drivetrain.ts', '--gravity', '0,0,-1')).status).toBe(2);
  });
  it('--emit writes a module that runs on its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-'));
    const file = join(dir, 'd.mjs');
    expect((await kron('compile', 'mechanisms/drivetrain.ts', '--emit', file)).status).toBe(0);
    const mod = await import(file);
    const f = mod.create();
    const dx = new Float64Array(1);
    f(0, new Float64Array(1), dx, new Float64Array(0), new Float64Array(0), new Float64Array(mod.layout.workspace.length));
    expect(dx[0]).toBeCloseTo(3 / 11, 15);
  });
  it('exit code 2 for usage errors, 1 for model errors, with a message naming the fault', async () => {
    const bad = [
      [['simulate', 'mechanisms/drivetrain.ts', '--step', '0'], 2, /step 0 must be/],
      [['compile', 'mechanisms/nope.ts'], 2, /model file mechanisms\/nope.ts not found/],
      [['compile', 'mechanisms/drivetrain.ts', '--frobnicate'], 2, /Unknown option/],
      [['fly', 'mechanisms/drivetrain.ts'], 2, /unknown command "fly"/],
      [['compile', 'mechanisms/drivetrain.ts', '--set', 's9.J=1'], 1, /no parameter named s9.J/],
      [['compile', 'mechanisms/drivetrain.ts', '--set', 'i=abc'], 2, /expects a number/],
      [['compile', 'test/cli/fixtures/no-default.ts'], 1, /has no default export that builds a model/],
      [['compile', 'mechanisms/drivetrain.ts', '--mode', 'fast'], 2, /--mode must be torn, relaxed or auto/],
    ] as const;
    for (const [args, code, message] of bad) {
      const r = await kron(...args);
      expect(r.status, args.join(' ')).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack traces
    }
  });
  it('the shell sees those exit codes: 2 for a usage error, 1 for a model error (as processes)', () => {
    for (const [args, code, message] of [
      [['simulate', 'mechanisms/drivetrain.ts', '--step', '0'], 2, /step 0 must be/],
      [['compile', 'mechanisms/drivetrain.ts', '--set', 's9.J=1'], 1, /no parameter named s9.J/],
    ] as const) {
      const r = kronProcess(...args);
      expect(r.status, args.join(' ')).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    }
  });
});

describe('kron --version, and a closed pipe', () => {
  it("--version and -v print package.json's version, exit 0", async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const r = kronProcess(flag);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
    }
    expect((await kron('--help')).stdout).toContain('kron --version');
  });

  it('kron simulate … | head -1: the reader closing the pipe ends kron quietly, exit 0', () => {
    // a shell pipeline, as users type it; pipefail makes the shell report kron's own exit code
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" bin/kron.mjs simulate mechanisms/pendulum.ts --stop 20 | head -1`], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stdout).toBe('time,j1.q,j1.qd\n');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('kron <command> --help', () => {
  it("prints that command's usage, options and examples, exit 0", async () => {
    for (const [args, has] of [
      [
        ['simulate', '--help'],
        ['usage: kron simulate', '--integrator auto|rk4|adaptive|radau', '--rtol', 'examples:', 'kron simulate mechanisms/puma560.urdf'],
      ],
      [
        ['compile', 'mechanisms/drivetrain.ts', '-h'],
        ['usage: kron compile', '--json', '--tear v[:e]', 'examples:'],
      ],
      [['help', 'compile'], ['usage: kron compile']],
      [['--help'], ['commands:', 'compile', 'simulate', 'kron <command> --help']],
    ] as const) {
      const r = await kron(...args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stderr).toBe('');
      for (const text of has) expect(r.stdout, args.join(' ')).toContain(text);
    }
    expect((await kron('simulate', '--help')).stdout).not.toContain('--json');
  });
});

describe('kron simulate --integrator adaptive', () => {
  it('follows the drive train closed form w = i tau t / (J2 + i^2 J1), on the same sample times as rk4', async () => {
    const run = (...extra: string[]) => kron('simulate', 'mechanisms/drivetrain.ts', '--stop', '1', '--interval', '0.25', '--set', 'i=2', ...extra);
    const adaptive = await run('--integrator', 'adaptive', '--rtol', '1e-10', '--atol', '1e-12');
    const rk4 = await run();
    expect(adaptive.status).toBe(0);
    const rows = (out: string) =>
      out
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',').map(Number));
    expect(rows(adaptive.stdout).map(([t]) => t)).toEqual(rows(rk4.stdout).map(([t]) => t));
    for (const [t, w] of rows(adaptive.stdout)) expect(w).toBeCloseTo((2 * t) / (2 + 4), 10);
  });
  it('an option of the other command is accepted as before, with a warning', async () => {
    const r = await kron('compile', 'mechanisms/drivetrain.ts', '--stop', '2', '--json');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('warning: --stop has no effect on kron compile\n');
    expect(JSON.parse(r.stdout).model).toBe('drivetrain');
  });
});
