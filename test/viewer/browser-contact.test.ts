// Contact forces in the viewer (issue 32), in a real browser: the sphere at
// rest on the plane (kron simulate --contact, v0 = 0) shows one magenta
// arrow at its contact point pointing up (against gravity, -y), its length a
// quarter of the mechanism's size for the run's largest force, which is the
// ball's weight m g = 9.81 N; on screen its pixels lie above the contact
// point, and go when the arrows are toggled off (key c, the checkbox). A run
// without contact has no arrows. The info overlay shows the sliding sphere's
// energy and the work friction took, against the closed form. Screenshots go to test-artifacts/viewer-contact/.
// Without /usr/bin/chromium the suite is replaced by one test that says so
// loudly (CI=true: a missing browser fails it), as test/viewer/browser.test.ts does.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InfoState } from '../../viewer/page/info.ts';
import { RUN, notRunner } from './chromium.ts';
import { changed } from './pixels.ts';
import { viewerPages } from './pages.ts';

const ARTIFACTS = new URL('../../test-artifacts/viewer-contact/', import.meta.url).pathname;
const SUITE = 'contact force arrows in Chromium (the sphere resting on the plane)';
const notRun = notRunner('test/viewer/browser-contact.test.ts');
const { errors, simulateRun, open, ...pages } = viewerPages('kron-viewer-contact-');
const PAIR = 'world.ground__ball.collision1';
/** the arrows' colour (viewer/page/contact-arrows.ts ARROW_COLOR, #e000e0) */
const MAGENTA = [0xe0, 0x00, 0xe0];

interface Arrows {
  count: number;
  visible: boolean;
  scale: number;
  largest: number;
  arrows: { pair: string; shown: boolean; from: number[]; to: number[] }[];
}
const contacts = async (page: Page) => ((await page.evaluate('window.kron.state()')) as { contacts: Arrows }).contacts;
type Point = { x: number; y: number };
const onScreen = (page: Page, world: number[]) => page.evaluate(`window.kron.worldOnScreen(${JSON.stringify(world)})`) as Promise<Point>;

/** the magenta pixels of the canvas, within a box (CSS pixels; the page's pixel ratio is 1) */
function magenta(png: PNG, box: { x0: number; x1: number; y0: number; y1: number }): Point[] {
  const found: Point[] = [];
  for (let y = Math.max(0, Math.floor(box.y0)); y < Math.min(png.height, Math.ceil(box.y1)); y++) {
    for (let x = Math.max(0, Math.floor(box.x0)); x < Math.min(png.width, Math.ceil(box.x1)); x++) {
      const i = (y * png.width + x) * 4;
      if (MAGENTA.every((c, k) => Math.abs(png.data[i + k] - c) < 40)) found.push({ x, y });
    }
  }
  return found;
}

let sphere: string, sliding: string, fourbar: string;

beforeAll(async () => {
  if (!RUN) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  // at rest: launched with no speed, started at its static penetration m g / k; RK4 at a step it is stable at
  sphere = (await simulateRun('mechanisms/sphere-on-plane.ts', 'sphere-rest', 0.2, ['--contact', '--set', 'v0=0', '--step', '1e-5', '--integrator', 'rk4']))
    .file;
  // launched at v0 = 2 m/s: it slides until t = 2 v0 / (7 mu g) = 0.194 s
  sliding = (await simulateRun('mechanisms/sphere-on-plane.ts', 'sphere-sliding', 0.1, ['--contact', '--step', '1e-5', '--integrator', 'rk4'])).file;
  fourbar = (await simulateRun('mechanisms/fourbar.ts', 'fourbar', 0.1)).file;
  await pages.launch();
});

afterAll(() => pages.close());

