// kron check: a model module's type errors as file:line:col message, then
// its build and compile. Oracles: the line and column of each mistake found
// in the fixture's own text (not from the compiler), the states a revolute
// joint gives (q, qd), and the exit codes of the CLI's contract.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

const work = mkdtempSync(join(tmpdir(), 'kron-check-'));
// model modules are ES modules: a folder whose package.json says so
writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const GOOD = `import { Mechanism } from 'kron';

export const parameters = { q0: 0.3 };

export default function build(p: Partial<typeof parameters> = {}): Mechanism {
  const o = { ...parameters, ...p };
  const m = new Mechanism('arm');
  const j1 = m.revolute('j1', { axis: [0, 0, 1], q: o.q0 });
  const link = m.body('link', { m: 2, rcm: [0.5, 0, 0], I: [0.01, 0.17, 0.17] });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, link.frame_a);
  return m;
}
`;

async function check(name: string, text: string, ...args: string[]) {
  const file = join(work, name);
  writeFileSync(file, text);
  let stdout = '',
    stderr = '';
  const code = await main(['check', file, ...args], { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr, file, text };
}

/** file:line:col of the first occurrence of `what` in text, 1-based as editors count */
function place(file: string, text: string, what: string): string {
  const at = text.indexOf(what);
  expect(at, what).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, at).split('\n');
  return `${file}:${before.length}:${before.at(-1)!.length + 1}`;
}

describe('kron check', () => {
  it('a good module: types ok, built and compiled (exit 0), --set reaching the builder', async () => {
    const r = await check('good.ts', GOOD, '--set', 'q0=1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(new RegExp(`^${r.file}: types ok, built and compiled: \\d+ equations, 2 states, (torn|relaxed) form`));
  });

  it('a string start value and an unknown option: each at its file:line:col (exit 1), nothing run', async () => {
    const text = GOOD.replace('q: o.q0', "q: 'zero'").replace('{ m: 2,', '{ mass: 2,');
    const r = await check('bad.ts', text);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe(`${place(r.file, text, 'q: ')} Type 'string' is not assignable to type 'number'. (TS2322)`);
    expect(lines[1]).toBe(
      `${place(r.file, text, 'mass')} Object literal may only specify known properties, and 'mass' does not exist in type 'BodyOptions'. It takes: m, rcm, I, gravity, geometry, collision. (TS2353)`,
    );
    expect(lines[2]).toBe(`ModelError: model module ${r.file} does not type-check: 2 errors, above`);
    expect(lines[3]).toMatch(/^ {2}hint: /);
    expect(r.stdout).toBe('');
  });

  it('a misspelt option gets the name it meant and the options there are', async () => {
    const text = GOOD.replace('{ axis:', '{ axsi:');
    const r = await check('typo.ts', text);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${place(r.file, text, 'axsi')} Object literal may only specify known properties, and 'axsi' does not exist in type 'JointOptions'. Did you mean axis? It takes: axis, q, qd,`,
    );
  });

  it('a syntax error: its line and column, as kron compile says it, no stack', async () => {
    const text = GOOD.replace("new Mechanism('arm')", "new Mechanism('arm'");
    const r = await check('syntax.ts', text);
    expect(r.code).toBe(1);
    // the parser expects the ")" where the statement ends
    expect(r.stderr).toBe(
      `ModelError: model module ${r.file} has a syntax error at ${place(r.file, text, ';\n  const j1')}: ')' expected.\n  hint: correct it, and check again\n`,
    );
  });

  it('a module that type-checks but throws when built: its own error, where it threw', async () => {
    const text = GOOD.replace("const m = new Mechanism('arm');", "const m = new Mechanism('arm');\n  if (o.q0 > 0) throw new Error('no arm length');");
    const r = await check('throws.ts', text);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`ModelError: model module ${r.file} threw an error while it was built: Error: no arm length`);
    expect(r.stderr).toContain(`at build (${place(r.file, text, 'new Error')})`);
    expect(r.stderr).not.toMatch(/node_modules|src\/cli/);
  });

  it('no file, or one that is not there: usage errors (exit 2)', async () => {
    let stderr = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (stderr += s) } };
    expect(await main(['check'], io)).toBe(2);
    expect(stderr).toContain('kron check needs a model file');
    expect(await main(['check', join(work, 'none.ts')], io)).toBe(2);
    expect(stderr).toContain(`model file ${join(work, 'none.ts')} not found`);
  });
});
