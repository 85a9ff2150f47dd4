// Another site's page in a real browser (Debian's Chromium through
// playwright-core) cannot use the viewer's server: a page served from
// another port or host name asks for models.js (which the server bundles on
// each request), config.json and the page by fetch and by <script>, and the
// browser's own network log shows each answered 403 before any work; the
// viewer's own page, opened in the same browser, still loads and its own
// models.js is 200. Without /usr/bin/chromium the suite is replaced by one
// test that says so loudly (CI=true: a missing browser fails it), as
// browser.test.ts does.
import { type Server, createServer } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, launchChromium, notRunner, WAIT } from './chromium.ts';
import { type ViewerServer, serveViewer } from '../../src/cli/view.ts';

const SUITE = "the viewer's server in Chromium against another site's page";
const notRun = notRunner('test/viewer/browser-sites.test.ts');

let browser: Browser;
let viewer: ViewerServer;
let other: Server;
let otherPort = 0;

/** a page of another site that asks the viewer for a few routes, by fetch (no-cors: it cannot read them anyway) and by <script> */
function otherPage(viewerUrl: string): string {
  const routes = ['models.js', 'config.json', ''];
  return `<!doctype html><title>elsewhere</title><script>
    for (const r of ${JSON.stringify(routes)}) fetch(${JSON.stringify(viewerUrl)} + r, { mode: 'no-cors' }).catch(() => {});
    const s = document.createElement('script'); s.src = ${JSON.stringify(viewerUrl)} + 'models.js?script'; document.head.append(s);
  </script>`;
}

beforeAll(async () => {
  if (!RUN) return;
  viewer = await serveViewer({ port: 0 });
  other = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(otherPage(viewer.url));
  });
  await new Promise<void>((ok) => other.listen(0, '127.0.0.1', ok));
  otherPort = (other.address() as { port: number }).port;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  other?.closeAllConnections();
  await new Promise((ok) => (other ? other.close(ok) : ok(undefined)));
});

/** what the browser's network layer sent to the viewer and got back: path -> Sec-Fetch-Site and status, as Chromium logs them (CDP) */
type Seen = Record<string, { site?: string; status?: number }>;

/**
 * Open a page and collect, through the DevTools protocol, every request to
 * the viewer's server (an ORB-blocked <script> has no Playwright response);
 * the protocol's events for one request come in any order, so they are kept
 * by request id and joined when read.
 */
async function statuses(url: string, expected: string[]): Promise<{ page: Page; seen: () => Seen }> {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  const paths = new Map<string, string>(),
    sites = new Map<string, string>(),
    codes = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (e) => {
    const u = new URL(e.request.url);
    if (e.request.url.startsWith(viewer.url)) paths.set(e.requestId, u.search === '?script' ? `${u.pathname}${u.search}` : u.pathname);
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => sites.set(e.requestId, e.headers['Sec-Fetch-Site'] ?? e.headers['sec-fetch-site']));
  cdp.on('Network.responseReceivedExtraInfo', (e) => codes.set(e.requestId, e.statusCode));
  await cdp.send('Network.enable');
  const seen = (): Seen => Object.fromEntries([...paths].map(([id, path]) => [path, { site: sites.get(id), status: codes.get(id) }]));
  await page.goto(url, { timeout: WAIT });
  const done = () => expected.every((p) => seen()[p]?.status !== undefined && seen()[p]?.site !== undefined);
  await expect
    .poll(done, { timeout: WAIT })
    .toBe(true)
    .catch(() => {
      throw new Error(`not every request to the viewer was seen: ${JSON.stringify(seen())}`);
    });
  return { page, seen };
}

(RUN ? describe : notRun)(SUITE, () => {
  for (const [site, host] of [
    ['same-site', '127.0.0.1'],
    ['cross-site', 'localhost'],
  ]) {
    it(`a page on ${host}:<another port> (${site}) gets 403 for models.js, config.json and the page, by fetch and by <script>`, async () => {
      const paths = ['/models.js', '/config.json', '/', '/models.js?script'];
      const { page, seen } = await statuses(`http://${host}:${otherPort}/`, paths);
      expect(seen()).toEqual(Object.fromEntries(paths.map((p) => [p, { site, status: 403 }])));
      await page.close();
    });
  }

  it("the viewer's own page still loads (none), and its own config.json and models.js are 200 (same-origin)", async () => {
    const { page, seen } = await statuses(viewer.url, ['/', '/config.json', '/models.js']);
    await page.waitForFunction('window.kron && window.kron.ready', null, { timeout: WAIT });
    expect(seen()['/']).toEqual({ site: 'none', status: 200 });
    expect(seen()['/config.json']).toEqual({ site: 'same-origin', status: 200 });
    expect(seen()['/models.js']).toEqual({ site: 'same-origin', status: 200 });
    await page.close();
  });
});
