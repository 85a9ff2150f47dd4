// The viewer's plots and info overlay in a real browser (Debian's Chromium
// through playwright-core): the legend shows the values at the playhead
// after the chosen signals change; a signal the run did not record, computed
// in the page by replaying the recorded states through the compiled model,
// equals the same signal recorded by simulate() in node; the info overlay's
// energy equals node's to 1e-9. Screenshots go to test-artifacts/viewer-plots/.
// Without /usr/bin/chromium the suite is replaced by one test that says so
// loudly (CI=true: a missing browser fails it), as browser.test.ts does.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, notRunner, WAIT } from './chromium.ts';
import { viewerPages } from './pages.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { compile } from '../../src/compile.ts';
import type { Model } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/simulate.ts';
import fourbarModule from '../../mechanisms/fourbar.ts';
import type { InfoState } from '../../viewer/page/info.ts';

const ARTIFACTS = new URL('../../test-artifacts/viewer-plots/', import.meta.url).pathname;
const SUITE = 'viewer plots in Chromium (legend at the playhead, every variable, info overlay)';

const notRun = notRunner('test/viewer/browser-plots.test.ts');

const { dir, errors, simulateRun, open, ...pages } = viewerPages('kron-viewer-plots-');
let fourbar: { file: string; run: PlaybackRun };

/** the legend's values as the page shows them, by series label */
async function legend(page: Page): Promise<Record<string, number>> {
  await page.waitForTimeout(100); // uPlot draws the legend on its next frame
  const rows = await page
    .locator('#plot .u-legend .u-series')
    .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('.u-label')?.textContent ?? '', tr.querySelector('.u-value')?.textContent ?? '']));
  return Object.fromEntries(rows.map(([label, value]) => [label, Number(value)]));
}

beforeAll(async () => {
  if (!RUN) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  fourbar = await simulateRun('mechanisms/fourbar.ts', 'fourbar', 2);
  await pages.launch();
});

