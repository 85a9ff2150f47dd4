// What the viewer draws of an MJCF robot, each against the file by hand:
// every geom of the groups MuJoCo's viewer shows (0, 1, 2), capsules as
// capsules (MuJoCo's size: radius, half length), ellipsoids by their three
// semi-axes, a transparent geom (alpha 0) not at all, collision geoms
// (group 3) only in place of a body's meshes (whose files are not read), and
// the world's plane as the floor, at its place with its normal and colour;
// a mesh geom as its file when the file is there (meshdir, scale), inside the
// MJCF file's folder only.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFiles } from '../../src/cli/view-files.ts';
import type { PlaybackRun } from '../../src/io/types.ts';
import { findMjcfMesh, loadMjcf } from '../../src/node/mjcf-file.ts';
import { parseMjcf } from '../../src/io/mjcf-parse.ts';
import { mjcfMechanism } from '../../src/io/mjcf.ts';
import { describeScene } from '../../src/io/scene.ts';
import type { Body } from '../../src/library/multibody/body.ts';
import type { Geometry } from '../../src/library/multibody/geometry.ts';

const load = (xml: string) => mjcfMechanism(parseMjcf(xml, 't.xml'));
const shapesOf = (m: ReturnType<typeof load>['mechanism'], body: string) => (m.children.find((c) => c.localName === body) as Body).shapes;
const s2 = Math.SQRT1_2;

describe('MJCF geoms drawn by the viewer', () => {
  it('every shown geom of a body, capsules as capsules, ellipsoids by their semi-axes; group 3 and alpha 0 not drawn', () => {
    const { mechanism } = load(`<mujoco><worldbody><body name="a"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      <geom type="capsule" size="0.05 0.2" rgba="1 0 0 1"/>
      <geom type="ellipsoid" size="0.1 0.2 0.3" pos="1 0 0" group="2"/>
      <geom type="cylinder" fromto="0 0 0 0 0.4 0" size="0.03"/>
      <geom type="box" size="0.1 0.1 0.1" group="3"/>
      <geom type="sphere" size="0.1" rgba="0 0 1 0"/>
    </body></worldbody></mujoco>`);
    const shapes = shapesOf(mechanism, 'a');
    expect(shapes.map((g) => g.shape)).toEqual([
      { type: 'capsule', radius: 0.05, length: 0.4 },
      { type: 'ellipsoid', radii: [0.1, 0.2, 0.3] },
      { type: 'cylinder', radius: 0.03, length: 0.4 },
    ]);
    expect(shapes[0]).toMatchObject({ color: '#ff0000', offset: [0, 0, 0] });
    expect(shapes[1].offset).toEqual([1, 0, 0]);
    // fromto along y: the cylinder's axis is y, centred halfway
    const c = shapes[2] as Geometry;
    c.axis!.forEach((v, i) => expect(v).toBeCloseTo([0, 1, 0][i], 14));
    c.offset!.forEach((v, i) => expect(v).toBeCloseTo([0, 0.2, 0][i], 14));
  });

  it("a body whose shown geoms are meshes: its collision solids stand in, in the mesh's colour, with one note for the file", () => {
    const { mechanism, warnings } = load(`<mujoco><asset><mesh file="a.obj"/><mesh file="b.obj"/><material name="dark" rgba="0 0 0 1"/></asset>
      <default><default class="visual"><geom type="mesh" group="2" contype="0" conaffinity="0"/></default>
        <default class="collision"><geom group="3"/></default></default>
      <worldbody><body name="a"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
        <geom class="visual" mesh="a" material="dark"/><geom class="collision" type="box" size="0.1 0.2 0.3"/>
        <body name="b" pos="0 0 1"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><joint axis="0 1 0"/>
          <geom class="visual" mesh="b"/><geom class="collision" size="0.05"/></body>
      </body></worldbody></mujoco>`);
    expect(shapesOf(mechanism, 'a').map((g) => [g.shape, g.color])).toEqual([[{ type: 'box', size: [0.2, 0.4, 0.6] }, '#000000']]);
    expect(shapesOf(mechanism, 'b').map((g) => g.shape)).toEqual([{ type: 'sphere', radius: 0.05 }]);
    expect(warnings.filter((w) => w.includes('mesh'))).toEqual([
      "2 mesh geoms are not drawn (mesh files are not read): their bodies' collision geoms stand in",
    ]);
  });

  it("the world's plane is the floor, in the scene the viewer reads: its point, normal and colour", () => {
    const { mechanism } = load(`<mujoco><asset><material name="grid" rgba="0.2 0.4 0.6 1"/></asset><worldbody>
      <geom type="plane" size="0 0 0.05" pos="0 0 -0.5" quat="${s2} ${s2} 0 0" material="grid"/>
      <body name="a"><freejoint/><geom size="0.1"/></body></worldbody></mujoco>`);
    const scene = describeScene(mechanism, () => 0, [0, 0, -9.81]);
    expect(scene.floor!.point).toEqual([0, 0, -0.5]);
    expect(scene.floor!.color).toBe('#336699');
    // a quarter turn about x takes the plane's normal z to -y
    scene.floor!.normal.forEach((v, i) => expect(v).toBeCloseTo([0, -1, 0][i], 14));
    expect(scene.shapes.filter((s) => s.name === 'a').map((s) => s.geometry.shape.type)).toEqual(['sphere']);
  });
});

