// The viewer in a real browser (Debian's Chromium through playwright-core,
// WebGL on SwiftShader): a run of MECHANISM is simulated, served and played;
// screenshots go to test-artifacts/viewer/ for people to look at.
// Without /usr/bin/chromium the suite is replaced by one test that says
// loudly that these tests did not run, why, and how to enable them, so that
// `npm test` passes on a fresh machine; in CI (CI=true) a missing browser
// fails the suite instead, so CI always runs them (.ci/run installs Chromium).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type Plugin, build } from 'esbuild';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, launchChromium, notRunner, WAIT } from './chromium.ts';
import { main } from '../../src/cli/main.ts';
import { type ViewerServer, serveViewer } from '../../src/cli/view.ts';
import { compile } from '../../src/compile.ts';
import { loadModel } from '../../src/cli/load.ts';
import { POSE_STRIDE, type PlaybackRun } from '../../src/io/types.ts';
import { changed } from './pixels.ts';

/** the mechanism the viewer is tested with (the default of npm start) */
const MECHANISM = 'mechanisms/fourbar.ts';
const ARTIFACTS = new URL('../../test-artifacts/viewer/', import.meta.url).pathname;
const STOP = 3;

const notRun = notRunner('test/viewer/browser.test.ts');

interface ViewerState {
  model: string;
  time: number;
  playing: boolean;
  speed: number;
  duration: number;
  samples: number;
  frames: number;
  plot: { series: string[]; points: number[] };
  mechanismBox: { x: number; y: number; width: number; height: number };
  liveMechanisms: string[];
}

let server: ViewerServer;
let browser: Browser;
let page: Page;
let run: PlaybackRun;
const errors: string[] = [];

const kron = <T = void>(call: string) => page.evaluate(`window.kron.${call}`) as Promise<T>;
const state = () => kron<ViewerState>('state()');

async function waitFor(condition: string, what: string, timeout = WAIT): Promise<void> {
  try {
    await page.waitForFunction(condition, null, { timeout });
  } catch {
    throw new Error(`timed out after ${timeout} ms waiting for ${what} (${condition}); page errors: ${errors.join(' | ') || 'none'}`);
  }
}

async function shot(target: Locator | Page, name: string): Promise<PNG> {
  const buffer = await target.screenshot({ path: join(ARTIFACTS, name), timeout: WAIT });
  return PNG.sync.read(buffer);
}

/** variance of the luminance: 0 for a blank canvas */
function variance(png: PNG): number {
  let sum = 0,
    sq = 0;
  const n = png.width * png.height;
  for (let i = 0; i < png.data.length; i += 4) {
    const y = 0.299 * png.data[i] + 0.587 * png.data[i + 1] + 0.114 * png.data[i + 2];
    sum += y;
    sq += y * y;
  }
  return sq / n - (sum / n) ** 2;
}

/** pixels within 60 (per channel) of a colour */
function pixelsNear(png: PNG, hex: string): number {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) if (rgb.every((v, c) => Math.abs(png.data[i + c] - v) < 60)) n++;
  return n;
}

/** the sample whose frame positions are farthest from the first sample's: where the run has moved most */
function farthestSample(r: PlaybackRun): number {
  const { frames, data } = r.poses!;
  let best = 0,
    far = -1;
  for (let k = 0; k < r.time.length; k++) {
    let d = 0;
    for (let f = 0; f < frames * POSE_STRIDE; f += POSE_STRIDE) {
      const o = k * frames * POSE_STRIDE + f;
      d = Math.max(d, Math.hypot(data[o] - data[f], data[o + 1] - data[f + 1], data[o + 2] - data[f + 2]));
    }
    if (d > far) ((far = d), (best = k));
  }
  return best;
}

