// kron view robot.urdf | robot.xml: the robot simulated first (as kron
// simulate --out would), then the run played. Oracle: the served run is the
// one kron simulate writes for the same robot and stop time, sample for
// sample, and the page is told to play it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kronInProcess } from '../cli/in-process.ts';

const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'bin/kron.mjs');

/** kron view's URL, once it prints it */
function served(args: string[]): Promise<{ url: string; server: ChildProcess; stderr: () => string }> {
  const server = spawn(process.execPath, [bin, 'view', ...args, '--port', '0'], { cwd: root });
  let out = '',
    err = '';
  server.stderr!.on('data', (d) => (err += d));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no URL after 120 s: ${out}${err}`)), 120_000);
    server.stdout!.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m) (clearTimeout(timer), ok({ url: m[0], server, stderr: () => err }));
    });
    server.on('exit', (code) => fail(new Error(`kron view exited with ${code}: ${out}${err}`)));
  });
}

describe('kron view of a robot file: simulated, then played', () => {
  for (const [file, extra] of [
    ['test/io/fixtures/mjcf/iiwa14.xml', ['--keyframe', 'home']],
    ['mechanisms/puma560.urdf', []],
  ] as const) {
    it(`${file}: the run kron simulate writes, played`, async () => {
      const { url, server } = await served([file, '--stop', '0.2', ...extra]);
      try {
        const config = (await (await fetch(`${url}config.json`)).json()) as { run?: string; live?: string };
        expect([config.run, config.live]).toEqual(['run.json', undefined]);
        const run = (await (await fetch(`${url}run.json`)).json()) as { time: number[]; signals: Record<string, number[]> };
        const out = join(mkdtempSync(join(tmpdir(), 'kron-view-robot-')), 'run.json');
        // the reference in this process (main()): the same command, without a tsx start
        const simulated = await kronInProcess('simulate', file, '--stop', '0.2', '--interval', '0.01', '--out', out, ...extra);
        expect(simulated.status, simulated.stderr).toBe(0);
        const reference = JSON.parse(readFileSync(out, 'utf8')) as typeof run;
        expect(run.time).toEqual(reference.time);
        expect(run.time.length).toBe(21);
        expect(run.signals).toEqual(reference.signals);
      } finally {
        server.kill();
      }
    });
  }

  it('--stop without a robot file is a usage error (exit 2)', async () => {
    const r = await kronInProcess('view', 'mechanisms/pendulum.ts', '--stop', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^UsageError: --stop is for a URDF or MJCF robot, which kron view simulates first/);
  });
});