(RUN ? describe : notRun)(SUITE, () => {
  it('the resting sphere: one arrow up from its contact point, a quarter of the size long, drawn above the point; c and the checkbox hide and show it', async () => {
    const page = await open(sphere);
    await page.evaluate('window.kron.seek(0.1)');
    const shown = await contacts(page);
    expect(shown).toMatchObject({ count: 1, visible: true });
    const [arrow] = shown.arrows;
    expect(arrow).toMatchObject({ pair: PAIR, shown: true });
    // the weight, m g, is the largest force of a run at rest
    expect(shown.largest).toBeCloseTo(9.81, 9);
    // the contact point: below the centre by the radius less the penetration m g / k (0.1 - 9.81e-6 above the start's r)
    expect(arrow.from[0]).toBeCloseTo(0, 9);
    expect(arrow.from[1]).toBeCloseTo(-9.81 / 1e6 / 2, 9);
    // straight up, scale * m g long
    const length = arrow.to[1] - arrow.from[1];
    expect(arrow.to[0] - arrow.from[0]).toBeCloseTo(0, 9);
    expect(length / (shown.scale * 9.81)).toBeCloseTo(1, 9);

    const foot = await onScreen(page, arrow.from),
      tip = await onScreen(page, arrow.to);
    expect(tip.y, 'the tip above the foot on screen').toBeLessThan(foot.y - 10);
    const around = { x0: Math.min(foot.x, tip.x) - 12, x1: Math.max(foot.x, tip.x) + 12, y0: tip.y - 4, y1: foot.y + 6 };
    const png = PNG.sync.read(await page.locator('#scene').screenshot({ path: join(ARTIFACTS, 'sphere-rest-arrow.png') }));
    const on = magenta(png, around);
    expect(on.length, 'magenta pixels between the contact point and the tip').toBeGreaterThan(30);
    // the head's pixels: in the upper part, above the contact point
    expect(on.filter((p) => p.y < foot.y - 0.5 * (foot.y - tip.y)).length, "the arrow's head above the point").toBeGreaterThan(10);
    expect(magenta(png, { x0: 0, x1: png.width, y0: 0, y1: png.height }).length, 'magenta nowhere else').toBeLessThan(on.length + 5);

    await page.keyboard.press('c');
    expect((await contacts(page)).visible).toBe(false);
    expect(await page.locator('#show-contacts').isChecked()).toBe(false);
    await page.waitForTimeout(100);
    const hidden = PNG.sync.read(await page.locator('#scene').screenshot({ path: join(ARTIFACTS, 'sphere-rest-hidden.png') }));
    expect(magenta(hidden, { x0: 0, x1: hidden.width, y0: 0, y1: hidden.height })).toHaveLength(0);

    await page.locator('#show-contacts').click();
    expect((await contacts(page)).visible).toBe(true);
    await page.waitForTimeout(100);
    const again = PNG.sync.read(await page.locator('#scene').screenshot());
    expect(magenta(again, around).length).toBe(on.length);
    // the scale in the info overlay: the largest force and its arrow's length
    expect(await page.locator('#info').textContent()).toContain(`contact arrows9.81 N per ${(shown.scale * 9.81).toPrecision(3)} m`);
    expect(await page.locator('#contacts-label').getAttribute('title')).toMatch(/^contact forces \(c\): .*9\.81 N, a typical force of the run .*draws/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("collision geometry: g and the checkbox show the ball's collider, a translucent green sphere over the drawn one, and hide it again", async () => {
    const page = await open(sphere);
    await page.evaluate('window.kron.seek(0.1)');
    const collision = async () => ((await page.evaluate('window.kron.state()')) as { collision: { count: number; shown: boolean } }).collision;
    const shot = async (file?: string) => PNG.sync.read(await page.locator('#scene').screenshot(file ? { path: join(ARTIFACTS, file) } : {}));
    expect(await collision()).toEqual({ count: 1, shown: false });
    expect(await page.locator('#collision-label').isVisible()).toBe(true);
    // a contact run's controls (with the contacts toggle) stay on one line at 1280 x 800: the last button beside the first
    const [reset, record] = await Promise.all(['#reset', '#record'].map((id) => page.locator(id).boundingBox()));
    expect(Math.abs(record!.y - reset!.y), 'the record button on the line of the reset button').toBeLessThan(3);
    const before = await shot();
    await page.keyboard.press('g');
    expect(await collision()).toEqual({ count: 1, shown: true });
    expect(await page.locator('#show-collision').isChecked()).toBe(true);
    await page.waitForTimeout(100);
    const shown = await shot('sphere-collision.png');
    // the ball on screen: its centre (at its rest height, r less m g / k) and its radius across the view (the longest of three)
    const centre = await onScreen(page, [0, 0.1, 0]);
    let r = 0;
    for (const edge of [
      [0.1, 0.1, 0],
      [0, 0.2, 0],
      [0, 0.1, 0.1],
    ]) {
      const p = await onScreen(page, edge);
      r = Math.max(r, Math.hypot(p.x - centre.x, p.y - centre.y));
    }
    const box = { x: centre.x - 1.25 * r, y: centre.y - 1.25 * r, width: 2.5 * r, height: 2.5 * r };
    const diff = changed(before, shown, box);
    expect(diff.inside, 'pixels of the ball that changed').toBeGreaterThan(0.5 * Math.PI * r * r);
    expect(diff.outside, 'pixels elsewhere that changed').toBeLessThan(0.02 * diff.inside);
    // greener where it changed: the mean of green less red over the ball's disk rises
    const greenness = (png: PNG) => {
      let sum = 0,
        n = 0;
      for (let y = Math.ceil(centre.y - 0.7 * r); y < centre.y + 0.7 * r; y++)
        for (let x = Math.ceil(centre.x - 0.7 * r); x < centre.x + 0.7 * r; x++) {
          const i = (y * png.width + x) * 4;
          sum += png.data[i + 1] - png.data[i];
          n++;
        }
      return sum / n;
    };
    expect(greenness(shown) - greenness(before)).toBeGreaterThan(30);

    await page.locator('#show-collision').click();
    expect(await collision()).toEqual({ count: 1, shown: false });
    await page.waitForTimeout(100);
    const hidden = changed(before, await shot(), box);
    expect(hidden.inside + hidden.outside, 'hidden again: the view as before').toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the sliding sphere: the arrow leans back against the motion by Coulomb's mu = 0.3 (|ft| / fn)", async () => {
    const page = await open(sliding);
    await page.evaluate('window.kron.seek(0.05)');
    const [arrow] = (await contacts(page)).arrows;
    const [dx, dy, dz] = arrow.to.map((x, i) => x - arrow.from[i]);
    // moving along +x: friction on the ball along -x, mu times the normal force (+y); the regularised
    // law (src/contact/law.ts) gives mu / sqrt(1 + (v_s / slip)^2), 2.3e-9 relative below mu at
    // v_s = 1e-4 m/s and the slip at 0.05 s, v - w r = (2 - mu g t) - 5/2 mu g t = 1.48 m/s
    expect(dx / dy).toBeCloseTo(-0.3, 7);
    expect(dz).toBeCloseTo(0, 9);
    await page.locator('#scene').screenshot({ path: join(ARTIFACTS, 'sphere-sliding-arrow.png') });

    // the energy overlay, from the run's energy signals (the page cannot replay contact): while it slides,
    // v = v0 - mu g t and friction's torque mu m g a, its arm a = r - d/2 from the centre to the middle of the
    // penetration d = m g / k, spins it up: w = mu m g a t / I, I = 2/5 m r^2. Friction took exactly the
    // kinetic energy's loss (the ball stays at its rest depth: no spring work, no change of height).
    const info = ((await page.evaluate('window.kron.state()')) as { info: InfoState }).info;
    const [m, g, mu, v0, r, k] = [1, 9.81, 0.3, 2, 0.1, 1e6];
    const t = info.time,
      I = (2 / 5) * m * r ** 2;
    const w = (mu * m * g * (r - (m * g) / k / 2) * t) / I;
    const kinetic = (m / 2) * (v0 - mu * g * t) ** 2 + (I / 2) * w ** 2;
    expect(t).toBeGreaterThan(0.04);
    expect(Math.abs(info.energy!.kinetic / kinetic - 1)).toBeLessThan(1e-7);
    expect(Math.abs(info.energy!.contactWork! / (kinetic - (m / 2) * v0 ** 2) - 1)).toBeLessThan(1e-7);
    expect(Math.abs(info.energy!.drift - info.energy!.contactWork!), 'drift less the contact work: the integrator alone').toBeLessThan(1e-9);
    expect(info.energyNote).toBe('');
    await page.screenshot({ path: join(ARTIFACTS, 'sphere-sliding-energy.png') });
    expect(await page.locator('#info').innerText()).toMatch(/contact work\s+-\d\.\d{4} J/);
    await page.close();
  });

  it('a run without contact draws no arrows and offers no collision toggle', async () => {
    const page = await open(fourbar);
    expect(await contacts(page)).toMatchObject({ count: 0, arrows: [] });
    expect(await page.locator('#collision-label').isHidden()).toBe(true);
    const png = PNG.sync.read(await page.locator('#scene').screenshot());
    expect(magenta(png, { x0: 0, x1: png.width, y0: 0, y1: png.height })).toHaveLength(0);
    await page.close();
  });
});
