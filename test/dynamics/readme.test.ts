// The inverse-dynamics example of docs/guide/analysis.md, extracted and run as
// a user runs it (node --import tsx, 'kron' mapped to src/ by tsconfig.json),
// checked against the closed-form M and h of the planar double pendulum.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** the first ```ts block after the heading "## Inverse dynamics" */
function example(readme: string): string {
  const section = readme.slice(readme.indexOf('\n## Inverse dynamics\n'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('docs/guide/analysis.md has no ```ts block under ## Inverse dynamics');
  return match[1];
}

/**
 * Two links about z: mass m, length l1 (first), centre of mass c along the
 * link, inertia Izz about it; gravity g along -y (Spong, Hutchinson &
 * Vidyasagar, Robot Modeling and Control, section 7.3, with q2 relative).
 */
function doublePendulum(q: number[], qd: number[]) {
  const [m, l1, c, I, g] = [1, 1, 0.5, 0.01, 9.80665];
  const c2 = Math.cos(q[1]),
    s2 = Math.sin(q[1]);
  const M11 = 2 * I + m * c * c + m * (l1 * l1 + c * c + 2 * l1 * c * c2);
  const M12 = I + m * (c * c + l1 * c * c2);
  const M22 = I + m * c * c;
  const k = m * l1 * c * s2;
  const h1 = -k * (2 * qd[0] * qd[1] + qd[1] * qd[1]) + m * g * c * Math.cos(q[0]) + m * g * (l1 * Math.cos(q[0]) + c * Math.cos(q[0] + q[1]));
  const h2 = k * qd[0] * qd[0] + m * g * c * Math.cos(q[0] + q[1]);
  return { M: [M11, M12, M12, M22], h: [h1, h2] };
}

describe('docs/guide/analysis.md: the inverse dynamics example', () => {
  it('runs as written and prints tau = M qdd + h, M and h of the closed form', () => {
    const code = example(readFileSync(join(root, 'docs/guide/analysis.md'), 'utf8'));
    expect(code).toMatch(/from 'kron'/);
    const dir = join(root, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'readme-inverse-example.ts'); // inside the repository: tsconfig.json's paths map 'kron' to src/
    writeFileSync(file, code);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe("[ 'j1.tau', 'j2.tau' ]");
    const [tau, M, h] = lines.slice(1).map((l) => l.split(' ').map(Number));
    const want = doublePendulum([0.3, -0.2], [1, 0.5]);
    M.forEach((v, i) => expect(v).toBeCloseTo(want.M[i], 12));
    h.forEach((v, i) => expect(v).toBeCloseTo(want.h[i], 11));
    const qdd = [2, -1];
    tau.forEach((v, i) => expect(v).toBeCloseTo(want.M[2 * i] * qdd[0] + want.M[2 * i + 1] * qdd[1] + want.h[i], 11));
  });
});
