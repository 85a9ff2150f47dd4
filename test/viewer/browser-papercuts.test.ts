// The viewer papercuts a new user met (issue 34), each checked in a real
// browser: the parameters panel shows the loaded model's parameters, not the
// selector's first model's; the timeline spans the view at 1280 x 800 and
// 800 x 600; many missing-mesh notes fold under one line and close; a body
// without a shape hangs its inertia box on a rod from its joint. Screenshots
// go to test-artifacts/viewer-papercuts/. Without /usr/bin/chromium the suite
// is replaced by one test that says so loudly (CI=true: a missing browser
// fails it), as test/viewer/browser.test.ts does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, notRunner, WAIT } from './chromium.ts';
import { viewerPages } from './pages.ts';
import { parameters as fourbarParameters } from '../../mechanisms/fourbar.ts';

const ARTIFACTS = new URL('../../test-artifacts/viewer-papercuts/', import.meta.url).pathname;
const SUITE = 'viewer papercuts in Chromium (parameters of the loaded model, timeline width, notes, rods to inertia boxes)';
const notRun = notRunner('test/viewer/browser-papercuts.test.ts');
const { dir, errors, simulateRun, open, ...pages } = viewerPages('kron-viewer-papercuts-');

const state = (page: Page) => page.evaluate('window.kron.state()') as Promise<{ notes: string[] }>;
const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

let fourbar: string;

beforeAll(async () => {
  if (!RUN) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  fourbar = (await simulateRun('mechanisms/fourbar.ts', 'fourbar', 0.5)).file;
  await pages.launch();
});

afterAll(() => pages.close());

/** a URDF table with n links whose meshes are nowhere: n notes */
function lostMeshesUrdf(n: number): string {
  const links = Array.from(
    { length: n },
    (_, k) => `<link name="lost${k}"><visual><geometry><mesh filename="package://bench/meshes/lost${k}.stl"/></geometry></visual></link>
  <joint name="fix${k}" type="fixed"><parent link="table"/><child link="lost${k}"/><origin xyz="${0.2 * k} 0 0"/></joint>`,
  );
  return `<robot name="lost">
  <link name="table"><visual><geometry><box size="1 1 0.02"/></geometry></visual></link>
  ${links.join('\n  ')}
</robot>`;
}

/** a pendulum whose body has no shape: its centre of mass 0.5 m from the joint along x, a small inertia */
const BARE_PENDULUM = `import { Mechanism } from 'kron';
export default function build() {
  const m = new Mechanism('bare');
  const j1 = m.revolute('j1', { axis: [0, 0, 1], q: 0 });
  const b = m.body('b', { m: 1, rcm: [0.5, 0, 0], I: [0.001, 0.001, 0.001] });
  m.connect(m.world.frame_b, j1.frame_a);
  m.connect(j1.frame_b, b.frame_a);
  return m;
}
`;

