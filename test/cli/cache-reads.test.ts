// The compile cache is never stale (src/node/reads.ts, compile-cache.ts): a
// model module that reads a file through node:fs or an environment variable
// while it is imported and built is compiled again when what it read
// changes, and found again when it changes back; a module that reads what no
// key can hold (Math.random) gets no entry; an entry that is broken (cut
// short, of the wrong shape, with code that does not parse) is said once,
// compiled again and replaced. The oracle of the numbers is the pendulum's
// closed form, (m L² + Izz) qdd = -m g L cos q, for the length the module read.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

const root = new URL('../../', import.meta.url).pathname;
let dir: string, folder: string, before: string | undefined;
beforeAll(() => {
  before = process.env.KRON_CACHE_DIR;
  process.env.KRON_CACHE_DIR = dir = mkdtempSync(join(tmpdir(), 'kron-reads-'));
  // inside the repository, where the models import mechanisms/ as they do in test-artifacts
  mkdirSync('test-artifacts', { recursive: true });
  folder = mkdtempSync(join('test-artifacts', 'kron-reads-'));
  writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
});
afterAll(() => {
  if (before === undefined) delete process.env.KRON_CACHE_DIR;
  else process.env.KRON_CACHE_DIR = before;
});
afterEach(() => delete process.env.KRON_TEST_LENGTH_SCALE);

async function kron(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

/** mechanisms/pendulum.ts's defaults: m 1, Izz 0.01, q0 0.3; gravity 9.80665 along -y */
const qdd = (L: number) => (-1 * 9.80665 * L * Math.cos(0.3)) / (1 * L * L + 0.01);

/**
 * As processes: a module is imported once per process (Node keeps it), so
 * what its top level read is read again only by another process, as every
 * kron command is.
 */
function kronProcess(...args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, KRON_CACHE_DIR: dir } });
  expect(r.status, r.stderr).toBe(0);
  return r;
}

/** der(j1.qd) at t = 0 of a simulation, and the compile report's cache field */
function run(model: string) {
  const sim = kronProcess('simulate', model, '--stop', '0', '--signals', 'der(j1.qd)');
  const report = kronProcess('compile', model, '--json');
  return { value: Number(sim.stdout.trim().split('\n')[1].split(',')[1]), cache: JSON.parse(report.stdout).cache, stderr: sim.stderr };
}