describe('MJCF mesh files for the viewer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kron-mjcf-mesh-'));
  mkdirSync(join(dir, 'robot', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'robot', 'assets', 'cube.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
  writeFileSync(join(dir, 'outside.obj'), 'v 0 0 0\n');
  const xml = join(dir, 'robot', 'r.xml');
  writeFileSync(
    xml,
    `<mujoco><compiler meshdir="assets"/>
    <asset><mesh file="cube.obj" scale="2 2 3"/><mesh name="gone" file="gone.stl"/><material name="red" rgba="1 0 0 1"/></asset>
    <worldbody><body name="a"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><geom type="mesh" mesh="cube" material="red" pos="0 0 1"/></body>
      <body name="b"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><geom type="mesh" mesh="gone"/><geom size="0.1" group="3"/></body></worldbody></mujoco>`,
  );

  it("a mesh geom is its file under meshdir, with the mesh's scale; a missing one's body has its collision solids", () => {
    const { mechanism, warnings } = loadMjcf(xml);
    expect(shapesOf(mechanism, 'a')).toEqual([
      {
        shape: { type: 'mesh', filename: 'assets/cube.obj', file: join(dir, 'robot', 'assets', 'cube.obj'), radius: 0.05, scale: [2, 2, 3] },
        color: '#ff0000',
        offset: [0, 0, 1],
      },
    ]);
    expect(shapesOf(mechanism, 'b').map((g) => g.shape)).toEqual([{ type: 'sphere', radius: 0.1 }]);
    expect(warnings).toContain("1 mesh geom is not drawn (their files are not found): their bodies' collision geoms stand in");
  });

  it("a mesh is found inside the MJCF file's folder only, and only as STL or OBJ", () => {
    expect(findMjcfMesh(xml, 'assets/cube.obj')).toEqual({ file: join(dir, 'robot', 'assets', 'cube.obj') });
    expect(findMjcfMesh(xml, '../outside.obj')).toMatchObject({ reason: "outside the MJCF file's folder, not served" });
    expect(findMjcfMesh(xml, 'assets/gone.stl')).toMatchObject({ reason: 'not found next to the MJCF file' });
    expect(findMjcfMesh(xml, 'assets/cube.msh')).toMatchObject({ reason: 'not an STL or OBJ file' });
  });

  it("kron view serves an MJCF run's meshes found again from its MJCF file, none outside its folder, none when it is gone", () => {
    const mesh = (filename: string) => ({
      name: 'a',
      kind: 'body' as const,
      frame: 0,
      geometry: { shape: { type: 'mesh' as const, filename, radius: 0.05 }, color: '#888888' },
    });
    const run = (mjcf: string): PlaybackRun => ({
      model: 'm',
      time: [0],
      signals: {},
      source: { mjcf },
      scene: { gravity: [0, 0, -9.81], frames: [], world: -1, shapes: [mesh('assets/cube.obj'), mesh('../outside.obj')], links: [], joints: [] },
    });
    const here = runFiles(run(xml), []);
    expect(here.config).toEqual({ meshes: { 'assets/cube.obj': 'mesh/0.obj' }, unserved: { '../outside.obj': "outside the MJCF file's folder, not served" } });
    expect([...here.meshes]).toEqual([['/mesh/0.obj', join(dir, 'robot', 'assets', 'cube.obj')]]);
    const gone = runFiles(run(join(dir, 'gone.xml')), []);
    expect(gone.meshes.size).toBe(0);
    expect(gone.config.unserved).toEqual({ 'assets/cube.obj': "the run's MJCF file is not here", '../outside.obj': "the run's MJCF file is not here" });
    expect(gone.warnings).toEqual([`the run's MJCF file ${join(dir, 'gone.xml')} is not here: the robot is drawn without its meshes`]);
  });
});
