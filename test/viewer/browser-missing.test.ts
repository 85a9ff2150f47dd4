// test/viewer/browser.test.ts and browser-scene.test.ts on a machine without Chromium (KRON_CHROMIUM at
// a path that does not exist), run by a nested vitest: outside CI it passes
// with those tests counted as skipped, and says loudly that they did not run
// and how to enable them;
// with CI=true the same missing browser fails it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const vitest = join(root, 'node_modules/vitest/vitest.mjs');

// (CI or not, the files) => the nested run's exit status and output
function runBrowserTests(ci: boolean, files = ['test/viewer/browser.test.ts', 'test/viewer/browser-scene.test.ts']) {
  // without vitest's colours, for the tally
  const env: NodeJS.ProcessEnv = { ...process.env, KRON_CHROMIUM: '/nonexistent/chromium', CI: ci ? 'true' : '', NO_COLOR: '1', FORCE_COLOR: '0' };
  // the nested run's CPU is this file's (its children): it records no rows of its own (test/cpu/record.ts)
  delete env.KRON_TEST_CPU;
  const r = spawnSync(process.execPath, [vitest, 'run', ...files, '--reporter=default'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  return { status: r.status, output: r.stdout + r.stderr };
}

describe('the browser tests without Chromium', () => {
  it('are skipped outside CI, printing that they did not run, why and how to enable them', () => {
    const r = runBrowserTests(false);
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain('DID NOT RUN');
    expect(r.output).toContain('!!   - viewer in Chromium (mechanisms/fourbar.ts)'); // which suites, by name
    expect(r.output).toContain('!!   - viewer component (mountViewer of kron/browser)');
    expect(r.output).toContain('test/viewer/browser-scene.test.ts DID NOT RUN (skipped)');
    // vitest's tally: skipped, none passed
    expect(r.output).toMatch(/Tests\s+\d+ skipped/);
    expect(r.output).not.toMatch(/Tests\s+\d+ passed/);
    expect(r.output).toContain('/nonexistent/chromium is missing');
    expect(r.output).toContain('apt-get install -y chromium');
    expect(r.output).not.toMatch(/failed/);
  });

  it('fail with CI=true', () => {
    // one file is enough to fail the run (the nested vitest transforms and imports each file it is given);
    // which suites a missing browser stops is the test above's business
    const r = runBrowserTests(true, ['test/viewer/browser-scene.test.ts']);
    expect(r.status, r.output).toBe(1);
    expect(r.output).toContain('/nonexistent/chromium is missing');
  });
});
