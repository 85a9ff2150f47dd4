// Whether the browser tests can run (Debian's Chromium at /usr/bin/chromium, or
// KRON_CHROMIUM; browser-missing.test.ts points it at nothing), and what a
// suite does when they cannot: outside CI one skipped test, and a banner
// saying loudly which suites did not run and how to enable them; with
// CI=true the suite runs and fails on the missing browser.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { describe, it } from 'vitest';

export const CHROMIUM = process.env.KRON_CHROMIUM ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const IN_CI = ['true', '1'].includes((process.env.CI ?? '').toLowerCase());
/**
 * how long a browser test waits for a page to get somewhere (loaded, ready, a frame drawn): a backstop for
 * a page that never does, whose error names what was awaited, not a guess of how long it takes (the waits
 * were 10-30 s, which the load of other jobs on 2 cores can exceed); the tests and hooks themselves have
 * the suite's backstop of 10 minutes (vitest.config.ts)
 */
export const WAIT = 300_000;
/** run the suites: the browser is there, or CI demands it (then they fail when it is missing) */
export const RUN = HAVE_CHROMIUM || IN_CI;

// (the test file, for the banner) => what replaces a suite that needs the browser: the suite's one
// test, skipped (vitest counts it as skipped, not passed), and a banner on stderr when the file is collected
export function notRunner(file: string): (name: string, _suite?: () => void) => void {
  return (name) => {
    describe(name, () => {
      console.warn(`
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!! The viewer's browser tests in ${file} DID NOT RUN (skipped):
!!   - ${name}
!! ${CHROMIUM} is missing. Install Debian's Chromium to run them:
!!     apt-get install -y chromium
!! (.ci/run does; with CI=true a missing browser fails this file.)
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
`);
      it.skip(`did not run: ${CHROMIUM} is missing (apt-get install -y chromium)`, () => {});
    });
  };
}

/** Chromium as every browser test drives it: headless, no sandbox (root in CI), software WebGL */
export function launchChromium(): Promise<Browser> {
  if (!HAVE_CHROMIUM) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    timeout: WAIT,
  });
}