beforeAll(async () => {
  if (!RUN) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(mkdtempSync(join(tmpdir(), 'kron-viewer-')), 'run.json');
  const code = await main(['simulate', MECHANISM, '--stop', String(STOP), '--interval', '0.01', '--out', file]);
  if (code !== 0) throw new Error(`kron simulate ${MECHANISM} failed with exit code ${code}`);
  run = JSON.parse(readFileSync(file, 'utf8'));
  server = await serveViewer({ run: file, port: 0 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url, { timeout: WAIT });
  await waitFor('window.kron && window.kron.state().samples > 0', 'the run to load');
  await kron('pause()');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

(RUN ? describe : notRun)(`viewer in Chromium (${MECHANISM})`, () => {
  it('loads the run without console errors and draws a non-blank scene', async () => {
    const s = await state();
    expect(s.model).toBe(run.model);
    expect(s.samples).toBe(run.time.length);
    expect(s.frames).toBe(run.scene!.frames.length);
    expect(s.duration).toBeCloseTo(STOP, 9);
    await kron('seek(0)');
    const canvas = await shot(page.locator('#scene'), 'loaded-t0.png');
    expect(variance(canvas)).toBeGreaterThan(30);
    expect(errors).toEqual([]);
  });

  it('two playback times differ where the mechanism is, and nowhere else', async () => {
    await kron('showInfo(false)'); // the info overlay's time and energy change too (browser-plots.test.ts tests it)
    const k = farthestSample(run);
    const t2 = run.time[k];
    await kron('seek(0)');
    const boxA = (await state()).mechanismBox;
    const a = await shot(page.locator('#scene'), 'time-a.png');
    await kron(`seek(${t2})`);
    const boxB = (await state()).mechanismBox;
    const b = await shot(page.locator('#scene'), `time-b.png`);
    writeFileSync(join(ARTIFACTS, 'time-b.txt'), `t = ${t2} s (sample ${k})\n`);
    const margin = 8;
    const x = Math.min(boxA.x, boxB.x) - margin,
      y = Math.min(boxA.y, boxB.y) - margin;
    const region = {
      x,
      y,
      width: Math.max(boxA.x + boxA.width, boxB.x + boxB.width) + margin - x,
      height: Math.max(boxA.y + boxA.height, boxB.y + boxB.height) + margin - y,
    };
    const d = changed(a, b, region);
    expect(d.inside).toBeGreaterThan(200);
    expect(d.outside / d.outsideTotal).toBeLessThan(1e-3);
    await kron('showInfo(true)');
  });

  it('playing advances time; pause stops the motion', async () => {
    await kron('seek(0.5)');
    await kron('play()');
    await waitFor('window.kron.state().time > 0.7', 'playback to advance 0.2 s');
    await kron('pause()');
    const t = (await state()).time;
    const a = await shot(page.locator('#scene'), 'paused-a.png');
    await page.waitForTimeout(400);
    const b = await shot(page.locator('#scene'), 'paused-b.png');
    expect((await state()).time).toBe(t);
    expect(Buffer.compare(a.data, b.data)).toBe(0);
  });

  it('the plot shows the chosen signals, and choosing another adds its series', async () => {
    const s = await state();
    // by default the joint coordinates (signals named *.q), up to four; else the first two signals
    const names = Object.keys(run.signals);
    const q = names.filter((n) => n.endsWith('.q'));
    expect(s.plot.series).toEqual(q.length ? q.slice(0, 4) : names.slice(0, 2));
    expect(s.plot.points).toEqual(s.plot.series.map(() => run.time.length));
    const plot = await shot(page.locator('#plot canvas'), 'plot.png');
    // the first two series' stroke colours (viewer/page/plot.ts)
    expect(pixelsNear(plot, '#2e86de')).toBeGreaterThan(100);
    if (s.plot.series.length > 1) expect(pixelsNear(plot, '#e67e22')).toBeGreaterThan(100);
    const extra = Object.keys(run.signals).find((n) => !s.plot.series.includes(n))!;
    await page.locator('#signal-picker summary').click();
    await page.locator(`#signal-list input[value="${extra}"]`).check();
    expect([...(await state()).plot.series].sort()).toEqual([...s.plot.series, extra].sort());
  });

  it('keys: space, arrows, backspace, frames, help', async () => {
    await kron('seek(1)');
    await page.keyboard.press('ArrowRight');
    expect((await state()).time).toBeCloseTo(1.01, 12);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect((await state()).time).toBeCloseTo(0.99, 12);
    await page.keyboard.press('Space');
    expect((await state()).playing).toBe(true);
    await page.keyboard.press('Space');
    expect((await state()).playing).toBe(false);
    await page.keyboard.press('Backspace');
    expect((await state()).time).toBe(0);
    await page.keyboard.press('ArrowUp');
    expect((await state()).speed).toBe(2);
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowDown');
    expect((await state()).speed).toBe(0.1);
    await kron('setSpeed(1)');
    await page.keyboard.press('x');
    expect(await page.locator('#show-frames').isChecked()).toBe(true);
    await page.keyboard.press('x');
    await page.keyboard.press('?');
    expect(await page.locator('#help').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.locator('#help').isVisible()).toBe(false);
  });

  it('the PNG button saves the canvas as it is drawn', async () => {
    await kron('seek(0.3)');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: WAIT }), page.locator('#screenshot').click()]);
    const file = join(ARTIFACTS, 'button.png');
    await download.saveAs(file);
    const png = PNG.sync.read(readFileSync(file));
    const box = (await page.locator('#scene').boundingBox())!;
    expect([png.width, png.height]).toEqual([Math.round(box.width), Math.round(box.height)]);
    expect(variance(png)).toBeGreaterThan(30);
  });

  it('the record button saves a WebM video of the view', async () => {
    await kron('play()');
    // recorded for 20 drawn frames, not for a span of wall time: a loaded machine draws few
    // frames in 600 ms, and the video came out empty. The download follows the stop; it waits
    // as long as the test may (no guess of its own)
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 0 }),
      (async () => {
        await page.locator('#record').click();
        await page.evaluate(
          () =>
            new Promise<void>((done) => {
              let frames = 0;
              const tick = () => (++frames >= 20 ? done() : requestAnimationFrame(tick));
              requestAnimationFrame(tick);
            }),
        );
        await page.locator('#record').click();
      })(),
    ]);
    await kron('pause()');
    const file = join(ARTIFACTS, 'recording.webm');
    await download.saveAs(file);
    const video = readFileSync(file);
    expect(video.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // the EBML magic of WebM
    expect(video.length).toBeGreaterThan(1000);
  });

  it('live mode compiles and simulates the mechanism in the page, with the same compile report as node', async () => {
    const name = basename(MECHANISM, '.ts');
    expect((await state()).liveMechanisms).toContain(name);
    await kron(`live(${JSON.stringify(name)}, 'relaxed', 1)`);
    const s = await state();
    expect(s.model).toBe(run.model);
    expect(s.duration).toBeCloseTo(1, 9);
    const { model } = await loadModel(MECHANISM, {});
    const report = compile(model, { mode: 'relaxed' }).report;
    const summary = await page.locator('#report-summary').innerText();
    expect(summary).toMatch(new RegExp(`mode\\s+relaxed`));
    expect(summary).toMatch(new RegExp(`equations\\s+${report.equations}\\b`));
    expect(summary).toMatch(new RegExp(`unknowns\\s+${report.unknowns}\\b`));
    await kron('seek(0.5)');
    await shot(page, `live-${name}.png`);
    expect(errors).toEqual([]);
  });
});

