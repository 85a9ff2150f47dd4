// Whether the browser tests can run (Debian's Chromium at /usr/bin/chromium, or
// KRON_CHROMIUM; browser-missing.test.ts points it at nothing), and what a
// suite does when they cannot: outside CI one passing test that prints a
// banner saying loudly which suites did not run and how to enable them; with
// CI=true the suite runs and fails on the missing browser.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';

export const CHROMIUM = process.env.KRON_CHROMIUM ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const IN_CI = ['true', '1'].includes((process.env.CI ?? '').toLowerCase());
/** run the suites: the browser is there, or CI demands it (then they fail when it is missing) */
export const RUN = HAVE_CHROMIUM || IN_CI;

// (the test file, for the banner) => what replaces a suite that needs the browser
export function notRunner(file: string): (name: string, _suite?: () => void) => void {
  const suites: string[] = [];
  let warned = false;
  const banner = () => `
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!! The viewer's browser tests in ${file} DID NOT RUN:
${suites.map((n) => `!!   - ${n}`).join('\n')}
!! ${CHROMIUM} is missing. Install Debian's Chromium to run them:
!!     apt-get install -y chromium
!! (.ci/run does; with CI=true a missing browser fails this file.)
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
`;
  return (name) => {
    suites.push(name);
    describe(name, () => {
      it(`did not run: ${CHROMIUM} is missing (apt-get install -y chromium)`, () => {
        if (!warned) console.warn(banner());
        warned = true;
        expect(HAVE_CHROMIUM || IN_CI).toBe(false);
      });
    });
  };
}

/** Chromium as every browser test drives it: headless, no sandbox (root in CI), software WebGL */
export function launchChromium(): Promise<Browser> {
  if (!HAVE_CHROMIUM) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    timeout: 20_000,
  });
}