describe('a model module that reads a file and the environment', () => {
  it('is compiled again when params.json or the variable changes, and found again when they change back', async () => {
    writeFileSync(join(folder, 'params.json'), '{ "L": 0.5 }');
    const model = join(folder, 'reads.ts');
    writeFileSync(
      model,
      [
        "import { readFileSync } from 'node:fs';",
        "import build from '../../mechanisms/pendulum.ts';",
        "const { L } = JSON.parse(readFileSync(new URL('./params.json', import.meta.url), 'utf8'));",
        'export default () => build({ L: L * Number(process.env.KRON_TEST_LENGTH_SCALE ?? 1) });',
        '',
      ].join('\n'),
    );
    const first = run(model);
    expect(first.value).toBeCloseTo(qdd(0.5), 10);
    // the compile report of the same inputs is the entry the simulation stored
    expect(first.cache).toEqual({
      key: first.cache.key,
      hit: true,
      loadMs: first.cache.loadMs,
      reads: { files: [join(folder, 'params.json')], env: ['KRON_TEST_LENGTH_SCALE'] },
    });

    writeFileSync(join(folder, 'params.json'), '{ "L": 0.6 }');
    const changed = run(model);
    expect(changed.value).toBeCloseTo(qdd(0.6), 10); // it was qdd(0.5): the stale entry
    expect(changed.cache.key).not.toBe(first.cache.key);

    process.env.KRON_TEST_LENGTH_SCALE = '2'; // the processes' environment
    const scaled = run(model);
    expect(scaled.value).toBeCloseTo(qdd(1.2), 10);

    // back to what the first run read: its entry, not a compile
    delete process.env.KRON_TEST_LENGTH_SCALE;
    writeFileSync(join(folder, 'params.json'), '{ "L": 0.5 }');
    const back = kronProcess('compile', model, '--json');
    expect(JSON.parse(back.stdout).cache).toMatchObject({ key: first.cache.key, hit: true });
    // the text report says what the entry is keyed on
    const text = kronProcess('compile', model);
    expect(text.stdout).toContain(`  compile cache: found, keyed also on what the module read: ${join(folder, 'params.json')}, env KRON_TEST_LENGTH_SCALE\n`);
  });

  it('a module that reads a file only in build() is keyed on it too, and a folder listed by its names', async () => {
    mkdirSync(join(folder, 'parts'), { recursive: true });
    writeFileSync(join(folder, 'parts', 'a.json'), '{ "L": 0.25 }');
    const model = join(folder, 'build-reads.ts');
    writeFileSync(
      model,
      [
        "import { readFileSync, readdirSync } from 'node:fs';",
        "import build from '../../mechanisms/pendulum.ts';",
        "const parts = new URL('./parts/', import.meta.url);",
        'export default () => build({ L: readdirSync(parts).reduce((L, f) => L + JSON.parse(readFileSync(new URL(f, parts), "utf8")).L, 0) });',
        '',
      ].join('\n'),
    );
    expect(run(model).value).toBeCloseTo(qdd(0.25), 10);
    writeFileSync(join(folder, 'parts', 'b.json'), '{ "L": 0.5 }');
    expect(run(model).value).toBeCloseTo(qdd(0.75), 10);
    // in one process too: build() runs again, and reads again
    writeFileSync(join(folder, 'parts', 'b.json'), '{ "L": 0.25 }');
    const inProcess = await kron('simulate', model, '--stop', '0', '--signals', 'der(j1.qd)');
    expect(Number(inProcess.stdout.trim().split('\n')[1].split(',')[1])).toBeCloseTo(qdd(0.5), 10);
  });

  it('a module that calls Math.random while it is built gets no entry: the report and a warning say why', async () => {
    const model = join(folder, 'random.ts');
    writeFileSync(model, "import build from '../../mechanisms/pendulum.ts';\nexport default () => build({ L: 0.5 + 0 * Math.random() });\n");
    const r = await kron('compile', model, '--json');
    expect(JSON.parse(r.stdout).cache).toEqual({ key: expect.any(String), hit: false, stored: false, reason: 'the model module called Math.random()' });
    const again = await kron('simulate', model, '--stop', '0');
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('warning: compile cache: nothing stored, because the model module called Math.random()\n');
    expect((await kron('compile', model)).stdout).toContain('  compile cache: nothing stored, because the model module called Math.random()\n');
  });

  it('enumerating the environment gets no entry; reading a variable that is unset keys on its absence', async () => {
    const all = join(folder, 'env-all.ts');
    writeFileSync(
      all,
      "import build from '../../mechanisms/pendulum.ts';\nconst n = Object.keys(process.env).length;\nexport default () => build({ L: 0.5 + 0 * n });\n",
    );
    expect(JSON.parse((await kron('compile', all, '--json')).stdout).cache.reason).toBe('the model module enumerated the environment (process.env)');
  });
});

describe('a broken entry is said once, compiled again and replaced', () => {
  const model = 'mechanisms/drivetrain.ts';
  const breakings: [string, (text: string) => string, RegExp][] = [
    ['cut short', (t) => t.slice(0, t.length >> 1), /it is not whole JSON \(cut short\?\)/],
    ['valid JSON of the wrong shape', () => '{"format":2}', /its field warnings is missing or of the wrong type/],
    [
      'a field of the wrong type',
      (t) => JSON.stringify({ ...JSON.parse(t), data: { ...JSON.parse(t).data, defaults: { ...JSON.parse(t).data.defaults, x: 'oops' } } }),
      /its field data\.defaults\.x is missing or of the wrong type/,
    ],
    [
      'code that does not parse',
      (t) => JSON.stringify({ ...JSON.parse(t), data: { ...JSON.parse(t).data, generated: { ...JSON.parse(t).data.generated, body: 'return }{' } } }),
      /does not make a model \(Unexpected token/,
    ],
  ];
  for (const [what, breakIt, reason] of breakings) {
    it(what, async () => {
      const set = ['--set', `i=${breakings.findIndex(([w]) => w === what) + 11}`];
      const fresh = await kron('compile', model, '--json', ...set);
      const { key } = JSON.parse(fresh.stdout).cache;
      const entry = join(dir, `${key}.json`);
      writeFileSync(entry, breakIt(readFileSync(entry, 'utf8')));
      const broken = await kron('simulate', model, '--stop', '0.1', ...set);
      expect(broken.code).toBe(0);
      expect(broken.stderr).toMatch(
        new RegExp(`^warning: compile cache: .*${key}.* cannot be used: ${reason.source}|^warning: compile cache: the entry ${key} ${reason.source}`),
      );
      expect(broken.stderr.split('\n').filter((l) => l.startsWith('warning'))).toHaveLength(1);
      // replaced: the next run is a hit, without a word, with the report of the compile
      const after = await kron('compile', model, '--json', ...set);
      expect(after.stderr).toBe('');
      const report = JSON.parse(after.stdout);
      expect(report.cache).toMatchObject({ key, hit: true });
      expect({ ...report, cache: undefined, compileMs: 0 }).toEqual({ ...JSON.parse(fresh.stdout), cache: undefined, compileMs: 0 });
    });
  }
});