afterAll(() => pages.close());

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

  it('a signal the run did not record is computed in the page and equals the one simulate() records in node', async () => {
    const page = await open(fourbar.file);
    const force = 'j2.frame_b.f[2]',
      position = 'b3.bar.frame_b.r[2]';
    expect(fourbar.run.signals[force]).toBeUndefined();
    // node: the same run recording them (kron simulate's defaults: step 1e-3)
    const compiled = compile(fourbarModule({}) as Model, { mode: 'torn' });
    const reference = simulate(compiled, { stop: 2, step: 1e-3, interval: 0.01, signals: [...compiled.stateNames, force, position] });
    await page.locator('#signal-picker summary').click();
    await page.waitForFunction("document.querySelector('#variables-note').textContent.includes('variables of the model')", null, { timeout: WAIT });
    await page.locator('#signal-search').fill('j2 frame_b f');
    await page.locator(`#variable-groups input[value="${force}"]`).check();
    // the model tree lists every signal of a part too, with its value at the playhead
    await page.evaluate("window.kron.select('j2')");
    expect(await page.locator('#part-info').innerText()).toMatch(/signals \(\d\d+\)[\s\S]*frame_b\.f\[2\]\s+-?\d/);
    // a second plot below, sharing the time axis
    await page.locator('#add-plot').click();
    await page.locator('#signal-search').fill('b3 bar frame_b r');
    await page.locator(`#variable-groups input[value="${position}"]`).check();
    const s = (await page.evaluate('window.kron.state()')) as { plot: { series: string[]; plots: string[][]; axes: string[][] } };
    expect(s.plot.plots).toEqual([['j1.q', force], [position]]);
    // the y axes carry units: rad and N on the first plot, m on the second
    expect(s.plot.axes).toEqual([['rad', 'N'], ['m']]);
    for (const name of [force, position]) {
      const shown = (await page.evaluate(`window.kron.plotted(${JSON.stringify(name)})`)) as number[];
      const expected = reference.get(name);
      const scale = Math.max(...Array.from(expected, Math.abs));
      expect(shown.length).toBe(expected.length);
      const worst = Math.max(...shown.map((v, k) => Math.abs(v - expected[k])));
      expect(worst / scale, name).toBeLessThan(1e-9);
    }
    // angles wrapped to (-pi, pi] at the user's choice
    await page.locator('#wrap-angles').check();
    const wrapped = (await page.evaluate("window.kron.plotted('j1.q')")) as number[];
    expect(Math.max(...wrapped)).toBeLessThanOrEqual(Math.PI);
    expect(Math.min(...wrapped)).toBeGreaterThan(-Math.PI);
    expect(Math.max(...fourbar.run.signals['j1.q'])).toBeGreaterThan(2 * Math.PI);
    // CSV of what is plotted, as drawn
    const csv = ((await page.evaluate('window.kron.csv()')) as string).trim().split('\n');
    expect(csv[0]).toBe(`time,j1.q,${force},${position}`);
    expect(csv.length).toBe(fourbar.run.time.length + 1);
    expect(Number(csv[150].split(',')[1])).toBeCloseTo(wrapped[149], 12);
    // the CSV button saves the same text
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-csv').click()]);
    const saved = join(dir, 'plotted.csv');
    await download.saveAs(saved);
    expect(download.suggestedFilename()).toBe('fourbar-signals.csv');
    expect(readFileSync(saved, 'utf8').trim().split('\n')).toEqual(csv);
    // a signal clicked in the model tree goes to the current plot (the second, last clicked)
    await page.evaluate("window.kron.select('j1')");
    await page.locator('#part-info tr', { hasText: 'tau' }).first().click();
    expect(((await page.evaluate('window.kron.state()')) as { plot: { plots: string[][] } }).plot.plots[1]).toEqual([position, 'j1.tau']);
    await page.evaluate('window.kron.seek(1.37)');
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(ARTIFACTS, 'every-variable.png') });
    await page.close();
  });

  it('the info overlay: its energy equals the energy computed in node to 1e-9 at the playhead; time, real-time factor, integrator, live costs', async () => {
    const page = await open(fourbar.file);
    const energy = ['energy.kinetic', 'energy.potential', 'energy.total'];
    expect(fourbar.run.signals['energy.total']).toBeUndefined(); // not recorded: the page replays the run for it
    const compiled = compile(fourbarModule({}) as Model, { mode: 'torn' });
    const reference = simulate(compiled, { stop: 2, step: 1e-3, interval: 0.01, signals: energy });
    const k = 158;
    await page.evaluate(`window.kron.seek(${fourbar.run.time[k]})`);
    await page.waitForFunction('window.kron.state().info.energy !== undefined', null, { timeout: WAIT });
    const info = ((await page.evaluate('window.kron.state()')) as { info: InfoState }).info;
    const [kinetic, potential, total] = energy.map((n) => reference.get(n)[k]);
    for (const [shown, expected] of [
      [info.energy!.kinetic, kinetic],
      [info.energy!.potential, potential],
      [info.energy!.total, total],
    ]) {
      expect(Math.abs(shown - expected) / Math.abs(total)).toBeLessThan(1e-9);
    }
    expect(Math.abs(info.energy!.drift - (total - reference.get('energy.total')[0]))).toBeLessThan(1e-9 * Math.abs(total));
    expect(info.time).toBe(fourbar.run.time[k]);
    expect(info.integration).toBe('RK4, h = 0.001 s');
    const text = await page.locator('#info').innerText();
    expect(text).toContain(`${total.toFixed(4)} J`);
    expect(text).toContain('paused');
    await page.screenshot({ path: join(ARTIFACTS, 'info-overlay.png') });
    // playing: the real-time factor is measured (about the speed, 1x, on a fast enough machine)
    await page.evaluate('window.kron.play()');
    await page.waitForTimeout(800);
    const playing = ((await page.evaluate('window.kron.state()')) as { info: InfoState }).info;
    expect(playing.realTimeFactor).toBeGreaterThan(0.2);
    expect(playing.realTimeFactor).toBeLessThan(1.5);
    // 'i' hides it
    await page.locator('#scene').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('i');
    expect(await page.locator('#info').isVisible()).toBe(false);
    // live: the compile time and the µs of one evaluation of the derivatives, measured in the page;
    // a new run takes its own signals, one plot (the four-bar's second plot and j2's force go)
    await page.keyboard.press('i');
    await page.evaluate("window.kron.plot('j2.frame_b.f[2]')");
    await page.locator('#add-plot').click();
    await page.evaluate("window.kron.plot('j1.qd')");
    await page.evaluate("window.kron.live('pendulum', 'torn', 1)");
    await page.evaluate('window.kron.pause(); window.kron.seek(0.5)');
    await page.waitForFunction('window.kron.state().info.energy !== undefined', null, { timeout: WAIT });
    const live = ((await page.evaluate('window.kron.state()')) as { info: InfoState }).info;
    expect(live.live!.compileMs).toBeGreaterThan(0);
    expect(live.live!.evaluationUs).toBeGreaterThan(0);
    expect(live.live!.evaluationUs).toBeLessThan(1000);
    expect(Math.abs(live.energy!.drift)).toBeLessThan(1e-8);
    expect(((await page.evaluate('window.kron.state()')) as { plot: { plots: string[][] } }).plot.plots).toEqual([['j1.q']]);
    await page.screenshot({ path: join(ARTIFACTS, 'info-live.png') });
    await page.close();
    expect(errors).toEqual([]);
  });
});
