// The viewer's scene in a real browser (Debian's Chromium through
// playwright-core, WebGL on SwiftShader), pixels and state: a URDF box with
// an rpy drawn rotated and its meshes loaded (a missing one noted), the
// model tree's highlight, kinematic posing with the loop closed, the
// plot-only layout of a run without a mechanism, camera fit, the layout at
// 800x600 (browser-papercuts.test.ts checks the timeline's width), and no pause symbol when nothing plays. Screenshots go to
// test-artifacts/viewer-scene/. Without /usr/bin/chromium the suite is
// replaced by one test that says so loudly (CI=true: a missing browser
// fails it), as test/viewer/browser.test.ts does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, notRunner, WAIT } from './chromium.ts';
import { viewerPages } from './pages.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { type Box, changed } from './pixels.ts';

const ARTIFACTS = new URL('../../test-artifacts/viewer-scene/', import.meta.url).pathname;
const SUITE = 'viewer scene in Chromium (URDF rpy and meshes, model tree, posing, plot-only, fit, layout)';

const notRun = notRunner('test/viewer/browser-scene.test.ts');

interface ViewerState {
  model: string;
  time: number;
  playing: boolean;
  mechanismBox: Box;
  selectedMechanism: string;
  playIcon: string;
  plotOnly: boolean;
  notes: string[];
  selected: string | undefined;
  posing: { available: boolean; posed: boolean; coordinates: Record<string, number>; note: string };
}

const { dir, errors, simulateRun, open, ...pages } = viewerPages('kron-viewer-scene-');

const state = (page: Page) => page.evaluate('window.kron.state()') as Promise<ViewerState>;

async function shot(page: Page, name: string): Promise<PNG> {
  await page.waitForTimeout(150); // a frame of requestAnimationFrame renders what changed
  return PNG.sync.read(await page.locator('#scene').screenshot({ path: join(ARTIFACTS, name), timeout: WAIT }));
}

/** the bounding box of the pixels that pass a colour test, and their count */
function pixelBox(png: PNG, test: (r: number, g: number, b: number) => boolean): Box & { count: number } {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity,
    count = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if (!test(png.data[i], png.data[i + 1], png.data[i + 2])) continue;
      count++;
      ((x0 = Math.min(x0, x)), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y)));
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, count };
}

const grow = (b: Box, m: number): Box => ({ x: b.x - m, y: b.y - m, width: b.width + 2 * m, height: b.height + 2 * m });

/** a robot on a table: a red bar 0.8 m along y (its rpy given), a blue STL tetrahedron beside it, and a mesh that is missing */
function robotUrdf(rpy: string): string {
  return `<robot name="bench">
  <link name="table"><visual><origin xyz="0 0 -0.3"/><geometry><box size="1 1 0.02"/></geometry><material name="t"><color rgba="0.55 0.55 0.55 1"/></material></visual></link>
  <link name="bar"><inertial><mass value="1"/><inertia ixx="0.05" iyy="0.001" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 0.1" rpy="${rpy}"/><geometry><box size="0.05 0.8 0.05"/></geometry><material name="r"><color rgba="0.85 0.1 0.1 1"/></material></visual></link>
  <link name="part"><visual><geometry><mesh filename="package://bench/meshes/tetra.stl"/></geometry><material name="b"><color rgba="0.1 0.3 0.95 1"/></material></visual></link>
  <link name="lost"><visual><geometry><mesh filename="package://bench/meshes/lost.stl"/></geometry></visual></link>
  <joint name="j1" type="revolute"><parent link="table"/><child link="bar"/><axis xyz="0 0 1"/></joint>
  <joint name="fix" type="fixed"><parent link="table"/><child link="part"/><origin xyz="0.3 0.3 -0.25"/></joint>
  <joint name="fix2" type="fixed"><parent link="table"/><child link="lost"/><origin xyz="-0.3 -0.3 -0.25"/></joint>
</robot>`;
}

/** an ASCII STL tetrahedron of edge ~0.2 m */
const TETRA = (() => {
  const v = [
    [0, 0, 0],
    [0.2, 0, 0],
    [0, 0.2, 0],
    [0, 0, 0.2],
  ];
  const faces = [
    [0, 2, 1],
    [0, 1, 3],
    [0, 3, 2],
    [1, 2, 3],
  ];
  const facet = (f: number[]) => `facet normal 0 0 0\n outer loop\n${f.map((k) => `  vertex ${v[k].join(' ')}`).join('\n')}\n endloop\nendfacet`;
  return `solid tetra\n${faces.map(facet).join('\n')}\nendsolid tetra\n`;
})();

const red = (r: number, g: number, b: number) => r > 110 && g < 80 && b < 80;
const blue = (r: number, g: number, b: number) => b > 120 && r < 90 && b > g + 40;

let fourbar: { file: string; run: PlaybackRun };

beforeAll(async () => {
  if (!RUN) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  fourbar = await simulateRun('mechanisms/fourbar.ts', 'fourbar', 2);
  await pages.launch();
});

