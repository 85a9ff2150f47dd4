// Meshes as collision geometry (src/io/mesh-collider.ts): a URDF
// <collision><mesh> and an MJCF mesh geom become the convex hull of the
// mesh's vertices, scaled (MJCF: refpos and refquat too) — checked against
// the corners written into the test's own STL and OBJ files; a missing,
// unreadable or flat mesh is a warning naming the link or geom and the file.
// A box written as a mesh, dropped on the ground, rests on its four bottom
// corners: their forces sum to its weight (1e-9) and are equal by symmetry,
// as the box shape's do (test/contact/box-on-plane.test.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { ContactScene } from '../../src/contact/scene.ts';
import { ContactRun } from '../../src/contact/run.ts';
import { Body } from '../../src/library/multibody/body.ts';
import { components } from '../../src/model/index.ts';
import type { Mechanism } from '../../src/library/multibody/mechanism.ts';
import { loadUrdf } from '../../src/node/urdf-file.ts';
import { loadMjcf } from '../../src/node/mjcf-file.ts';

const G = 9.80665;

/** the 8 corners of a box of half sizes h about the origin */
const corners = (h: readonly number[]) => Array.from({ length: 8 }, (_, k) => [(k & 1 ? 1 : -1) * h[0], (k & 2 ? 1 : -1) * h[1], (k & 4 ? 1 : -1) * h[2]]);

/** an ASCII STL of the box: its 6 faces as 12 triangles (winding does not matter to a hull) */
function boxStl(h: readonly number[]): string {
  const c = corners(h);
  const quads = [
    [0, 1, 3, 2],
    [4, 6, 7, 5],
    [0, 4, 5, 1],
    [2, 3, 7, 6],
    [0, 2, 6, 4],
    [1, 5, 7, 3],
  ];
  const facet = (a: number, b: number, d: number) =>
    `facet normal 0 0 0\nouter loop\n${[a, b, d].map((i) => `vertex ${c[i].join(' ')}`).join('\n')}\nendloop\nendfacet`;
  return `solid box\n${quads.map(([a, b, d, e]) => `${facet(a, b, d)}\n${facet(a, d, e)}`).join('\n')}\nendsolid box\n`;
}

const bodies = (m: Mechanism) => components(m).filter((c): c is Body => c instanceof Body);
const sortedPoints = (v: readonly number[]) =>
  Array.from({ length: v.length / 3 }, (_, k) => [v[3 * k], v[3 * k + 1], v[3 * k + 2]]).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);

const urdf = (collision: string) => `<robot name="r">
  <link name="block">
    <inertial><mass value="2"/><inertia ixx="0.0217" iyy="0.0417" izz="0.0333" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry>${collision}</geometry></collision>
  </link>
</robot>`;

