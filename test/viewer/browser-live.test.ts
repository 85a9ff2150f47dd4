// Live mode in a real browser (Debian's Chromium through playwright-core): a
// model module written into the served mechanisms folder after the server
// started is listed by the selector's reload and compiles in the page; run
// live integrates the model in real time with its inputs from sliders: a
// slider moved during the run changes the motion, and an input set before
// the start gives the states simulate() gives in node with that input; a
// parameter of the model module changed in the page changes the run, which
// equals simulate() of the module built with that value, and the page shows
// 'compiling…' before it compiles, in the compile worker.
// Screenshots go to test-artifacts/viewer-live/. Without /usr/bin/chromium the
// suite is replaced by one test that says so loudly (CI=true: a missing
// browser fails it), as browser.test.ts does.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, launchChromium, notRunner, WAIT } from './chromium.ts';
import { type ViewerServer, serveViewer } from '../../src/cli/view.ts';
import { compile } from '../../src/compile.ts';
import type { Model } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { simulatePlayback } from '../../src/io/playback.ts';
import pendulum from '../../mechanisms/pendulum.ts';
import type { RealTimeState } from '../../viewer/page/realtime-panel.ts';

const ARTIFACTS = new URL('../../test-artifacts/viewer-live/', import.meta.url).pathname;
const SUITE = 'viewer live mode in Chromium (new model files, input sliders)';

const notRun = notRunner('test/viewer/browser-live.test.ts');

// a served mechanisms folder of our own: the test adds files to it, never to mechanisms/
const dir = mkdtempSync(join(tmpdir(), 'kron-viewer-live-'));
let browser: Browser;
const servers: ViewerServer[] = [];
const errors: string[] = [];

async function open(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const server = await serveViewer({ port: 0, mechanisms: dir });
  servers.push(server);
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url, { timeout: WAIT });
  await page.waitForFunction('window.kron && window.kron.ready', null, { timeout: WAIT });
  await page.evaluate('window.kron.ready');
  return page;
}

type State = { model?: string; samples: number; liveMechanisms: string[]; selectedMechanism: string; realtime: RealTimeState };
const state = (page: Page) => page.evaluate('window.kron.state()') as Promise<State>;

