// mechanisms/puma560.urdf against mechanisms/puma560.ts: the same
// published parameters, written once as DH frames with FixedRotations and
// once as URDF link frames with rotated inertials, so equal accelerations on
// random states (with random drives) and equal trajectories mean the URDF
// import places origins, axes, centres of mass and inertias right.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import puma560 from '../../mechanisms/puma560.ts';
import { compile } from '../../src/compile.ts';
import type { Mode } from '../../src/report.ts';
import { loadUrdf } from '../../src/node/urdf-file.ts';
import { main } from '../../src/cli/main.ts';
import { kronInProcess } from '../cli/in-process.ts';
import { driveAtRandom } from '../multibody/drive.ts';
import { prng } from '../multibody/random-tree.ts';

const root = new URL('../../', import.meta.url).pathname;
const fixture = join(root, 'mechanisms/puma560.urdf');
const joints = ['j1', 'j2', 'j3', 'j4', 'j5', 'j6'];

describe('PUMA 560: URDF against the model module', () => {
  it('reads without warnings: six revolute joints j1..j6, twelve states', () => {
    const { mechanism, warnings } = loadUrdf(fixture);
    expect(warnings).toEqual([]);
    expect(compile(mechanism).stateNames).toEqual(joints.flatMap((j) => [`${j}.q`, `${j}.qd`]));
  });
  for (const mode of ['torn', 'relaxed'] as Mode[]) {
    it(`gives the same der(j.qd) on 25 random states with random drives (${mode}, 1e-10)`, () => {
      const module = compile(puma560({ g: 9.81, limits: 1 }), { mode });
      const urdf = compile(loadUrdf(fixture, { gravity: [0, 0, -9.81] }).mechanism, { mode });
      const [r1, r2] = [prng(560), prng(560)];
      let largest = 0;
      for (let k = 0; k < 25; k++) {
        const a = driveAtRandom(module, joints, undefined, r1);
        const b = driveAtRandom(urdf, joints, undefined, r2);
        expect(b.q).toEqual(a.q);
        a.qdd.forEach((v, i) => {
          expect(Math.abs(b.qdd[i] - v), `state ${k}, der(${joints[i]}.qd)`).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(v)));
          largest = Math.max(largest, Math.abs(v));
        });
      }
      expect(largest).toBeGreaterThan(1); // the states are not trivially at rest
    });
  }
});

describe('PUMA 560: kron simulate on both files', () => {
  // in this process (main()): the two commands' output files are the subject, not the process
  const kron = (...args: string[]) => kronInProcess('simulate', ...args);
  const table = (file: string) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(','));
  function expectSameTrajectories(a: string[][], b: string[][]): void {
    expect(b[0]).toEqual(a[0]); // time,j1.q,j1.qd,...,j6.qd
    expect(b.length).toBe(a.length);
    let moved = 0;
    for (let r = 1; r < a.length; r++) {
      for (let c = 0; c < a[r].length; c++) {
        const [x, y] = [Number(a[r][c]), Number(b[r][c])];
        expect(Math.abs(x - y), `${a[0][c]} at t = ${a[r][0]}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(x)));
        moved = Math.max(moved, Math.abs(x));
      }
    }
    expect(moved).toBeGreaterThan(1); // the arm falls
  }
  it("the issue's two commands, both at standard gravity: the same 2 s trajectories", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-puma-'));
    const [p, u] = [join(dir, 'p.csv'), join(dir, 'u.csv')];
    expect((await kron('mechanisms/puma560.ts', '--set', 'limits=1', '--stop', '2', '--out', p)).status).toBe(0);
    const r = await kron('mechanisms/puma560.urdf', '--stop', '2', '--out', u);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`wrote 2001 samples of 12 signals to ${u}\n`);
    expectSameTrajectories(table(p), table(u));
  });
  it("with the toolbox's gravity 9.81 on both (--set g=9.81, --gravity 0,0,-9.81; in-process main()): the same trajectories", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kron-puma-'));
    const [p, u] = [join(dir, 'p.csv'), join(dir, 'u.csv')];
    const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
    expect(await main(['simulate', 'mechanisms/puma560.ts', '--stop', '2', '--set', 'g=9.81', '--set', 'limits=1', '--out', p], quiet)).toBe(0);
    expect(await main(['simulate', 'mechanisms/puma560.urdf', '--stop', '2', '--gravity', '0,0,-9.81', '--out', u], quiet)).toBe(0);
    expectSameTrajectories(table(p), table(u));
  });
});