/** a web app's page: a pendulum built, compiled, recorded and mounted with kron/browser alone */
const APP = `
import { Mechanism, compile, simulatePlayback, mountViewer } from 'kron/browser';
const m = new Mechanism('pendulum');
const j1 = m.revolute('j1', { axis: [0, 0, 1], q: 0.3 });
const link = m.body('link', { m: 1, rcm: [0.5, 0, 0], I: [0.001, 0.01, 0.01] });
m.connect(m.world.frame_b, j1.frame_a);
m.connect(j1.frame_b, link.frame_a);
const compiled = compile(m);
const { result, playback } = simulatePlayback(m, compiled, { stop: 2, step: 1e-3, interval: 0.01 });
window.viewer = mountViewer(document.getElementById('app'), { model: 'pendulum', ...result.toJSON(), ...playback }, { autoplay: false });
`;

async function bundleApp(): Promise<string> {
  const entry: Plugin = {
    name: 'kron-browser',
    setup: (b) => void b.onResolve({ filter: /^kron\/browser$/ }, () => ({ path: new URL('../../viewer/browser.ts', import.meta.url).pathname })),
  };
  const out = await build({
    stdin: { contents: APP, loader: 'js', resolveDir: ARTIFACTS },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    plugins: [entry],
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

(RUN ? describe : notRun)('viewer component (mountViewer of kron/browser) on a page of its own', () => {
  it('draws the run in the given element, and seeking moves the mechanism', async () => {
    const app = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const appErrors: string[] = [];
    app.on('pageerror', (e) => appErrors.push(e.message));
    try {
      const js = await bundleApp();
      // no Node module specifier ('node:fs', ...); the text "node:" alone occurs in three's Collada loader's messages
      expect(js).not.toMatch(/["'`]node:[a-z_/]+["'`]/);
      await app.setContent(`<!doctype html><body style="margin:0"><div id="app" style="width:640px;height:480px"></div></body>`);
      await app.addScriptTag({ content: js, type: 'module' });
      await app.waitForFunction('window.viewer && window.viewer.duration > 0', null, { timeout: WAIT });
      expect(await app.evaluate('window.viewer.duration')).toBeCloseTo(2, 9);
      await app.evaluate('window.viewer.seek(0)');
      await app.waitForTimeout(100);
      const a = PNG.sync.read(await app.locator('#app canvas').screenshot());
      expect([a.width, a.height]).toEqual([640, 480]);
      expect(variance(a)).toBeGreaterThan(30);
      await app.evaluate('window.viewer.seek(0.6)');
      await app.waitForTimeout(100);
      const b = PNG.sync.read(await app.locator('#app canvas').screenshot());
      const moved = changed(a, b, { x: 0, y: 0, width: a.width, height: a.height }).inside;
      expect(moved).toBeGreaterThan(200);
      await app.evaluate('window.viewer.dispose()');
      expect(await app.locator('#app canvas').count()).toBe(0);
      expect(appErrors).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
