// kron simulate --contact: the rolling sphere's end speed 5 v0 / 7 from the
// command line; without the flag it falls through the plane (contact is
// off by default); a model that is no mechanism is a usage error.
// --friction elasto-plastic: the same closed form with the other law, the
// law in the JSON run; a law not known, or the flag without --contact, a
// usage error.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kronInProcess } from '../cli/in-process.ts';

const kron = (...args: string[]) => kronInProcess(...args);

describe('kron simulate --contact', () => {
  it('rolls the sphere at 5 v0 / 7; without --contact it falls', async () => {
    const on = await kron(
      'simulate',
      'mechanisms/sphere-on-plane.ts',
      '--contact',
      '--stop',
      '0.4',
      '--step',
      '1e-5',
      '--integrator',
      'rk4',
      '--interval',
      '0.2',
      '--signals',
      'j.v[1]',
      '--no-cache',
    );
    expect(on.stderr).toBe('');
    expect(on.status).toBe(0);
    const v = Number(on.stdout.trim().split('\n').at(-1)!.split(',')[1]);
    expect(Math.abs(v / ((5 * 2) / 7) - 1)).toBeLessThan(1e-3);
    const off = await kron('simulate', 'mechanisms/sphere-on-plane.ts', '--stop', '0.2', '--interval', '0.2', '--signals', 'j.r[2]', '--no-cache');
    expect(Number(off.stdout.trim().split('\n').at(-1)!.split(',')[1])).toBeLessThan(0);
  });

  it("--signals contact.*: the pair's signals as columns; the sphere rolling on the plane carries its weight", async () => {
    const r = await kron(
      'simulate',
      'mechanisms/sphere-on-plane.ts',
      '--contact',
      '--stop',
      '0.3',
      '--step',
      '1e-5',
      '--integrator',
      'rk4',
      '--interval',
      '0.3',
      '--signals',
      'contact.*',
      '--no-cache',
    );
    expect(r.status).toBe(0);
    const [head, , last] = r.stdout.trim().split('\n');
    const pair = 'contact.world.ground__ball.collision1';
    expect(head.split(',')).toEqual(['time', ...['fn', 'ft[1]', 'ft[2]', 'p[1]', 'p[2]', 'p[3]', 'f[1]', 'f[2]', 'f[3]'].map((s) => `${pair}.${s}`)]);
    expect(Math.abs(Number(last.split(',')[1]) / 9.81 - 1)).toBeLessThan(1e-9);
    const bad = await kron(
      'simulate',
      'mechanisms/sphere-on-plane.ts',
      '--contact',
      '--stop',
      '0.01',
      '--signals',
      'contact.world.ground__ball.fn',
      '--no-cache',
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('UsageError: contact signal contact.world.ground__ball.fn: no pair world.ground__ball');
  });

  it('a model that is not a mechanism: usage error, exit 2', async () => {
    const r = await kron('simulate', 'mechanisms/drivetrain.ts', '--contact', '--stop', '0.01', '--no-cache');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--contact applies to mechanisms');
  });
});

describe('kron simulate --contact --friction', () => {
  it('elasto-plastic: the sphere rolls at 5 v0 / 7 (1e-3), and the JSON run names the law', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-friction-'));
    try {
      const args = ['simulate', 'mechanisms/sphere-on-plane.ts', '--contact', '--integrator', 'radau', '--stop', '0.4', '--interval', '0.2', '--no-cache'];
      const r = await kron(...args, '--friction', 'elasto-plastic', '--signals', 'j.v[1]', '--out', join(dir, 'run.json'));
      expect(r.status).toBe(0);
      const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
      expect(run.contact).toEqual({ friction: 'elasto-plastic' });
      expect(Math.abs(run.signals['j.v[1]'].at(-1) / ((5 * 2) / 7) - 1)).toBeLessThan(1e-3);
      // the default law, said in the run too
      const plain = await kron(...args, '--signals', 'j.v[1]', '--out', join(dir, 'plain.json'));
      expect(plain.status).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'plain.json'), 'utf8')).contact).toEqual({ friction: 'regularised' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a law not known: usage error listing the laws, with the nearest; without --contact: usage error', async () => {
    const bad = await kron('simulate', 'mechanisms/sphere-on-plane.ts', '--contact', '--friction', 'elastoplastic', '--stop', '0.01', '--no-cache');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('UsageError: --friction must be regularised or elasto-plastic, got "elastoplastic"');
    expect(bad.stderr).toContain('did you mean elasto-plastic?');
    // the default integrator runs the law with radau, and says so
    const auto = await kron('simulate', 'mechanisms/sphere-on-plane.ts', '--contact', '--friction', 'elasto-plastic', '--stop', '0.01', '--no-cache');
    expect(auto.status).toBe(0);
    expect(auto.stderr).toContain('note: contact with elasto-plastic friction');
    expect(auto.stderr).toContain('the run used radau');
    const alone = await kron('simulate', 'mechanisms/sphere-on-plane.ts', '--friction', 'regularised', '--stop', '0.01', '--no-cache');
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('UsageError: --friction needs --contact');
    // a sweep runs no contact: the flag is not one of its options
    const sweep = await kron('sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0,1', '--friction', 'elasto-plastic', '--stop', '0.01');
    expect(sweep.status).toBe(2);
    expect(sweep.stderr).toContain("Unknown option '--friction'");
    for (const flag of ['--contact', '--self-contact']) {
      const r = await kron('sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0,1', flag, '--stop', '0.01');
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`Unknown option '${flag}'`);
    }
  });
});
