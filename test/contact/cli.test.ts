// kron simulate --contact: the rolling sphere's end speed 5 v0 / 7 from the
// command line; without the flag it falls through the plane (contact is
// off by default); a model that is no mechanism is a usage error.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const kron = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), ...args], { cwd: root, encoding: 'utf8' });

describe('kron simulate --contact', () => {
  it('rolls the sphere at 5 v0 / 7; without --contact it falls', () => {
    const on = kron('simulate', 'mechanisms/sphere-on-plane.ts', '--contact', '--stop', '0.4', '--step', '1e-5', '--integrator', 'rk4', '--interval', '0.2', '--signals', 'j.v[1]', '--no-cache');
    expect(on.stderr).toBe('');
    expect(on.status).toBe(0);
    const v = Number(on.stdout.trim().split('\n').at(-1)!.split(',')[1]);
    expect(Math.abs(v / ((5 * 2) / 7) - 1)).toBeLessThan(1e-3);
    const off = kron('simulate', 'mechanisms/sphere-on-plane.ts', '--stop', '0.2', '--interval', '0.2', '--signals', 'j.r[2]', '--no-cache');
    expect(Number(off.stdout.trim().split('\n').at(-1)!.split(',')[1])).toBeLessThan(0);
  });

  it('a model that is not a mechanism: usage error, exit 2', () => {
    const r = kron('simulate', 'mechanisms/drivetrain.ts', '--contact', '--stop', '0.01', '--no-cache');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--contact applies to mechanisms');
  });
});