(RUN ? describe : notRun)(SUITE, () => {
  it("the parameters panel shows the loaded four-bar's parameters, not the selector's first model's", async () => {
    const page = await open(fourbar);
    await page.locator('#params-panel summary').click();
    expect(await page.locator('#params-note').textContent()).toBe("fourbar's parameters: compile & run builds the model with these values");
    const fields = await page.locator('#param-fields input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).dataset.parameter));
    const numeric = Object.entries(fourbarParameters)
      .filter(([, v]) => typeof v === 'number')
      .map(([k]) => k);
    expect(fields).toEqual(numeric);
    await page.close();
  });

  it('the timeline spans the view at 1280 x 800 and at 800 x 600; the buttons stay on one line below it', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 800, height: 600 },
    ]) {
      const page = await open(fourbar, viewport);
      const stage = await box(page, '#stage'),
        controls = await box(page, '#controls'),
        timeline = await box(page, '#timeline');
      // it was 68 px at 1280 x 800, squeezed between the buttons
      expect(timeline.width, `${viewport.width}`).toBeGreaterThan(0.9 * stage.width);
      const play = await box(page, '#play');
      expect(play.y, 'the buttons below the timeline').toBeGreaterThanOrEqual(timeline.y + timeline.height - 1);
      for (const id of ['reset', 'step-back', 'step-forward', 'clock', 'speed', 'loop', 'show-frames', 'show-axes', 'fit', 'screenshot', 'record']) {
        const b = await box(page, `#${id}`);
        expect(Math.abs(b.y + b.height / 2 - (play.y + play.height / 2)), `${id} on the buttons' line`).toBeLessThan(6);
        expect(b.x + b.width, id).toBeLessThanOrEqual(controls.x + controls.width);
      }
      await page.screenshot({ path: join(ARTIFACTS, `controls-${viewport.width}x${viewport.height}.png`) });
      await page.close();
    }
  });

  it('eight missing meshes fold under one line that unfolds, and the notes close', async () => {
    mkdirSync(join(dir, 'bench', 'urdf'), { recursive: true });
    const urdf = join(dir, 'bench', 'urdf', 'lost.urdf');
    writeFileSync(urdf, lostMeshesUrdf(8));
    const page = await open((await simulateRun(urdf, 'lost', 0.1)).file);
    await page.waitForFunction('window.kron.state().notes.length === 8', null, { timeout: WAIT });
    const view = await box(page, '#viewport');
    const notes = page.locator('#notes-box');
    expect(await notes.isVisible()).toBe(true);
    expect(await page.locator('#notes').isVisible()).toBe(false);
    expect(await page.locator('#notes-box summary').textContent()).toMatch(/^8 notes on this view: mesh package:\/\/bench\/meshes\/lost0\.stl/);
    // folded, the box is one line, not a third of the view
    expect((await box(page, '#notes-box')).height).toBeLessThan(0.1 * view.height);
    await page.screenshot({ path: join(ARTIFACTS, 'notes-folded.png') });
    await page.locator('#notes-box summary').click();
    expect(await page.locator('#notes li').count()).toBe(8);
    expect(await page.locator('#notes').isVisible()).toBe(true);
    // unfolded it scrolls within 30% of the view
    expect((await box(page, '#notes-box')).height).toBeLessThanOrEqual(0.3 * view.height + 1);
    await page.locator('#notes-box button.close').click();
    expect(await notes.isVisible()).toBe(false);
    expect((await state(page)).notes).toHaveLength(8); // closed, not forgotten
    await page.close();
  });

  it('a body without a shape: a rod from its joint to its inertia box at the centre of mass', async () => {
    const module = join(dir, 'bare.ts');
    writeFileSync(module, BARE_PENDULUM);
    const { file, run } = await simulateRun(module, 'bare', 0.1);
    const page = await open(file);
    await page.evaluate('window.kron.seek(0)');
    await page.waitForTimeout(200);
    const png = PNG.sync.read(await page.locator('#scene').screenshot({ path: join(ARTIFACTS, 'bare-body.png') }));
    const frame = run.scene!.shapes.find((s) => s.name === 'b')!.frame;
    const colour = async (local: number[]) => {
      const p = (await page.evaluate(`window.kron.pointOnScreen(${frame}, ${JSON.stringify(local)})`)) as { x: number; y: number };
      const i = (Math.round(p.y) * png.width + Math.round(p.x)) * 4;
      return [png.data[i], png.data[i + 1], png.data[i + 2]];
    };
    // along the rod: the links' blue grey (#8395a7 shaded), not the light background
    for (const s of [0.2, 0.35]) {
      const [r, g, b] = await colour([s, 0, 0]);
      expect(b - r, `rod at x = ${s}: rgb ${r} ${g} ${b}`).toBeGreaterThan(10);
      expect(Math.max(r, g, b), `rod at x = ${s}: rgb ${r} ${g} ${b}`).toBeLessThan(215);
    }
    // at the centre of mass: the body's orange box
    const [r, g, b] = await colour([0.5, 0, 0]);
    expect(r - b, `box: rgb ${r} ${g} ${b}`).toBeGreaterThan(60);
    await page.close();
    expect(errors).toEqual([]);
  });
});
