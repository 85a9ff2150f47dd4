// The pages of the browser tests that open `kron view` on JSON runs: a folder
// for the runs, the viewer servers started and the page errors seen, and the
// browser that shows them (chromium.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { main } from '../../src/cli/main.ts';
import { type ServeOptions, type ViewerServer, serveViewer } from '../../src/cli/view.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { launchChromium, WAIT } from './chromium.ts';

// (a prefix for the runs' folder) => the helpers of one test file
export function viewerPages(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const servers: ViewerServer[] = [];
  const errors: string[] = [];
  let browser: Browser | undefined;
  return {
    dir,
    /** console errors and uncaught exceptions of every page opened */
    errors,
    async launch(): Promise<void> {
      browser = await launchChromium();
    },
    /** simulate a model (module or URDF) into a JSON run (more: further options of kron simulate, e.g. --set floating=1) */
    async simulateRun(model: string, name: string, stop: number, more: string[] = []): Promise<{ file: string; run: PlaybackRun }> {
      const file = join(dir, `${name}.json`);
      const code = await main(['simulate', model, '--stop', String(stop), '--interval', '0.01', '--out', file, ...more]);
      if (code !== 0) throw new Error(`kron simulate ${model} failed with exit code ${code}`);
      return { file, run: JSON.parse(readFileSync(file, 'utf8')) };
    },
    /** a page of the viewer serving a run, paused once loaded (none: live mode only, nothing loaded); serve: more of kron view's options (track) */
    async open(file: string | undefined, viewport = { width: 1280, height: 800 }, serve: Omit<ServeOptions, 'run' | 'port'> = {}): Promise<Page> {
      const server = await serveViewer({ ...serve, run: file, port: 0 });
      servers.push(server);
      const page = await browser!.newPage({ viewport });
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(server.url, { timeout: WAIT });
      await page.waitForFunction('window.kron && window.kron.ready', null, { timeout: WAIT });
      await page.evaluate('window.kron.ready');
      if (file) {
        await page.waitForFunction('window.kron.state().samples > 0', null, { timeout: WAIT });
        await page.evaluate('window.kron.pause()');
      }
      return page;
    },
    async close(): Promise<void> {
      await browser?.close();
      for (const s of servers) await s.close();
    },
  };
}
