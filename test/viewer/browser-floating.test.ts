// Robots that move in the world, in a real browser (Debian's Chromium through
// playwright-core, WebGL on SwiftShader; issue 29): the tumbling box's free
// joint posed by its x, y, z and roll, pitch, yaw sliders (the quaternion
// they write against the closed form), and a floating humanoid falling
// freely with the camera following its pelvis (kron view --track pelvis, the
// key t): the pelvis's height against -g t²/2, the pelvis at the image's
// centre and the humanoid's pixels there at every time, and off the centre
// when the camera stops following. Screenshots go to
// test-artifacts/viewer-floating/. Without /usr/bin/chromium the suite is
// replaced by one test that says so loudly (CI=true: it fails), as
// test/viewer/browser.test.ts does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDARD_GRAVITY } from '../../src/library/multibody/world.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { RUN, notRunner, WAIT } from './chromium.ts';
import { viewerPages } from './pages.ts';
import { changed } from './pixels.ts';

const ARTIFACTS = new URL('../../test-artifacts/viewer-floating/', import.meta.url).pathname;
const SUITE = 'viewer of floating robots in Chromium (free joint posing, a camera that follows a falling humanoid)';
const notRun = notRunner('test/viewer/browser-floating.test.ts');

type Quaternion = [number, number, number, number];
interface Tracking {
  body: string;
  frame: number;
  world: number[];
  screen: { x: number; y: number };
}
interface ViewerState {
  time: number;
  playing: boolean;
  notes: string[];
  tracking?: Tracking;
  posing: { available: boolean; posed: boolean; coordinates: Record<string, number>; angles: Record<string, number[]>; note: string };
}

const { dir, errors, simulateRun, open, ...pages } = viewerPages('kron-viewer-floating-');
const state = (page: Page) => page.evaluate('window.kron.state()') as Promise<ViewerState>;

async function shot(page: Page, name: string): Promise<PNG> {
  await page.waitForTimeout(150); // a frame of requestAnimationFrame renders what changed
  return PNG.sync.read(await page.locator('#scene').screenshot({ path: join(ARTIFACTS, name), timeout: WAIT }));
}

/** the box of the saturated (orange, yellow) pixels: the bodies and joint markers; the background, grid and grey bodies are not */
function saturatedBox(png: PNG): { cx: number; cy: number; width: number; height: number; count: number } {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity,
    count = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
      if (Math.max(r, g, b) - Math.min(r, g, b) < 90) continue;
      count++;
      ((x0 = Math.min(x0, x)), (y0 = Math.min(y0, y)), (x1 = Math.max(x1, x)), (y1 = Math.max(y1, y)));
    }
  }
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, width: x1 - x0 + 1, height: y1 - y0 + 1, count };
}

/** Hamilton product of (w, x, y, z) quaternions */
const times = ([a, b, c, d]: Quaternion, [e, f, g, h]: Quaternion): Quaternion => [
  a * e - b * f - c * g - d * h,
  a * f + b * e + c * h - d * g,
  a * g - b * h + c * e + d * f,
  a * h + b * g - c * f + d * e,
];
/** a turn by angle about a world axis (0 x, 1 y, 2 z) */
const turn = (axis: number, angle: number): Quaternion => {
  const q: Quaternion = [Math.cos(angle / 2), 0, 0, 0];
  q[axis + 1] = Math.sin(angle / 2);
  return q;
};
/** equal as rotations (Q and -Q are one) */
const sameRotation = (p: readonly number[], q: readonly number[]) => Math.abs(Math.abs(p.reduce((s, v, i) => s + v * q[i], 0)) - 1);

let tumbling: { file: string; run: PlaybackRun };
let falling: { file: string; run: PlaybackRun };

beforeAll(async () => {
  if (!RUN) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  tumbling = await simulateRun('mechanisms/tumbling.ts', 'tumbling', 2);
  falling = await simulateRun('mechanisms/humanoid.ts', 'humanoid-falling', 2, ['--set', 'floating=1']);
  await pages.launch();
});

afterAll(() => pages.close());

