// MJCF robots in a real browser (Debian's Chromium through playwright-core,
// WebGL on SwiftShader; issue 31): `kron simulate robot.xml --out run.json`
// then `kron view run.json`, for MuJoCo's humanoid (capsules and spheres of
// its "body" material, rgba 0.8 0.6 0.4, over its floor plane) and
// menagerie's Unitree Go2 (its visual geoms are meshes whose files are not
// here: the collision solids stand in, in the meshes' colours; its base is
// "black"). The oracle is the file: each body's pixels, where the viewer
// projects it, have its material's colour (shaded, so the colour's hue: the
// ratios of its channels), and that colour is not drawn away from the robot.
// A mesh geom whose OBJ file is there (under <compiler meshdir>, scaled) is
// drawn from the file, served by kron view from the MJCF file's folder.
// Screenshots go to test-artifacts/viewer-mjcf/. Without /usr/bin/chromium
// the suite is replaced by one test that says so loudly (CI=true: it fails).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaybackRun } from '../../src/io/types.ts';
import { RUN, notRunner, WAIT } from './chromium.ts';
import { viewerPages } from './pages.ts';
import { type Box, inside } from './pixels.ts';

const ARTIFACTS = new URL('../../test-artifacts/viewer-mjcf/', import.meta.url).pathname;
const FIXTURES = 'test/io/fixtures/mjcf';
const SUITE = 'viewer of MJCF robots in Chromium (every shown geom in its colour, the floor)';
const notRun = notRunner('test/viewer/browser-mjcf.test.ts');

const { dir, errors, simulateRun, open, ...pages } = viewerPages('kron-viewer-mjcf-');
let humanoid: { file: string; run: PlaybackRun };
let go2: { file: string; run: PlaybackRun };

/** the robot at t = 0, framed, without the info overlay (its text is brown) */
async function shot(page: Page, name: string): Promise<PNG> {
  await page.evaluate('window.kron.seek(0)');
  await page.evaluate('window.kron.showInfo(false)');
  await page.evaluate('window.kron.fit()');
  await page.waitForTimeout(150); // a frame of requestAnimationFrame renders what changed
  return PNG.sync.read(await page.locator('#scene').screenshot({ path: join(ARTIFACTS, name), timeout: WAIT }));
}

/** pixels of a colour (by test) inside a box and in the whole image */
function colourCount(png: PNG, test: (r: number, g: number, b: number) => boolean, box: Box): { inside: number; total: number } {
  const out = { inside: 0, total: 0 };
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if (!test(png.data[i], png.data[i + 1], png.data[i + 2])) continue;
      out.total++;
      if (inside(box, x, y)) out.inside++;
    }
  }
  return out;
}

/** the humanoid's material rgba 0.8 0.6 0.4, lit: green about 3/4 of red, blue about half (the joint markers' yellow has almost no blue) */
const tan = (r: number, g: number, b: number) => r > 60 && Math.abs(g / r - 0.75) < 0.12 && Math.abs(b / r - 0.5) < 0.17;
/** menagerie's "black": dark, whatever the light */
const black = (r: number, g: number, b: number) => Math.max(r, g, b) < 45;

/** a unit cube (corners at 0 and 1) as an OBJ file: 8 vertices, 6 quadrilateral faces */
const CUBE = [
  ...[
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [1, 1, 1],
    [0, 1, 1],
  ].map((v) => `v ${v.join(' ')}`),
  ...[
    [1, 4, 3, 2],
    [5, 6, 7, 8],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 4, 8, 7],
    [4, 1, 5, 8],
  ].map((f) => `f ${f.join(' ')}`),
].join('\n');
/** the mesh's material: rgba 0.1 0.3 0.95 */
const blue = (r: number, g: number, b: number) => b > 120 && r < 90 && b > g + 40;

beforeAll(async () => {
  if (!RUN) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  humanoid = await simulateRun(`${FIXTURES}/humanoid.xml`, 'humanoid', 0.1);
  go2 = await simulateRun(`${FIXTURES}/go2.xml`, 'go2', 0.1);
  await pages.launch();
});

afterAll(() => pages.close());

