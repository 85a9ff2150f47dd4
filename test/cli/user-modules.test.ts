// What a model, controller or metric module does wrong is a typed error that
// names it (src/node/user-code.ts, import-module.ts): its own exception with
// its message and the frame in its file where it was thrown (the fixtures'
// line numbers are the oracle), process.exit while it runs, a top-level await
// that never settles, an endless loop (time limits), a module loaded as
// CommonJS. Before, these were internal errors with Kron's stack, exit 0 with
// no output, exit 13 with no message, and hangs. The time limits of imports
// and controller calls are enforced by a watchdog thread of the command-line
// process only, so those cases run `node bin/kron.mjs`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { DEFAULT_LIMITS, setUserCodeLimits } from '../../src/node/user-code.ts';

const root = new URL('../../', import.meta.url).pathname;
const FIXTURES = 'test/cli/fixtures/user-modules';
const fixture = (name: string) => `${FIXTURES}/${name}`;
/** a frame of the fixture at this line, any column and function name (tsx and vitest map columns and name default exports differently) */
const frame = (name: string, line: number) => `(?:[\\w.<>$ ]+ \\()?${fixture(name)}:${line}:\\d+\\)?`;

let dir: string, before: string | undefined;
beforeAll(() => {
  before = process.env.KRON_CACHE_DIR;
  process.env.KRON_CACHE_DIR = dir = mkdtempSync(join(tmpdir(), 'kron-user-'));
});
afterAll(() => {
  if (before === undefined) delete process.env.KRON_CACHE_DIR;
  else process.env.KRON_CACHE_DIR = before;
});
// --import-timeout and --call-timeout set the limits of this process (and KRON_CALL_TIMEOUT for the sweep's threads)
afterEach(() => {
  setUserCodeLimits(DEFAULT_LIMITS);
  delete process.env.KRON_CALL_TIMEOUT;
});

async function kron(...argv: string[]) {
  let stdout = '',
    stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

/** the command line as a process: the watchdog and the exit guard run only there */
function kronProcess(...args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'bin/kron.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, KRON_CACHE_DIR: dir },
    timeout: 60_000,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe("an exception of the module: its message and its frames, not Kron's", () => {
  it('thrown by build(): a ModelError naming the module, the message, the function and line that threw (exit 1)', async () => {
    const r = await kron('simulate', fixture('build-throws.ts'), '--stop', '0.01');
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/internal error|src\/cli|node:internal/);
    const [first, second, third] = r.stderr.split('\n');
    expect(first).toBe(
      `ModelError: model module ${fixture('build-throws.ts')} threw an error while it was built: RangeError: the length table has no entry "arm"`,
    );
    // line 5 throws, in armLength, called from the default export on line 9
    expect(second).toMatch(new RegExp(`^    at armLength \\(${fixture('build-throws.ts')}:5:\\d+\\)$`));
    expect(third).toMatch(new RegExp(`^    at ${frame('build-throws.ts', 9)}$`));
    expect(r.stderr).toContain(`  component: ${fixture('build-throws.ts')}\n`);
    expect(r.stderr).toMatch(new RegExp(`  hint: the error is the module's own, thrown at armLength \\(${fixture('build-throws.ts')}:5:\\d+\\)\n$`));
  });

  it('thrown at its top level: the same, "while it was imported" (exit 1)', async () => {
    const r = await kron('compile', fixture('top-throws.ts'));
    expect(r.code).toBe(1);
    const [first, second] = r.stderr.split('\n');
    expect(first).toBe(`ModelError: model module ${fixture('top-throws.ts')} threw an error while it was imported: Error: no arm length in the table`);
    expect(second).toMatch(new RegExp(`^    at ${frame('top-throws.ts', 5)}$`));
  });

  it('a syntax error: file, line and column with the line and a caret, no esbuild stack (exit 1)', async () => {
    // written at run time: a broken fixture in the repository would break tsc and eslint
    const folder = mkdtempSync(join(tmpdir(), 'kron-syntax-'));
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }');
    const file = join(folder, 'broken.ts');
    writeFileSync(file, 'export default function build() {\n  const m = new Mechanism("arm";\n  return m;\n}\n');
    // as a process: there tsx compiles the module (under vitest, vite does)
    const r = kronProcess('compile', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        `ModelError: model module ${file} has a syntax error at ${file}:2:32: Expected ")" but found ";"`,
        '      const m = new Mechanism("arm";',
        `    ${' '.repeat(31)}^`,
        `  component: ${file}`,
        '  hint: correct the code there (npx tsc --noEmit checks the whole module and its types)',
        '',
      ].join('\n'),
    );
  });

  it('a KronError of the builder (a negative mass) passes as it is', async () => {
    const r = await kron('simulate', 'mechanisms/pendulum.ts', '--set', 'm=-1', '--stop', '0.01');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ModelError: body link: mass -1/);
  });
});

