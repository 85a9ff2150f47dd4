// The example of "Derivatives of the dynamics" in docs/guide/analysis.md,
// extracted and run as a user runs it (node --import tsx, 'kron' mapped to
// src/ by tsconfig.json): FD then ID gives back tau, and the tangent along
// e_2 equals column 2 of dqdd/dq, which a fourth-order difference of the
// forward code checks here too. The example of "Free and ball joints": the
// tumbling box's positions, and the rotation block of dqdd/dqd against
// Euler's equations differentiated by hand.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import puma560 from '../../mechanisms/puma560.ts';
import { compile } from '../../src/compile.ts';
import { difference, forwardDynamics } from './differences.ts';
import { parameters as box } from '../../mechanisms/tumbling.ts';

const root = new URL('../../', import.meta.url).pathname;

describe('docs/guide/analysis.md: the derivatives example', () => {
  it('runs as written: tau back from ID(FD), and dqdd1/dq2 twice, equal to a difference of the forward code', () => {
    const guide = readFileSync(join(root, 'docs/guide/analysis.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf('\n## Derivatives of the dynamics\n')))![1];
    const dir = join(root, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'readme-derivatives-example.ts');
    writeFileSync(file, code.replace("'./mechanisms/", "'../mechanisms/"));
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [tau, twice] = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map(Number));
    // ID(FD(tau)) rounds to within 1e-15 of tau, either side: a zero may print -0.000000000
    expect(tau.map((v) => v + 0)).toEqual([1, 2, 3, 0, 0, 0]);
    expect(twice[0]).toBe(twice[1]);
    const inv = compile(puma560(), { problem: 'inverse' });
    const fd = forwardDynamics(compile(puma560()), inv.coordinates);
    const q = [0.1, 0.5, -0.4, 0.2, 0.7, -0.3],
      qd = [0, 0.5, 0, 0, -1, 0],
      u = [1, 2, 3, 0, 0, 0];
    expect(twice[0]).toBeCloseTo(difference((x) => fd(x, qd, u), q, 1)[0], 8);
  });

  it('the free-joint example runs as written: 7 positions, and the rotation block of dqdd/dqd is I^-1 ([I w]x - [w]x I)', () => {
    const guide = readFileSync(join(root, 'docs/guide/analysis.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf('\n## Free and ball joints\n')))![1];
    const dir = join(root, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'readme-floating-example.ts');
    writeFileSync(file, code.replace("'./mechanisms/", "'../mechanisms/"));
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [positions, ...rows] = r.stdout.trim().split('\n');
    expect(positions).toBe('j.r[1] j.r[2] j.r[3] j.Q[1] j.Q[2] j.Q[3] j.Q[4]');
    // principal inertias of the a x b x c box about its centre, the frame's origin
    const I = [box.b ** 2 + box.c ** 2, box.a ** 2 + box.c ** 2, box.a ** 2 + box.b ** 2].map((v) => (box.m * v) / 12);
    const w = [0.5, 3, -1],
      Iw = w.map((v, i) => I[i] * v);
    const skew = ([x, y, z]: number[]) => [
      [0, -z, y],
      [z, 0, -x],
      [-y, x, 0],
    ];
    // d/dw of I^-1 (tau - w x I w) = I^-1 ([I w]x - [w]x I)
    const want = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (skew(Iw)[i][j] - skew(w)[i][j] * I[j]) / I[i]));
    const got = rows.map((l) => l.split(' ').map(Number));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(got[i][j]).toBeCloseTo(want[i][j], 8);
  });
});