(RUN ? describe : notRun)(SUITE, () => {
  it("MuJoCo's humanoid: every body's capsules in the body material's colour where the body projects, over its floor", async () => {
    expect(humanoid.run.scene!.floor).toMatchObject({ point: [0, 0, 0], normal: [0, 0, 1] });
    const page = await open(humanoid.file);
    const state = (await page.evaluate('window.kron.state()')) as { samples: number; notes: string[] };
    expect(state.samples).toBe(11);
    const png = await shot(page, 'humanoid.png');
    const mechanism = (await page.evaluate('window.kron.state().mechanismBox')) as Box;
    const all = colourCount(png, tan, mechanism);
    // the robot's colour is on the robot, not elsewhere (the floor, the background)
    expect(all.inside).toBeGreaterThan(2000);
    expect(all.total - all.inside).toBeLessThan(0.01 * all.total);
    for (const body of ['torso', 'head', 'thigh_right', 'shin_left', 'upper_arm_left', 'hand_right']) {
      const box = (await page.evaluate(`window.kron.partBox(${JSON.stringify(body)})`)) as Box;
      expect(colourCount(png, tan, box).inside, body).toBeGreaterThan(20);
    }
    expect(errors).toEqual([]);
  });

  it("menagerie's Go2 without its mesh files: the collision solids stand in, the base in its meshes' black", async () => {
    const shapes = go2.run.scene!.shapes;
    // the base's box, cylinder and sphere; per leg the hip's cylinder, the thigh's box, the calf's two cylinders and its foot sphere
    expect(shapes.filter((s) => s.name === 'base').map((s) => s.geometry.shape.type)).toEqual(['box', 'cylinder', 'sphere']);
    expect(shapes.filter((s) => s.name === 'FL_calf').map((s) => s.geometry.shape.type)).toEqual(['cylinder', 'cylinder', 'sphere']);
    expect(shapes.find((s) => s.name === 'base')!.geometry.color).toBe('#000000');
    const page = await open(go2.file);
    const png = await shot(page, 'go2.png');
    const base = (await page.evaluate("window.kron.partBox('base')")) as Box;
    const mechanism = (await page.evaluate('window.kron.state().mechanismBox')) as Box;
    const dark = colourCount(png, black, base);
    expect(dark.inside).toBeGreaterThan(500);
    expect(colourCount(png, black, mechanism).total - colourCount(png, black, mechanism).inside).toBeLessThan(0.01 * dark.total);
    for (const body of ['FL_thigh', 'RR_calf', 'FR_hip']) {
      const box = (await page.evaluate(`window.kron.partBox(${JSON.stringify(body)})`)) as Box;
      expect(box.width * box.height, body).toBeGreaterThan(25);
    }
    expect(errors).toEqual([]);
  });

  it('a mesh geom whose OBJ file is under meshdir is drawn from the file, scaled, in its material; kron view serves it', async () => {
    mkdirSync(join(dir, 'arm', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'arm', 'assets', 'cube.obj'), CUBE);
    writeFileSync(
      join(dir, 'arm', 'arm.xml'),
      `<mujoco model="arm"><compiler meshdir="assets"/>
      <asset><mesh file="cube.obj" scale="0.3 0.3 0.3"/><material name="blue" rgba="0.1 0.3 0.95 1"/></asset>
      <worldbody><body name="link" pos="0 0 0.5"><joint axis="0 1 0"/><inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>
        <geom type="mesh" mesh="cube" material="blue" pos="-0.15 -0.15 -0.15"/><geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.02" rgba="0.8 0.1 0.1 1"/></body>
      </worldbody></mujoco>`,
    );
    const { file, run } = await simulateRun(join(dir, 'arm', 'arm.xml'), 'arm', 0.1);
    expect(run.source?.mjcf).toBe(join(dir, 'arm', 'arm.xml'));
    expect(run.scene!.shapes.map((s) => s.geometry.shape.type)).toEqual(['mesh', 'capsule']);
    const page = await open(file);
    await page.waitForTimeout(500); // the OBJ arrives
    const png = await shot(page, 'mesh.png');
    const box = (await page.evaluate("window.kron.partBox('link')")) as Box;
    const cube = colourCount(png, blue, box);
    expect(cube.inside).toBeGreaterThan(1000);
    expect(cube.total - cube.inside).toBeLessThan(0.01 * cube.total);
    expect(((await page.evaluate('window.kron.state()')) as { notes: string[] }).notes).toEqual([]);
    expect(errors).toEqual([]);
  });
});