describe('process.exit in a module: an error naming it, never exit 0 without output', () => {
  it('in build(), and at the top level (exit 1)', async () => {
    const built = await kron('simulate', fixture('build-exit.ts'), '--stop', '0.01');
    expect(built.code).toBe(1);
    expect(built.stderr.split('\n')[0]).toMatch(
      new RegExp(`^ModelError: model module ${fixture('build-exit.ts')} called process.exit\\(0\\) at ${frame('build-exit.ts', 5)} while it was built$`),
    );
    const top = kronProcess('simulate', fixture('top-exit.ts'), '--stop', '0.01');
    expect(top.code).toBe(1);
    expect(top.stdout).toBe('');
    expect(top.stderr.split('\n')[0]).toMatch(
      new RegExp(`^ModelError: model module ${fixture('top-exit.ts')} called process.exit\\(0\\) at ${frame('top-exit.ts', 4)} while it was imported$`),
    );
  });

  it('in a controller call, with the time of the call (exit 1, no file written)', async () => {
    const out = join(dir, 'exit.csv');
    const r = await kron('simulate', 'mechanisms/pendulum.ts', '--controller', fixture('controller-exit.ts'), '--stop', '0.5', '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(
      new RegExp(
        `^ModelError: controller module ${fixture('controller-exit.ts')} called process.exit\\(0\\) at ${frame('controller-exit.ts', 5)} in a call at time 0\\.1005$`,
      ),
    );
    expect(() => readFileSync(out)).toThrow();
  });

  it('from a timer the module left behind, while the sweep waits for its runs: explained, exit 1 (it was exit 0 and no file)', () => {
    const out = join(dir, 'late.csv');
    const r = kronProcess('sweep', fixture('late-exit.ts'), '--grid', 'j1.q=0:1:20', '--stop', '1', '--step', '1e-4', '--workers', '1', '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^ModelError: process\\.exit\\(0\\) was called at ${frame('late-exit.ts', 4)} before the command finished \\(exit code 0\\)\n`),
    );
  });

  it("in a metric: at its top level the sweep's error (exit 1); in a call, that run's error row", async () => {
    const top = await kron(
      'sweep',
      'mechanisms/pendulum.ts',
      '--grid',
      'j1.q=0,1',
      '--stop',
      '0.1',
      '--metric',
      fixture('metric-top-exit.ts'),
      '--workers',
      '1',
    );
    expect(top.code).toBe(1);
    expect(top.stderr.split('\n')[0]).toMatch(
      new RegExp(
        `^ModelError: metric module ${fixture('metric-top-exit.ts')} called process\\.exit\\(3\\) at ${frame('metric-top-exit.ts', 4)} while it was imported$`,
      ),
    );
    const call = await kron('sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0,1', '--stop', '0.1', '--metric', fixture('metric-exit.ts'), '--workers', '1');
    expect(call.code).toBe(0);
    const rows = call.stdout.trim().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toMatch(
        new RegExp(
          `^\\d,\\d,error,ModelError: metric module ${fixture('metric-exit.ts')} called process\\.exit\\(0\\) at ${frame('metric-exit.ts', 5)} in a call$`,
        ),
      );
  });
});

