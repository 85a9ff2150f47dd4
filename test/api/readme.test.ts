// The README's API example, extracted from README.md and run as a user runs
// it (node --import tsx, importing the package by its name 'kron'), checked
// against an independent integration of the pendulum's equation of motion.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** the first ```ts block after the heading "## A first model" */
function apiExample(readme: string): string {
  const section = readme.slice(readme.indexOf('\n## A first model\n'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('README.md has no ```ts block under ## A first model');
  return match[1];
}

/** q'' = -m g L cos(q) / (m L^2 + Izz): the rod along x at angle q about z, gravity along -y */
function pendulumOracle(times: number[], h = 1e-4): { q: number[]; qddAtEnd: number } {
  const [m, g, L, Izz] = [1, 9.80665, 0.5, 0.01];
  const f = (q: number) => (-m * g * L * Math.cos(q)) / (m * L * L + Izz);
  let q = 0.3,
    v = 0,
    t = 0;
  const out: number[] = [];
  for (const target of times) {
    while (t < target - 1e-12) {
      const k1q = v,
        k1v = f(q);
      const k2q = v + (h / 2) * k1v,
        k2v = f(q + (h / 2) * k1q);
      const k3q = v + (h / 2) * k2v,
        k3v = f(q + (h / 2) * k2q);
      const k4q = v + h * k3v,
        k4v = f(q + h * k3q);
      q += (h / 6) * (k1q + 2 * k2q + 2 * k3q + k4q);
      v += (h / 6) * (k1v + 2 * k2v + 2 * k3v + k4v);
      t += h;
    }
    out.push(q);
  }
  return { q: out, qddAtEnd: f(q) };
}

describe('README API example', () => {
  it('runs as written and prints the pendulum an independent integration predicts', () => {
    const code = apiExample(readFileSync(join(root, 'README.md'), 'utf8'));
    expect(code).toMatch(/from 'kron'/);
    const dir = join(root, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'readme-api-example.ts'); // inside the repository: tsconfig.json's paths map 'kron' to src/
    writeFileSync(file, code);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe("2 [ 'j1.q', 'j1.qd' ]");
    const samples = lines.slice(1, -1).map((l) => l.split(' ').map(Number));
    const times = samples.map(([t]) => t);
    expect(times).toEqual([0, 0.5, 1, 1.5, 2]);
    const oracle = pendulumOracle(times);
    samples.forEach(([, q], i) => expect(q).toBeCloseTo(oracle.q[i], 7));
    expect(Number(lines[lines.length - 1])).toBeCloseTo(oracle.qddAtEnd, 6);
  });
});

describe('README links', () => {
  it('point at files in this repository (a clone or the package has them), never outside it', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^(https?:|#)/.test(t));
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) {
      expect(t, t).not.toMatch(/^(\.\.\/|\/)/);
      expect(existsSync(join(root, t.split('#')[0])), t).toBe(true);
    }
  });
});
