// The command line's compile cache (node/compile-cache.ts, cli/cached-compile.ts):
// a second run of the same model and options is served from the cache and
// gives exactly what a compile gives (report, results, errors); any change of
// the model's files or options compiles again; --no-cache leaves it alone.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

async function kron(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

const json = async (...argv: string[]) => JSON.parse((await kron('compile', ...argv, '--json')).stdout);
/** the report without its cache field: what the compile itself says */
const withoutCache = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'cache'));

let dir: string, before: string | undefined;
beforeAll(() => {
  before = process.env.KRON_CACHE_DIR;
  process.env.KRON_CACHE_DIR = dir = mkdtempSync(join(tmpdir(), 'kron-cache-'));
});
afterAll(() => {
  if (before === undefined) delete process.env.KRON_CACHE_DIR;
  else process.env.KRON_CACHE_DIR = before;
});

describe('the compile cache', () => {
  it('a second compile is served from the cache: the same report, the same emitted module', async () => {
    const first = await json('mechanisms/fourbar.ts', '--set', 'w0=2');
    const second = await json('mechanisms/fourbar.ts', '--set', 'w0=2');
    expect(first.cache).toMatchObject({ hit: false });
    expect(second.cache).toMatchObject({ hit: true, key: first.cache.key });
    expect(withoutCache(second)).toEqual(withoutCache(first));
    const a = join(dir, 'a.js'),
      b = join(dir, 'b.js');
    await kron('compile', 'mechanisms/fourbar.ts', '--set', 'w0=2', '--emit', a);
    await kron('compile', 'mechanisms/fourbar.ts', '--set', 'w0=2', '--emit', b, '--no-cache');
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
  });

  it('a simulation from the cache gives the same samples bit for bit, CSV and playback JSON', async () => {
    const run = (out: string, ...flags: string[]) => kron('simulate', 'mechanisms/fourbar.ts', '--stop', '0.2', '--out', join(dir, out), ...flags);
    expect((await run('fresh.csv', '--no-cache')).code).toBe(0);
    await run('first.csv');
    expect((await run('cached.csv')).code).toBe(0);
    expect(readFileSync(join(dir, 'cached.csv'), 'utf8')).toBe(readFileSync(join(dir, 'fresh.csv'), 'utf8'));
    await run('fresh.json', '--no-cache');
    await run('cached.json');
    // the report in the run differs in its compile time and cache field only
    const read = (f: string) => {
      const r = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      return { ...r, report: { ...withoutCache(r.report), compileMs: 0 } };
    };
    expect(read('cached.json')).toEqual(read('fresh.json'));
  });

  it("an error that needs the plan (Newton names the loop's unknowns) reads the same from the cache", async () => {
    const args = ['simulate', 'mechanisms/fourbar-planar.ts', '--set', 'b=0.1', '--set', 'c=0.2', '--stop', '0.1'];
    const first = await kron(...args),
      second = await kron(...args);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/^SimulationError: Newton iteration did not converge at time 0 in the algebraic loop of 10 unknowns/);
    expect(second).toEqual(first);
    expect((await json('mechanisms/fourbar-planar.ts', '--set', 'b=0.1', '--set', 'c=0.2')).cache.hit).toBe(true);
  });

  it('a change of the model file, of a file it imports, of a --set or of the mode compiles again', async () => {
    // inside the repository, where 'kron' resolves as it does for mechanisms/
    mkdirSync('test-artifacts', { recursive: true });
    const folder = mkdtempSync(join('test-artifacts', 'kron-model-'));
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
    writeFileSync(join(folder, 'length.ts'), 'export const L = 0.5;\n');
    copyFileSync('mechanisms/pendulum.ts', join(folder, 'pendulum-base.ts'));
    const model = join(folder, 'model.ts');
    writeFileSync(model, "import build from './pendulum-base.ts';\nimport { L } from './length.ts';\nexport default () => build({ L });\n");
    const hit = async (...flags: string[]) => {
      const r = await kron('compile', model, ...flags, '--json');
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout).cache.hit as boolean;
    };
    expect(await hit()).toBe(false);
    expect(await hit()).toBe(true);
    writeFileSync(join(folder, 'length.ts'), 'export const L = 0.6;\n');
    expect(await hit()).toBe(false);
    expect(await hit('--mode', 'relaxed')).toBe(false);
    // the default is --mode auto: the same entry; --mode torn (the default before) another
    expect(await hit('--mode', 'auto')).toBe(true);
    expect(await hit('--mode', 'torn')).toBe(false);
    expect(await hit('--mode', 'torn')).toBe(true);
    expect(await hit('--start', 'j1.q=0.2')).toBe(false);
    expect(await hit('--set', 'link.m=2')).toBe(false);
    writeFileSync(model, readFileSync(model, 'utf8') + '// a comment\n');
    expect(await hit()).toBe(false);
    expect(await hit()).toBe(true);
    rmSync(folder, { recursive: true, force: true });
  });

  it('--no-cache neither reads nor writes an entry', async () => {
    const entries = () => readdirSync(dir).filter((f) => f.endsWith('.json')).length;
    const n = entries();
    const r = await json('mechanisms/drivetrain.ts', '--set', 'i=7', '--no-cache');
    expect(r.cache).toBeUndefined();
    expect(entries()).toBe(n);
  });
});