describe('what never ends: a time limit, or the unsettled await explained', () => {
  it('a top-level await that never settles: explained, exit 1 (it was exit 13 and no message)', () => {
    const r = kronProcess('simulate', fixture('never-settles.ts'), '--stop', '0.01');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        `ModelError: model module ${fixture('never-settles.ts')} did not finish importing: its top-level await never settled (nothing was left for it to wait for)`,
        `  component: ${fixture('never-settles.ts')}`,
        '  hint: a top-level await on a promise that is never resolved; resolve it, or build the model without awaiting it',
        '',
      ].join('\n'),
    );
  });

  it("an endless build(): stopped after --import-timeout (vm's timer; in this process too)", async () => {
    const r = await kron('compile', fixture('build-loop.ts'), '--import-timeout', '0.5');
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`ModelError: model module ${fixture('build-loop.ts')} did not return from its build within 0.5 s`);
    expect(r.stderr).toContain('--import-timeout <seconds> or KRON_IMPORT_TIMEOUT=<seconds>');
  });

  it('an endless top level: the watchdog stops the import after --import-timeout (exit 1, within seconds)', () => {
    const r = kronProcess('compile', fixture('top-loop.ts'), '--import-timeout', '1');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        `ModelError: model module ${fixture('top-loop.ts')} did not finish importing within 1 s`,
        `  component: ${fixture('top-loop.ts')}`,
        '  hint: an endless loop, or a wait on something that never comes (a top-level await); if it needs longer, raise the limit: --import-timeout <seconds> or KRON_IMPORT_TIMEOUT=<seconds>',
        '',
      ].join('\n'),
    );
  });

  it('an endless controller call: stopped after --call-timeout, naming the time of the call (exit 1)', () => {
    const r = kronProcess('simulate', 'mechanisms/pendulum.ts', '--controller', fixture('controller-loop.ts'), '--stop', '0.5', '--call-timeout', '1');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`ModelError: controller module ${fixture('controller-loop.ts')} did not return from a call at time 0.1005 within 1 s`);
    // KRON_CALL_TIMEOUT says the same
    const byVariable = spawnSync(
      process.execPath,
      [join(root, 'bin/kron.mjs'), 'simulate', 'mechanisms/pendulum.ts', '--controller', fixture('controller-loop.ts'), '--stop', '0.5'],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, KRON_CACHE_DIR: dir, KRON_CALL_TIMEOUT: '0.5' },
        timeout: 60_000,
      },
    );
    expect(byVariable.status).toBe(1);
    expect(byVariable.stderr.split('\n')[0]).toBe(
      `ModelError: controller module ${fixture('controller-loop.ts')} did not return from a call at time 0.1005 within 0.5 s`,
    );
  });

  it("an endless metric call: that run's error after --call-timeout (vm's timer in the pool thread)", async () => {
    const r = await kron(
      'sweep',
      'mechanisms/pendulum.ts',
      '--grid',
      'j1.q=0,1',
      '--stop',
      '0.1',
      '--metric',
      fixture('metric-loop.ts'),
      '--workers',
      '1',
      '--call-timeout',
      '0.5',
    );
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').slice(1)).toEqual(
      [0, 1].map((i) => `${i},${i},error,ModelError: metric module ${fixture('metric-loop.ts')} did not return from a call within 0.5 s`),
    );
  });

  it('a time limit that is not a positive number is a usage error', async () => {
    for (const flag of ['--import-timeout', '--call-timeout']) {
      const r = await kron('simulate', 'mechanisms/pendulum.ts', flag, '0', '--stop', '0.01');
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toBe(`UsageError: ${flag} expects a time in seconds > 0, got "0"\n  hint: e.g. ${flag} 30\n`);
    }
  });
});

describe('CommonJS: metrics and controllers get the hint models get', () => {
  for (const [role, args] of [
    ['metric', ['sweep', 'mechanisms/pendulum.ts', '--grid', 'j1.q=0,1', '--stop', '0.1', '--workers', '1', '--metric']],
    ['controller', ['simulate', 'mechanisms/pendulum.ts', '--stop', '0.1', '--controller']],
  ] as const) {
    // as a process: Node's loader (vitest's transforms every file as an ES module)
    it(`a .ts ${role} in a folder whose package.json says commonjs: a UsageError with the hint (exit 2; it was ERR_REQUIRE_CYCLE_MODULE)`, () => {
      const file = fixture(`commonjs/${role}.ts`);
      const r = kronProcess(...args, file);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `UsageError: ${role} module ${file} was loaded as CommonJS\n  hint: ${role} modules are ES modules: name the file .mts, or keep it in a folder whose package.json says "type": "module" (like mechanisms/)\n`,
      );
    });
  }
});