beforeAll(async () => {
  if (!RUN) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  copyFileSync('mechanisms/pendulum.ts', join(dir, 'pendulum.ts'));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

(RUN ? describe : notRun)(SUITE, () => {
  it('a model file added after the server started is listed on reload and compiles in the page', async () => {
    const page = await open();
    expect((await state(page)).liveMechanisms).toEqual(['pendulum']);
    copyFileSync('mechanisms/doublependulum.ts', join(dir, 'added.ts'));
    await page.locator('#live-reload').click();
    await page.waitForFunction("window.kron.state().liveMechanisms.includes('added')", null, { timeout: WAIT });
    expect((await state(page)).liveMechanisms).toEqual(['added', 'pendulum']);
    await page.selectOption('#live-mechanism', 'added');
    await page.locator('#live-run').click();
    await page.waitForFunction("/^live: added/.test(document.querySelector('#status').textContent)", null, { timeout: WAIT });
    const s = await state(page);
    expect(s.samples).toBeGreaterThan(100);
    expect(s.selectedMechanism).toBe('added');
    await page.screenshot({ path: join(ARTIFACTS, 'added-model.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('run live: a slider moves the live motion; an input set before the start matches simulate() in node', async () => {
    const page = await open();
    await page.evaluate("window.kron.live('pendulum', 'torn', 1)");
    await page.locator('#realtime-panel summary').click();
    const slider = page.locator('#input-sliders input[data-input="j1.tau"]');
    expect(await slider.count()).toBe(1);
    /**
     * a live run held still at t = 1 s; `during`: what to do at t = 0.5 s, where the run is held
     * still meanwhile and then resumed (not raced: on a loaded machine the run reached 1 s while
     * Playwright was still filling the slider, and the torque came too late to move it)
     */
    const runTo1 = async (during?: () => Promise<void>): Promise<RealTimeState> => {
      await page.evaluate(`window.kron.realtime.start(${during ? 0.5 : 1})`);
      if (during) {
        await page.waitForFunction('window.kron.state().realtime.time >= 0.5', null, { timeout: WAIT });
        await during();
        await page.evaluate('window.kron.realtime.resume(1)');
      }
      await page.waitForFunction('window.kron.state().realtime.time >= 1', null, { timeout: WAIT });
      return (await state(page)).realtime;
    };
    await slider.fill('0');
    const free = await runTo1();
    expect(free.running).toBe(true);
    expect(free.time).toBe(1);
    // the info overlay follows the live run: its time, and its energy conserved without input (RK4 at 1 ms)
    const overlay = (await page.evaluate('window.kron.state().info')) as { time: number; energy?: { total: number; drift: number } };
    expect(overlay.time).toBe(1);
    expect(Math.abs(overlay.energy!.drift)).toBeLessThan(1e-6);
    // the slider moved while the pendulum swings (from t = 0.5 s on)
    const moved = await runTo1(() => slider.fill('4'));
    expect(moved.inputs['j1.tau']).toBe(4);
    expect(Math.abs(moved.states['j1.q'] - free.states['j1.q'])).toBeGreaterThan(0.05);
    // the torque did work: the total energy changed
    const pushed = (await page.evaluate('window.kron.state().info')) as { energy?: { drift: number } };
    expect(Math.abs(pushed.energy!.drift)).toBeGreaterThan(0.01);
    await page.screenshot({ path: join(ARTIFACTS, 'run-live-slider.png') });
    // set before the start: simulate() with the same constant input, in node
    await slider.fill('2.5');
    const set = await runTo1();
    const compiled = compile(pendulum({}) as Model, { mode: 'torn' });
    const reference = simulate(compiled, { stop: 1, step: 1e-3, inputs: { 'j1.tau': 2.5 } });
    for (const name of compiled.stateNames) {
      const column = reference.get(name);
      expect(set.states[name], name).toBeCloseTo(column[column.length - 1], 6);
    }
    // zero input: the free swing simulate() gives too
    const zero = simulate(compiled, { stop: 1, step: 1e-3 }).get('j1.q');
    expect(Math.abs(free.states['j1.q'] - zero[zero.length - 1])).toBeLessThan(1e-6);
    // play returns to the recorded run
    await page.evaluate('window.kron.play()');
    expect((await state(page)).realtime.running).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a parameter of the model module changed in the page changes the run; compile & run says compiling first', async () => {
    const page = await open();
    await page.evaluate("window.kron.live('pendulum', 'torn', 1)");
    const before = (await page.evaluate("window.kron.plotted('j1.q')")) as number[];
    await page.locator('#params-panel summary').click();
    await page.locator('#param-fields input[data-parameter="L"]').fill('0.8');
    // every status the page shows, in order: the 'compiling…' one must come before the result
    await page.evaluate(`window.__statuses = [];
      new MutationObserver(() => window.__statuses.push(document.querySelector('#status').textContent))
        .observe(document.querySelector('#status'), { childList: true, characterData: true, subtree: true })`);
    await page.locator('#live-stop').fill('1');
    await page.locator('#live-run').click();
    await page.waitForFunction("/^live: pendulum, torn, L = 0.8/.test(document.querySelector('#status').textContent)", null, { timeout: WAIT });
    const statuses = (await page.evaluate('window.__statuses')) as string[];
    expect(statuses[0]).toMatch(/^compiling pendulum \(torn\) with L = 0.8/);
    const after = (await page.evaluate("window.kron.plotted('j1.q')")) as number[];
    // node: the module's model built with L = 0.8, recorded as live mode records it
    const model = pendulum({ L: 0.8 }) as Model;
    const compiled = compile(model, { mode: 'torn' });
    const { result } = simulatePlayback(model, compiled, { stop: 1, step: 1e-3, interval: 0.01 });
    const reference = result.get('j1.q');
    expect(after.length).toBe(reference.length);
    after.forEach((q, k) => expect(Math.abs(q - reference[k]), `sample ${k}`).toBeLessThan(1e-9));
    expect(Math.abs(after[after.length - 1] - before[before.length - 1])).toBeGreaterThan(0.05);
    expect(await page.locator('#report').innerText()).toMatch(/parameters \(live\)\s+L = 0.8/);
    // compiled and simulated in the compile worker, not on the page's thread
    expect(await page.locator('#report').innerText()).toMatch(/simulation time \(live\)\s+\d+ ms for 1 s \(in a worker\)/);
    await page.screenshot({ path: join(ARTIFACTS, 'parameter-changed.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the page keeps drawing while a larger model compiles and simulates (in the worker)', async () => {
    copyFileSync('mechanisms/humanoid.ts', join(dir, 'humanoid.ts'));
    const page = await open();
    // the animation frames drawn while the humanoid compiles and simulates 1 s
    const out = (await page.evaluate(`(async () => {
      let frames = 0, on = true;
      const tick = () => { frames++; if (on) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
      await window.kron.live('humanoid', 'torn', 1);
      on = false;
      return { frames, status: document.querySelector('#status').textContent };
    })()`)) as { frames: number; status: string };
    expect(out.status).toBe('live: humanoid, torn');
    // a compile on the page's thread would hold every frame until it ends: frames drawn while it ran
    // say the page was free (counted, not timed: a loaded machine stretches the gaps, not the count)
    expect(out.frames).toBeGreaterThan(5);
    expect(errors).toEqual([]);
    await page.close();
  });
});