describe('a URDF <collision><mesh> is its vertices convex hull', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kron-meshc-'));
  // an STL cube of half size 0.1, scaled to the box 0.4 x 0.2 x 0.3
  writeFileSync(join(dir, 'cube.stl'), boxStl([0.1, 0.1, 0.1]));
  writeFileSync(join(dir, 'flat.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n');
  writeFileSync(join(dir, 'block.urdf'), urdf('<mesh filename="cube.stl" scale="2 1 1.5"/>'));
  const k = 1e5,
    m = 2;

  it('scaled as the URDF says: the box corners', () => {
    const { mechanism, warnings } = loadUrdf(join(dir, 'block.urdf'), { contact: true, floating: true });
    expect(warnings.filter((w) => w.includes('collision'))).toEqual([]);
    const [shape] = bodies(mechanism).flatMap((b) => b.collision.map((c) => c.shape));
    expect(shape.type).toBe('convex');
    if (shape.type !== 'convex') return;
    const want = sortedPoints(corners([0.2, 0.1, 0.15]).flat());
    // single precision, as the mesh reader keeps vertices (mesh-file.ts)
    sortedPoints(shape.vertices).forEach((p, i) => p.forEach((x, j) => expect(x).toBeCloseTo(want[i][j], 7)));
  });

  it('a missing, a DAE and a flat mesh are warnings naming the link and the file; nothing collides', () => {
    for (const [file, why] of [
      ['gone.stl', /link block: <collision> mesh "gone.stl" is not found next to the URDF: not collided/],
      ['flat.obj', /link block: <collision> mesh "flat.obj" its 4 vertices span no volume/],
    ] as const) {
      writeFileSync(join(dir, 'bad.urdf'), urdf(`<mesh filename="${file}"/>`));
      const { warnings } = loadUrdf(join(dir, 'bad.urdf'), { contact: true, floating: true });
      expect(warnings.join('\n')).toMatch(why);
      expect(warnings).toContain('contact: no link has a <collision> box, cylinder, sphere, capsule or readable mesh, so nothing touches the ground');
    }
    writeFileSync(join(dir, 'part.dae'), '<COLLADA/>');
    writeFileSync(join(dir, 'bad.urdf'), urdf('<mesh filename="part.dae"/>'));
    expect(loadUrdf(join(dir, 'bad.urdf'), { contact: true, floating: true }).warnings.join('\n')).toMatch(
      /link block: <collision> mesh "part.dae" could not be read as a collision mesh \(the file is not an OBJ or STL file \(.dae\)\): not collided/,
    );
  });

  it('dropped on the ground: rests on its four bottom corners, equal, summing to its weight (1e-9)', () => {
    const material = { stiffness: k, damping: 2 * Math.sqrt((k * m) / 4), friction: 0.5 };
    const { mechanism } = loadUrdf(join(dir, 'block.urdf'), { contact: true, floating: true, contactMaterial: material });
    const scene = ContactScene.of(mechanism);
    const compiled = compile(mechanism);
    const res = simulate(compiled, { stop: 1, step: 1e-4, interval: 1, contact: scene, start: { 'block_free.r[3]': 0.15 + 0.005 } });
    const run = new ContactRun(scene, compiled.createState());
    run.apply(1, Float64Array.from(compiled.stateNames.map((n) => res.final(n))));
    const fn = [...run.normalForces.subarray(0, run.contacts.count)].filter((_, i) => run.contacts.dist[i] < 0);
    expect(fn).toHaveLength(4);
    expect(Math.abs(fn.reduce((a, b) => a + b, 0) / (m * G) - 1)).toBeLessThan(1e-9);
    for (const f of fn) expect(Math.abs(f / ((m * G) / 4) - 1)).toBeLessThan(1e-9);
  });
});

describe('an MJCF mesh geom is its mesh vertices convex hull', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kron-meshm-'));
  writeFileSync(join(dir, 'cube.stl'), boxStl([0.1, 0.1, 0.1]));
  const mjcf = (asset: string, geom: string) => `<mujoco>
  <asset>${asset}</asset>
  <worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body name="b" pos="0 0 1"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>${geom}</body>
  </worldbody>
</mujoco>`;

  it('a file mesh scaled and moved by refpos; a mesh of vertices; at the geom pos', () => {
    writeFileSync(
      join(dir, 'a.xml'),
      mjcf('<mesh name="cube" file="cube.stl" scale="2 1 1" refpos="0.1 0 0"/>', '<geom type="mesh" mesh="cube" pos="0 0 0.5"/>'),
    );
    const { mechanism, warnings } = loadMjcf(join(dir, 'a.xml'), { contact: true });
    expect(warnings.filter((w) => w.includes('collided'))).toEqual([]);
    const [c] = bodies(mechanism).flatMap((b) => b.collision);
    expect(c.shape.type).toBe('convex');
    expect(c.offset).toEqual([0, 0, 0.5]);
    if (c.shape.type !== 'convex') return;
    // (x - 0.1) * 2: x from -0.4 to 0
    const want = sortedPoints(
      corners([0.2, 0.1, 0.1])
        .map(([x, y, z]) => [x - 0.2, y, z])
        .flat(),
    );
    sortedPoints(c.shape.vertices).forEach((p, i) => p.forEach((x, j) => expect(x).toBeCloseTo(want[i][j], 7)));
    writeFileSync(join(dir, 'b.xml'), mjcf('<mesh name="tet" vertex="0 0 0  1 0 0  0 1 0  0 0 1"/>', '<geom type="mesh" mesh="tet"/>'));
    const tet = bodies(loadMjcf(join(dir, 'b.xml'), { contact: true }).mechanism).flatMap((b) => b.collision)[0].shape;
    expect(tet.type === 'convex' && sortedPoints(tet.vertices).flat()).toEqual([0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0].map(Math.fround));
  });

  it('a mesh file missing is a warning naming the geom and the file (with a body inertial, the mass does not need it)', () => {
    writeFileSync(join(dir, 'c.xml'), mjcf('<mesh name="gone" file="gone.stl"/>', '<geom name="shell" type="mesh" mesh="gone"/>'));
    const { mechanism, warnings } = loadMjcf(join(dir, 'c.xml'), { contact: true });
    expect(warnings).toContain('mesh geom shell: its mesh file gone.stl is not found: not collided');
    expect(bodies(mechanism).flatMap((b) => b.collision)).toEqual([]);
  });
});