afterAll(() => pages.close());

(RUN ? describe : notRun)(SUITE, () => {
  it('a URDF box with an rpy is drawn rotated; an STL next to the URDF is loaded, a missing mesh is noted; the robot poses', async () => {
    mkdirSync(join(dir, 'bench', 'urdf'), { recursive: true });
    mkdirSync(join(dir, 'bench', 'meshes'), { recursive: true });
    writeFileSync(join(dir, 'bench', 'meshes', 'tetra.stl'), TETRA);
    const boxes: Record<string, Box & { count: number }> = {};
    for (const [name, rpy] of [
      ['flat', '0 0 0'],
      ['rolled', '0.6 0 0'],
    ]) {
      const urdf = join(dir, 'bench', 'urdf', `${name}.urdf`);
      writeFileSync(urdf, robotUrdf(rpy));
      const { file } = await simulateRun(urdf, name, 0.2);
      const page = await open(file);
      await page.waitForFunction('window.kron.state().notes.length > 0', null, { timeout: WAIT });
      await page.waitForTimeout(500); // the STL arrives
      const png = await shot(page, `urdf-${name}.png`);
      boxes[name] = pixelBox(png, red);
      const s = await state(page);
      expect(s.notes).toEqual(['mesh package://bench/meshes/lost.stl: not found next to the URDF; drawn as a placeholder sphere']);
      expect(await page.locator('#notes').isVisible()).toBe(true);
      expect(pixelBox(png, blue).count).toBeGreaterThan(150); // the tetrahedron, drawn from the file
      if (name === 'rolled') {
        // posing a URDF robot: the page compiles it from its file; turning j1 turns the bar
        await page.locator('#pose-panel summary').click();
        await page.waitForFunction('window.kron.state().posing.available', null, { timeout: WAIT });
        expect(await page.evaluate("window.kron.pose({ 'j1.q': 1.2 })")).toBe(true);
        const turned = pixelBox(await shot(page, 'urdf-rolled-posed.png'), red);
        expect(Math.abs(turned.width - boxes[name].width) + Math.abs(turned.height - boxes[name].height)).toBeGreaterThan(40);
      }
      await page.close();
    }
    const { flat, rolled } = boxes;
    expect(flat.count).toBeGreaterThan(300);
    expect(rolled.count).toBeGreaterThan(300);
    // seen from the side, the flat bar is a long horizontal strip; rolled by 0.6 rad it rises to one end
    expect(flat.height / flat.width).toBeLessThan(0.3);
    expect(rolled.height / rolled.width).toBeGreaterThan(2 * (flat.height / flat.width));
    expect(rolled.height - flat.height).toBeGreaterThan(40);
  });

  it('selecting a joint in the model tree highlights it: pixels change inside its box on screen only', async () => {
    const page = await open(fourbar.file);
    await page.evaluate('window.kron.seek(0.4)');
    const a = await shot(page, 'tree-before.png');
    await page.locator('#tree button[data-path="j1"]').click();
    const b = await shot(page, 'tree-j1.png');
    const s = await state(page);
    expect(s.selected).toBe('j1');
    const box = (await page.evaluate('window.kron.partBox("j1")')) as Box;
    const d = changed(a, b, grow(box, 3));
    expect(d.inside).toBeGreaterThan(15);
    expect(d.outside).toBe(0);
    // its parameters and signals beside the tree
    const info = await page.locator('#part-info').innerText();
    // its signals: the recorded q and qd, or all of j1's once the page replays the run (browser-plots.test.ts)
    expect(info).toMatch(/^j1\s+parameters \(0\)\s+none\s+signals \((2|\d\d+)\)\s+q\s+-?\d[\s\S]*\bqd\s+-?\d/);
    // selecting it again clears the highlight: the first picture again
    await page.locator('#tree button[data-path="j1"]').click();
    expect(changed(a, await shot(page, 'tree-cleared.png'), grow(box, 3)).inside).toBe(0);
    // a body shows its parameters (mass, centre of mass, inertia)
    await page.evaluate('window.kron.select("b1.body")');
    expect(await page.locator('#part-info').innerText()).toMatch(/parameters \(10\)[\s\S]*\bm\s+\d/);
    await page.close();
  });

  it('a posing slider moves the mechanism with its loop closed; play returns to the recorded motion', async () => {
    const page = await open(fourbar.file);
    await page.evaluate('window.kron.seek(0)');
    await page.locator('#pose-panel summary').click();
    await page.waitForFunction('window.kron.state().posing.available', null, { timeout: WAIT });
    const a = await shot(page, 'pose-before.png');
    const slider = page.locator('#pose-sliders input[data-coordinate="j1.q"]');
    expect(await slider.isDisabled()).toBe(false);
    await slider.evaluate((e: HTMLInputElement) => ((e.value = '1.8'), e.dispatchEvent(new Event('input'))));
    const b = await shot(page, 'pose-moved.png');
    const s = await state(page);
    expect(s.posing.posed).toBe(true);
    expect(s.posing.coordinates['j1.q']).toBeCloseTo(1.8, 9);
    expect(changed(a, b, { x: 0, y: 0, width: a.width, height: a.height }).inside).toBeGreaterThan(300);
    // the cut joint j2 closes: its two frames, in different pose sets, meet
    const frames = fourbar.run.scene!.frames;
    const at = (member: string) => frames.findIndex((f) => f.members.includes(member));
    const pose = (await page.evaluate('window.kron.posedFrames()')) as number[][];
    const [p, q] = [pose[at('j2.frame_a')], pose[at('j2.frame_b')]];
    expect(at('j2.frame_a')).not.toBe(at('j2.frame_b'));
    expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])).toBeLessThan(1e-5);
    // play: the recorded motion again, sliders locked
    await page.evaluate('window.kron.play()');
    expect(await slider.isDisabled()).toBe(true);
    await page.evaluate('window.kron.pause(); window.kron.seek(0)');
    const back = await state(page);
    expect(back.posing.posed).toBe(false);
    expect(back.posing.coordinates['j1.q']).toBe(fourbar.run.signals['j1.q'][0]);
    expect(changed(a, await shot(page, 'pose-back.png'), { x: 0, y: 0, width: a.width, height: a.height }).inside).toBe(0);
    // a live run poses with its own compiled model: the PUMA's six joints
    await page.evaluate("window.kron.live('puma560', 'torn', 0.2)");
    await page.evaluate('window.kron.pause()');
    await page.waitForFunction('window.kron.state().posing.available', null, { timeout: WAIT });
    expect(await page.locator('#pose-sliders input').count()).toBe(6);
    const before = await shot(page, 'pose-puma-before.png');
    expect(await page.evaluate("window.kron.pose({ 'j2.q': -0.8, 'j3.q': 0.6 })")).toBe(true);
    const after = await shot(page, 'pose-puma.png');
    expect(changed(before, after, { x: 0, y: 0, width: before.width, height: before.height }).inside).toBeGreaterThan(300);
    await page.close();
  });

  it('"f" fits the camera to the four-bar as it stands: it covers a large part of the pane', async () => {
    const page = await open(fourbar.file);
    await page.evaluate('window.kron.seek(1.1)');
    await page.locator('#scene').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('f');
    await shot(page, 'fit.png');
    const s = await state(page);
    const pane = (await page.locator('#scene').boundingBox())!;
    const m = s.mechanismBox;
    // inside the pane with a margin, and filling it on its limiting side
    expect(m.x).toBeGreaterThan(0);
    expect(m.y).toBeGreaterThan(0);
    expect(m.x + m.width).toBeLessThan(pane.width);
    expect(m.y + m.height).toBeLessThan(pane.height);
    expect(Math.max(m.width / pane.width, m.height / pane.height)).toBeGreaterThan(0.7);
    expect((m.width * m.height) / (pane.width * pane.height)).toBeGreaterThan(0.2);
    await page.close();
  });

  it('a run without a mechanism (drive train) gets the plot-only layout, not an empty pane', async () => {
    const { file } = await simulateRun('mechanisms/drivetrain.ts', 'drivetrain', 0.5);
    const page = await open(file);
    const s = await state(page);
    expect(s.plotOnly).toBe(true);
    expect(await page.locator('#viewport').isVisible()).toBe(false);
    expect(await page.locator('#status').innerText()).toContain('plot only');
    const plot = (await page.locator('#plot canvas').boundingBox())!;
    expect(plot.width).toBeGreaterThan(1000);
    expect(plot.height).toBeGreaterThan(350);
    expect(s.selectedMechanism).toBe('drivetrain (loaded run)'); // the selector shows what is loaded
    await page.screenshot({ path: join(ARTIFACTS, 'plot-only.png') });
    await page.close();
  });

  it('at 800x600 the controls stay in two lines (the timeline, the buttons) and the header in one; nothing loaded shows no pause symbol', async () => {
    const page = await open(fourbar.file, { width: 800, height: 600 });
    const controls = (await page.locator('#controls').boundingBox())!;
    expect(controls.height).toBeLessThan(64);
    expect((await page.locator('header').boundingBox())!.height).toBeLessThan(45);
    for (const id of [
      'reset',
      'step-back',
      'play',
      'step-forward',
      'timeline',
      'clock',
      'speed',
      'loop',
      'show-frames',
      'show-axes',
      'fit',
      'screenshot',
      'record',
    ]) {
      const b = (await page.locator(`#${id}`).boundingBox())!;
      expect(b.x + b.width, id).toBeLessThanOrEqual(controls.x + controls.width);
      expect(b.y + b.height, id).toBeLessThanOrEqual(controls.y + controls.height);
    }
    expect((await state(page)).selectedMechanism).toBe('fourbar');
    await page.screenshot({ path: join(ARTIFACTS, 'layout-800x600.png') });
    await page.close();
    const empty = await open(undefined);
    const s = await state(empty);
    expect(s.playIcon).toBe('▶︎');
    await empty.close();
    expect(errors).toEqual([]);
  });
});