(RUN ? describe : notRun)(SUITE, () => {
  it('a free joint poses by x, y, z and roll, pitch, yaw sliders that write a unit quaternion', async () => {
    const page = await open(tumbling.file);
    await page.evaluate('window.kron.seek(0)');
    await page.locator('#pose-panel summary').click();
    await page.waitForFunction('window.kron.state().posing.available', null, { timeout: WAIT });
    expect(await page.locator('#pose-sliders input[data-coordinate]').evaluateAll((e) => e.map((x) => (x as HTMLInputElement).dataset.coordinate))).toEqual([
      'j.r[1]',
      'j.r[2]',
      'j.r[3]',
    ]);
    expect(await page.locator('#pose-sliders input[data-orientation="j"]').evaluateAll((e) => e.map((x) => (x as HTMLInputElement).dataset.rpy))).toEqual([
      'roll',
      'pitch',
      'yaw',
    ]);
    const box = tumbling.run.scene!.shapes.find((s) => s.name === 'box')!.frame;
    const drag = (selector: string, value: number) =>
      page.locator(`#pose-sliders input${selector}`).evaluate((e: HTMLInputElement, v) => ((e.value = String(v)), e.dispatchEvent(new Event('input'))), value);
    const before = await shot(page, 'tumbling-before.png');
    // yaw 1.0, then roll 0.4: R = Rz(1.0) Rx(0.4), Q = qz(1.0) (x) qx(0.4) (the product taken here)
    await drag('[data-orientation="j"][data-rpy="yaw"]', 1.0);
    await drag('[data-orientation="j"][data-rpy="roll"]', 0.4);
    const posed = await state(page);
    const Q = [1, 2, 3, 4].map((k) => posed.posing.coordinates[`j.Q[${k}]`]);
    const expected = times(turn(2, 1.0), turn(0, 0.4));
    expect(posed.posing.posed).toBe(true);
    for (let k = 0; k < 4; k++) expect(Q[k]).toBeCloseTo(expected[k], 14);
    expect(Math.abs(Math.hypot(...Q) - 1)).toBeLessThan(1e-15);
    [0.4, 0, 1.0].forEach((a, i) => expect(posed.posing.angles.j[i]).toBeCloseTo(a, 15));
    // the box's frame drawn so: Poses keep (qx, qy, qz, qw) in float32
    const frame = ((await page.evaluate('window.kron.posedFrames()')) as number[][])[box];
    expect(sameRotation([frame[6], frame[3], frame[4], frame[5]], expected)).toBeLessThan(1e-6);
    // x: the box's frame moves along the world's x (a free joint from the world at the origin)
    await drag('[data-coordinate="j.r[1]"]', 0.3);
    const moved = ((await page.evaluate('window.kron.posedFrames()')) as number[][])[box];
    expect(moved[0]).toBeCloseTo(0.3, 6);
    expect(moved[2]).toBeCloseTo(tumbling.run.signals['j.r[3]'][0], 6);
    const after = await shot(page, 'tumbling-posed.png');
    expect(changed(before, after, { x: 0, y: 0, width: before.width, height: before.height }).inside).toBeGreaterThan(300);
    // pitch to the singular +π/2 and yaw beyond: still a unit quaternion, the angles kept as dragged
    await drag('[data-orientation="j"][data-rpy="pitch"]', Math.PI / 2);
    await drag('[data-orientation="j"][data-rpy="yaw"]', -2);
    const singular = await state(page);
    const Qs = [1, 2, 3, 4].map((k) => singular.posing.coordinates[`j.Q[${k}]`]);
    expect(Math.abs(Math.hypot(...Qs) - 1)).toBeLessThan(1e-15);
    [0.4, Math.PI / 2, -2].forEach((a, i) => expect(singular.posing.angles.j[i]).toBeCloseTo(a, 12));
    expect(sameRotation(Qs, times(times(turn(2, -2), turn(1, Math.PI / 2)), turn(0, 0.4)))).toBeLessThan(1e-14);
    // a quaternion given by hand is normalised; one of no length is refused, naming the joint, and the pose stays
    expect(await page.evaluate("window.kron.pose({ 'j.Q[1]': 2, 'j.Q[2]': 0, 'j.Q[3]': 0, 'j.Q[4]': 0 })")).toBe(true);
    const hand = await state(page);
    expect([1, 2, 3, 4].map((k) => hand.posing.coordinates[`j.Q[${k}]`])).toEqual([1, 0, 0, 0]);
    [0, 0, 0].forEach((a, i) => expect(hand.posing.angles.j[i]).toBeCloseTo(a, 15));
    expect(await page.evaluate("window.kron.pose({ 'j.Q[1]': 0, 'j.Q[2]': 0, 'j.Q[3]': 0, 'j.Q[4]': 0 })")).toBe(false);
    expect((await state(page)).posing.note).toMatch(/^cannot pose there: j\.Q = \(0, 0, 0, 0\) is not an orientation/);
    expect((await state(page)).posing.coordinates['j.Q[1]']).toBe(1);
    // play and back: the recorded motion, its Q and angles; the sliders locked while playing
    await page.evaluate('window.kron.play()');
    expect(await page.locator('#pose-sliders input[data-rpy="yaw"]').isDisabled()).toBe(true);
    await page.evaluate('window.kron.pause(); window.kron.seek(1.5)');
    const back = await state(page);
    const k = tumbling.run.time.findIndex((t) => t >= 1.5 - 1e-9);
    const recorded = [1, 2, 3, 4].map((i) => tumbling.run.signals[`j.Q[${i}]`][k]);
    expect([1, 2, 3, 4].map((i) => back.posing.coordinates[`j.Q[${i}]`])).toEqual(recorded);
    // the angles shown give the recorded rotation again
    const [r, p, y] = back.posing.angles.j;
    expect(sameRotation(recorded, times(times(turn(2, y), turn(1, p)), turn(0, r)))).toBeLessThan(1e-12);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a floating URDF robot poses from its file by its root's free joint; live mode poses the tumbling box with its own model", async () => {
    const urdf = join(dir, 'arm.urdf');
    writeFileSync(
      urdf,
      `<robot name="arm">
  <link name="torso"><inertial><mass value="4"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><box size="0.3 0.3 0.3"/></geometry></visual></link>
  <link name="upper"><inertial><origin xyz="0 0 -0.2"/><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 -0.2"/><geometry><cylinder radius="0.04" length="0.4"/></geometry></visual></link>
  <joint name="shoulder" type="revolute"><parent link="torso"/><child link="upper"/><origin xyz="0.2 0 0"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>`,
    );
    const { file, run } = await simulateRun(urdf, 'arm-floating', 0.5, ['--floating']);
    expect(run.scene!.joints.map((j) => [j.name, j.type])).toEqual([
      ['torso_free', 'freejoint'],
      ['shoulder', 'revolute'],
    ]);
    const page = await open(file);
    await page.evaluate('window.kron.seek(0.5)');
    await page.locator('#pose-panel summary').click();
    await page.waitForFunction('window.kron.state().posing.available', null, { timeout: WAIT });
    expect(Object.keys((await state(page)).posing.coordinates)).toEqual([
      'torso_free.r[1]',
      'torso_free.r[2]',
      'torso_free.r[3]',
      'shoulder.q',
      'torso_free.Q[1]',
      'torso_free.Q[2]',
      'torso_free.Q[3]',
      'torso_free.Q[4]',
    ]);
    const torso = run.scene!.shapes.find((x) => x.name === 'torso')!.frame;
    // the robot has fallen 0.5 s: lifted back to 1 m, turned a quarter about z, it is drawn there
    expect(await page.evaluate("window.kron.pose({ 'torso_free.r[3]': 1 })")).toBe(true);
    await page
      .locator('#pose-sliders input[data-orientation="torso_free"][data-rpy="yaw"]')
      .evaluate((e: HTMLInputElement) => ((e.value = String(Math.PI / 2)), e.dispatchEvent(new Event('input'))));
    const frame = ((await page.evaluate('window.kron.posedFrames()')) as number[][])[torso];
    expect(frame[2]).toBeCloseTo(1, 6);
    expect(sameRotation([frame[6], frame[3], frame[4], frame[5]], turn(2, Math.PI / 2))).toBeLessThan(1e-6);
    await page.evaluate('window.kron.fit()'); // the camera was framed on the fall, below where it is posed now
    await shot(page, 'urdf-floating-posed.png');
    // live: the page's own compiled model poses the free joint
    await page.evaluate("window.kron.live('tumbling', 'relaxed', 0.5)");
    await page.evaluate('window.kron.pause()');
    await page.waitForFunction('window.kron.state().posing.available', null, { timeout: WAIT });
    expect(await page.locator('#pose-sliders input').count()).toBe(6);
    expect(await page.evaluate("window.kron.pose({ 'j.r[2]': 0.25 })")).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('kron view --track pelvis: the camera follows the floating humanoid as it falls; t stops and starts following', async () => {
    const page = await open(falling.file, { width: 1280, height: 800 }, { track: 'pelvis' });
    await page.evaluate('window.kron.showInfo(false)'); // its text is over the view
    const pane = (await page.locator('#scene').boundingBox())!;
    const centre = { x: pane.width / 2, y: pane.height / 2 };
    const g = STANDARD_GRAVITY;
    const seen: { t: number; y: number; screen: { x: number; y: number }; box: ReturnType<typeof saturatedBox> }[] = [];
    for (const t of [0, 0.5, 1, 1.5, 2]) {
      await page.evaluate(`window.kron.seek(${t})`);
      const png = await shot(page, `humanoid-fall-t${t}.png`);
      const s = await state(page);
      expect(s.tracking?.body).toBe('pelvis');
      // the pelvis's frame falls freely from the origin: y = -g t^2 / 2 (gravity along -y; float32 poses)
      expect(s.tracking!.world[1]).toBeCloseTo((-g * t * t) / 2, 4);
      expect(Math.abs(s.tracking!.world[0]) + Math.abs(s.tracking!.world[2])).toBeLessThan(1e-5);
      seen.push({ t, y: s.tracking!.world[1], screen: s.tracking!.screen, box: saturatedBox(png) });
    }
    const [first] = seen;
    expect(first.box.count).toBeGreaterThan(2000);
    for (const { screen, box } of seen) {
      // the pelvis stays where the view framed on the humanoid put it, near the centre; so do the humanoid's pixels
      expect(Math.hypot(screen.x - first.screen.x, screen.y - first.screen.y)).toBeLessThan(1);
      expect(Math.hypot(screen.x - centre.x, screen.y - centre.y)).toBeLessThan(0.1 * pane.height);
      // the same view of the humanoid at every time: the camera keeps its offset
      expect(Math.abs(box.cx - first.box.cx) + Math.abs(box.cy - first.box.cy)).toBeLessThan(3);
      expect(Math.abs(box.width - first.box.width) + Math.abs(box.height - first.box.height)).toBeLessThan(4);
      expect(Math.hypot(box.cx - centre.x, box.cy - centre.y)).toBeLessThan(0.1 * pane.height);
    }
    expect(seen.map((s) => s.y)).toEqual([...seen.map((s) => s.y)].sort((a, b) => b - a));
    expect(seen.at(-1)!.y).toBeLessThan(-19);
    // playing, it keeps following
    await page.evaluate('window.kron.seek(0); window.kron.play()');
    await page.waitForFunction('window.kron.state().time > 0.4', null, { timeout: WAIT });
    await page.evaluate('window.kron.pause()');
    const played = await state(page);
    expect(played.tracking!.world[1]).toBeLessThan(-0.7);
    const near = (s: ViewerState, at: { x: number; y: number }) => Math.hypot(s.tracking!.screen.x - at.x, s.tracking!.screen.y - at.y);
    expect(near(played, first.screen)).toBeLessThan(1);
    // orbiting (a drag) changes the view, and the camera still follows
    await page.mouse.move(pane.x + 300, pane.y + 400);
    await page.mouse.down();
    await page.mouse.move(pane.x + 420, pane.y + 360, { steps: 8 });
    await page.mouse.up();
    const orbitedAt = (await state(page)).tracking!.screen;
    await page.evaluate('window.kron.seek(1.8)');
    const orbited = await state(page);
    expect(near(orbited, orbitedAt)).toBeLessThan(1);
    expect(near(orbited, first.screen)).toBeGreaterThan(0); // the drag moved the view
    await shot(page, 'humanoid-fall-orbited.png');
    // t stops following: the camera stays, and the humanoid falls out of the centre
    await page.locator('#scene').click({ position: { x: 5, y: 5 } });
    await page.evaluate('window.kron.seek(0.5)');
    await page.keyboard.press('t');
    expect((await state(page)).tracking).toBeUndefined();
    const stillBox = saturatedBox(await shot(page, 'humanoid-still-t0.5.png'));
    await page.evaluate('window.kron.seek(1.2)');
    const gone = saturatedBox(await shot(page, 'humanoid-still-t1.2.png'));
    expect(gone.count === 0 || Math.hypot(gone.cx - stillBox.cx, gone.cy - stillBox.cy) > 100).toBe(true);
    // t again: the body --track named (nothing is selected), now at the centre, and followed there
    await page.keyboard.press('t');
    expect((await state(page)).tracking?.body).toBe('pelvis');
    expect(near(await state(page), centre)).toBeLessThan(1);
    await page.evaluate('window.kron.seek(1.9)');
    expect(near(await state(page), centre)).toBeLessThan(1);
    // a body selected in the model tree is the one t follows
    await page.keyboard.press('t');
    await page.evaluate('window.kron.select("head")');
    await page.keyboard.press('t');
    expect((await state(page)).tracking?.body).toBe('head');
    expect(await page.locator('#status').innerText()).toBe('the camera follows head (t stops)');
    expect(errors).toEqual([]);
    await page.close();
  });
});
