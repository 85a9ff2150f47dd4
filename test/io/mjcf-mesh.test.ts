// Mass from mesh geoms against MuJoCo itself (its WebAssembly build, same
// process): small OBJ and STL files written here are given to MuJoCo through
// its virtual file system and to Kron through parseMjcf's readFile; the
// bodies' mass, centre of mass and inertia tensor (MuJoCo's body_mass,
// body_ipos, and the principal moments of body_inertia) agree to 1e-10
// relative (the tensor to 1e-6: MuJoCo's principal axes stop early),
// under MuJoCo's default rule (legacy), exact and shell, with mesh scale
// (also negative), refpos/refquat, the geom's pos and quat, density and
// mass; then qacc at random states, both forms. Closed forms: a unit cube of
// density rho has mass rho and inertia rho/6 about its centre. Errors: a
// missing, unreadable, inside-out, open, flat or malformed mesh is a
// ModelError naming the mesh and the file (and line), never a NaN mass.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile, type Mode } from '../../src/compile.ts';
import { ModelError } from '../../src/errors.ts';
import { mjcfMechanism, parseMjcf } from '../../src/io/mjcf.ts';
import type { MjcfBody, MjcfRobot } from '../../src/io/mjcf-parse.ts';
import { MujocoPeer } from '../../src/bench/mujoco.ts';
import { loadMjcf } from '../../src/node/mjcf-file.ts';
import { principalMoments } from '../../src/library/multibody/body.ts';
import { freePeersAfterAll, smoothPeer, worstQaccDifference } from './mjcf-peer.ts';

freePeersAfterAll();

type P = readonly [number, number, number];
type Sym = [number, number, number, number, number, number];

const obj = (v: readonly P[], f: readonly (readonly number[])[]) =>
  [...v.map((p) => `v ${p.join(' ')}`), ...f.map((x) => `f ${x.join(' ')}`)].join('\n') + '\n';

/** an irregular tetrahedron, faces outward */
const TET = obj(
  [
    [0, 0, 0],
    [0.3, 0, 0],
    [0, 0.2, 0],
    [0.05, 0.1, 0.4],
  ],
  [
    [1, 3, 2],
    [1, 2, 4],
    [2, 3, 4],
    [3, 1, 4],
  ],
);

/** the cube [0, 1]^3 as 12 outward triangles */
const CUBE_V: P[] = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 1, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 0, 1],
  [1, 1, 1],
  [0, 1, 1],
];
const CUBE_F = [
  [1, 4, 3],
  [1, 3, 2],
  [5, 6, 7],
  [5, 7, 8],
  [1, 2, 6],
  [1, 6, 5],
  [2, 3, 7],
  [2, 7, 6],
  [3, 4, 8],
  [3, 8, 7],
  [4, 1, 5],
  [4, 5, 8],
];
const CUBE = obj(CUBE_V, CUBE_F);

/** a non-convex L-shaped prism: caps fanned from the reflex corner, sides as quads (split as tinyobjloader splits them) */
function lPrism(): string {
  const L: [number, number][] = [
    [0, 0],
    [2, 0],
    [2, 1],
    [1, 1],
    [1, 3],
    [0, 3],
  ];
  const v: P[] = [...L.map(([x, y]) => [0.1 * x, 0.1 * y, 0] as P), ...L.map(([x, y]) => [0.1 * x, 0.1 * y, 0.15] as P)];
  const cap = [
    [4, 5, 6],
    [4, 6, 1],
    [4, 1, 2],
    [4, 2, 3],
  ];
  const sides = L.map((_, i) => [i + 1, ((i + 1) % 6) + 1, ((i + 1) % 6) + 7, i + 7]);
  return obj(v, [...cap.map(([a, b, c]) => [a, c, b]), ...cap.map((t) => t.map((k) => k + 6)), ...sides]);
}

/** an irregular octahedron as a binary STL (normals left zero, as MuJoCo ignores them) */
const OCTA_V: P[] = [
  [0.2, 0, 0],
  [-0.1, 0, 0],
  [0, 0.15, 0],
  [0, -0.05, 0],
  [0, 0, 0.25],
  [0.01, 0.02, -0.1],
];
const OCTA_F = [
  [0, 2, 4],
  [2, 1, 4],
  [1, 3, 4],
  [3, 0, 4],
  [2, 0, 5],
  [1, 2, 5],
  [3, 1, 5],
  [0, 3, 5],
];
function binaryStl(v: readonly P[], f: readonly (readonly number[])[]): Uint8Array {
  const bytes = new Uint8Array(84 + 50 * f.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(80, f.length, true);
  f.forEach((t, i) => t.forEach((k, j) => v[k].forEach((x, c) => view.setFloat32(84 + 50 * i + 12 * (j + 1) + 4 * c, x, true))));
  return bytes;
}
const asciiStl = (v: readonly P[], f: readonly (readonly number[])[]) =>
  `solid octa\n${f.map((t) => `  facet normal 0 0 0\n    outer loop\n${t.map((k) => `      vertex ${v[k].join(' ')}\n`).join('')}    endloop\n  endfacet\n`).join('')}endsolid octa\n`;

const text = (s: string) => new TextEncoder().encode(s);
const FILES: Record<string, Uint8Array> = {
  'tet.obj': text(TET),
  'cube.obj': text(CUBE),
  'ell.obj': text(lPrism()),
  'octa.stl': binaryStl(OCTA_V, OCTA_F),
};
const readFile = (name: string) => FILES[name] ?? (name === 'octa_ascii.stl' ? asciiStl(OCTA_V, OCTA_F) : undefined);

/** a floating chain whose bodies' mass all comes from mesh geoms */
const ROBOT = `<mujoco model="meshes">
  <asset>
    <mesh name="tet" file="tet.obj"/>
    <mesh name="flipped" file="tet.obj" scale="-1 0.8 1.2"/>
    <mesh name="ell" file="ell.obj"/>
    <mesh name="ell_exact" file="ell.obj" inertia="exact"/>
    <mesh name="box" file="cube.obj" scale="0.2 0.1 0.3" refpos="0.5 0.5 0" refquat="0.9 0.1 0.3 0.2"/>
    <mesh name="shell" file="cube.obj" scale="0.1 0.2 0.1" inertia="shell"/>
    <mesh name="octa" file="octa.stl"/>
  </asset>
  <worldbody>
    <body name="base" pos="0 0 1">
      <freejoint/>
      <geom type="mesh" mesh="tet" pos="0.1 -0.2 0.05" euler="10 20 30"/>
      <body name="arm" pos="0.3 0 0">
        <joint name="j1" axis="0 1 0"/>
        <geom type="mesh" mesh="ell" quat="0.8 0.2 -0.3 0.1" density="700"/>
        <body name="elbow" pos="0 0 -0.3">
          <joint name="j2" axis="1 0 0"/>
          <geom type="mesh" mesh="ell_exact" pos="0.02 0 0" density="2700"/>
          <geom type="mesh" mesh="flipped" pos="0 0.1 0"/>
          <body name="hand" pos="0.1 0 -0.2">
            <joint name="j3" type="ball"/>
            <geom type="mesh" mesh="box" pos="0.05 0 0" axisangle="1 1 0 40"/>
            <geom type="sphere" size="0.05" pos="0 0 -0.1"/>
            <body name="finger" pos="0 0.1 0">
              <joint name="j4" type="slide" axis="0 1 0"/>
              <geom type="mesh" mesh="octa" mass="0.3" pos="0 0.05 0"/>
              <geom type="mesh" mesh="shell" density="50" pos="0 0 0.1"/>
            </body>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>`;

/** MuJoCo's body i: mass, centre and inertia [xx, yy, zz, xy, xz, yz] (body_inertia along body_iquat) */
function mujocoBody(peer: MujocoPeer, i: number): { mass: number; com: number[]; inertia: number[] } {
  const m = peer.model;
  const d = Array.from((m.body_inertia as Float64Array).slice(3 * i, 3 * i + 3));
  const [w, x, y, z] = Array.from((m.body_iquat as Float64Array).slice(4 * i, 4 * i + 4));
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  const I = (a: number, b: number) => R[a][0] * d[0] * R[b][0] + R[a][1] * d[1] * R[b][1] + R[a][2] * d[2] * R[b][2];
  return {
    mass: (m.body_mass as Float64Array)[i],
    com: Array.from((m.body_ipos as Float64Array).slice(3 * i, 3 * i + 3)),
    inertia: [I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)],
  };
}

const bodiesOf = (robot: MjcfRobot) => {
  const all: MjcfBody[] = [];
  const walk = (b: MjcfBody) => (all.push(b), b.children.forEach(walk));
  robot.bodies.forEach(walk);
  return all;
};

/** |a - b| over the largest |b|, the worst of the entries */
const relative = (a: readonly number[], b: readonly number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i]))) / Math.max(...b.map(Math.abs));

describe('MJCF mesh geoms: mass properties as MuJoCo computes them', () => {
  // MuJoCo turns each mesh's tensor (and a body's of several geoms) to principal axes with a Jacobi
  // iteration that stops early (mesh-inertia.ts): a geom's principal moments are exact to ~1e-12, its
  // axes to ~1e-6 rad. So the moments are compared to 1e-10 and the whole tensor to 1e-6.
  it('every body: body_mass, body_ipos and the principal moments of a one-geom body to 1e-10, the tensor to 1e-6 (legacy, exact, shell; OBJ quads, binary STL, scale, refpos/refquat)', async () => {
    const robot = parseMjcf(ROBOT, 'meshes.xml', { readFile });
    const peer = await smoothPeer(ROBOT, { files: FILES });
    const bodies = bodiesOf(robot);
    expect(bodies.length).toBe(5);
    for (const b of bodies) {
      const mj = mujocoBody(peer, b.id);
      const k = b.inertial!;
      expect(Math.abs(k.mass - mj.mass) / mj.mass, `${b.name} mass`).toBeLessThan(1e-10);
      expect(relative(k.com, mj.com), `${b.name} centre of mass`).toBeLessThan(1e-10);
      // a body of one geom keeps its geom's exact moments; several geoms' truncated axes add up to ~4e-10 (the finger's STL)
      expect(relative(principalMoments(k.inertia), principalMoments(mj.inertia as Sym)), `${b.name} principal moments`).toBeLessThan(
        b.geoms.length === 1 ? 1e-10 : 1e-8,
      );
      expect(relative(k.inertia, mj.inertia), `${b.name} inertia`).toBeLessThan(1e-6);
    }
  });

  it('legacy over-counts a non-convex mesh, exact does not: both as MuJoCo', async () => {
    const xml = (rule: string) =>
      `<mujoco><asset><mesh name="ell" file="ell.obj" inertia="${rule}"/></asset><worldbody><body><joint/><geom type="mesh" mesh="ell"/></body></worldbody></mujoco>`;
    const mass = async (rule: string) => {
      const kron = parseMjcf(xml(rule), 'ell.xml', { readFile }).bodies[0].inertial!.mass;
      const peer = await smoothPeer(xml(rule), { files: FILES });
      return { kron, mujoco: mujocoBody(peer, 1).mass };
    };
    const [legacy, exact] = [await mass('legacy'), await mass('exact')];
    // the L's area is 4 (0.1 m)^2, its height 0.15 m: 6e-3 m^3, 6 kg of water (0.1 and 0.15 rounded to single precision, as MuJoCo keeps them)
    expect(Math.abs(exact.kron - 6) / 6).toBeLessThan(1e-7);
    expect(Math.abs(exact.kron - exact.mujoco)).toBeLessThan(1e-10);
    expect(Math.abs(legacy.kron - legacy.mujoco) / legacy.mujoco).toBeLessThan(1e-10);
    expect(legacy.kron).toBeGreaterThan(6.1);
  });

  it('convex: the hull of a non-convex mesh, and of <mesh vertex> without faces (an interior point left out), as MuJoCo (qhull) computes them', async () => {
    const xml = `<mujoco><asset><mesh name="ell" file="ell.obj" inertia="convex"/>
      <mesh name="cloud" vertex="0 0 0  0.3 0 0  0 0.2 0  0.05 0.1 0.4  0.05 0.05 0.05  0.2 0.1 0.1"/></asset>
      <worldbody><body><joint/><geom type="mesh" mesh="ell"/></body><body><joint/><geom type="mesh" mesh="cloud" pos="0.1 0 0" euler="0 30 0"/></body></worldbody></mujoco>`;
    const robot = parseMjcf(xml, 'convex.xml', { readFile });
    const peer = await smoothPeer(xml, { files: FILES });
    // the L's hull: the L and the triangle (1, 1), (2, 1), (1, 3) (0.1 m units) cut off its corner, 0.15 m high
    expect(robot.bodies[0].inertial!.mass).toBeCloseTo(1000 * 0.15 * (0.04 + 0.01), 5);
    for (const b of robot.bodies) {
      const mj = mujocoBody(peer, b.id),
        k = b.inertial!;
      expect(Math.abs(k.mass - mj.mass) / mj.mass).toBeLessThan(1e-10);
      expect(relative(k.com, mj.com)).toBeLessThan(1e-10);
      expect(relative(principalMoments(k.inertia), principalMoments(mj.inertia as Sym))).toBeLessThan(1e-10);
    }
  });

  it('an ASCII STL gives the mass of the same binary STL exactly (MuJoCo reads binary only)', () => {
    const body = (file: string) =>
      parseMjcf(
        `<mujoco><asset><mesh name="m" file="${file}"/></asset><worldbody><body><joint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>`,
        'x.xml',
        { readFile },
      ).bodies[0].inertial;
    expect(body('octa_ascii.stl')).toEqual(body('octa.stl'));
  });

  it('closed form: a unit-cube mesh of density rho has mass rho and inertia rho/6 about its centre', () => {
    for (const rule of ['legacy', 'exact']) {
      const rho = 2.5;
      const { mass, com, inertia } = parseMjcf(
        `<mujoco><asset><mesh name="c" file="cube.obj" inertia="${rule}"/></asset><worldbody><body><joint/><geom type="mesh" mesh="c" density="${rho}" pos="1 2 3"/></body></worldbody></mujoco>`,
        'c.xml',
        { readFile },
      ).bodies[0].inertial!;
      expect(mass).toBeCloseTo(rho, 13);
      expect(com.map((x, i) => x - [1.5, 2.5, 3.5][i]).every((x) => Math.abs(x) < 1e-14)).toBe(true);
      expect(relative(inertia, [rho / 6, rho / 6, rho / 6, 0, 0, 0])).toBeLessThan(1e-13);
    }
  });

  it('shellinertia="true" primitives (mass on the surface): each body: mass and inertia as MuJoCo computes them, to 1e-12', async () => {
    const shapes = ['sphere" size="0.1', 'capsule" size="0.05 0.2', 'cylinder" size="0.07 0.1', 'box" size="0.1 0.2 0.05', 'ellipsoid" size="0.1 0.15 0.2'];
    const xml = `<mujoco><worldbody>${shapes.map((s, i) => `<body pos="${i} 0 0"><joint/><geom type="${s}" shellinertia="true" density="3" euler="10 20 ${10 * i}" pos="0.1 0 0"/></body>`).join('')}</worldbody></mujoco>`;
    const robot = parseMjcf(xml, 'shells.xml');
    const peer = await smoothPeer(xml);
    for (const b of robot.bodies) {
      const mj = mujocoBody(peer, b.id),
        k = b.inertial!;
      expect(Math.abs(k.mass - mj.mass) / mj.mass, `${b.geoms[0].type} mass`).toBeLessThan(1e-12);
      expect(relative(k.inertia, mj.inertia), `${b.geoms[0].type} inertia`).toBeLessThan(1e-12);
    }
    // a spherical shell of surface density 3 kg/m^2: 3 x 4 pi r^2
    expect(robot.bodies[0].inertial!.mass).toBeCloseTo(3 * 4 * Math.PI * 0.01, 14);
  });

  for (const mode of ['relaxed', 'torn'] as Mode[]) {
    it(`qacc of the mesh robot equals MuJoCo's at 25 random states, ${mode}, to 1e-10`, async () => {
      const robot = parseMjcf(ROBOT, 'meshes.xml', { readFile });
      const c = compile(mjcfMechanism(robot, { limitsAndFriction: false }).mechanism, { mode });
      const peer = await smoothPeer(ROBOT, { files: FILES });
      expect(peer.nv).toBe(6 + 1 + 1 + 3 + 1);
      expect(worstQaccDifference(c, robot, peer)).toBeLessThan(1e-10);
    });
  }
});

describe('MJCF mesh geoms from files on disk (loadMjcf, as kron compile reads them)', () => {
  const dir = new URL('fixtures/mjcf/mesh-mass/', import.meta.url).pathname;
  const files = Object.fromEntries(['meshes/link.obj', 'meshes/hand.stl'].map((f) => [f, new Uint8Array(readFileSync(join(dir, f)))]));
  for (const mode of ['relaxed', 'torn'] as Mode[]) {
    it(`mesh-mass/arm.xml (OBJ quads, a scaled binary STL under exact, meshdir): qacc as MuJoCo's at 25 states, ${mode}, to 1e-9`, async () => {
      const { mechanism, warnings, included } = loadMjcf(join(dir, 'arm.xml'), { limitsAndFriction: false });
      expect(warnings.filter((w) => /mesh/.test(w))).toEqual([]);
      expect(
        Object.keys(included)
          .map((f) => f.replace(dir, ''))
          .sort(),
      ).toEqual(['meshes/hand.stl', 'meshes/link.obj']);
      const xml = readFileSync(join(dir, 'arm.xml'), 'utf8');
      const peer = await smoothPeer(xml, { files });
      const c = compile(mechanism, { mode });
      // 1.01e-10 measured: MuJoCo's principal axes of the hand's STL stop early (mesh-inertia.ts), the rest agrees to ~1e-15
      expect(worstQaccDifference(c, parseMjcf(xml, 'arm.xml', { readFile: (n) => files[n] }), peer)).toBeLessThan(1e-9);
    });
  }
});

describe('MJCF mesh geoms: what cannot give a mass is a ModelError naming the mesh and file', () => {
  const body = (mesh: string, files: Record<string, string | Uint8Array | (() => never)>) => () =>
    parseMjcf(
      `<mujoco><asset>\n<mesh ${mesh}/>\n</asset><worldbody><body name="b"><joint/><geom name="g" type="mesh" mesh="m"/></body></worldbody></mujoco>`,
      'bad.xml',
      {
        readFile: (n) => {
          const f = files[n];
          return typeof f === 'function' ? f() : f;
        },
      },
    );
  const refused = (f: () => unknown, message: RegExp, hint: RegExp) => {
    let error: unknown;
    try {
      f();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(message);
    expect((error as ModelError).details.hint).toMatch(hint);
  };

  it('a missing file names the mesh, the file and the geom that needs it', () => {
    refused(body('name="m" file="gone.stl"', {}), /mesh "m" \(gone\.stl\): the file is not found; bad\.xml:3: <geom name="g">/, /meshdir|<inertial>/);
  });

  it('an unreadable file (the reader throws EACCES)', () => {
    const denied = () => {
      throw Object.assign(new Error('permission denied'), { code: 'EACCES' });
    };
    refused(body('name="m" file="locked.obj"', { 'locked.obj': denied }), /mesh "m" \(locked\.obj\): the file could not be read \(EACCES\)/, /permissions/);
  });

  it('an inside-out mesh: exact refuses it (negative volume), legacy takes |volume| as MuJoCo does', async () => {
    const inverted = obj(
      CUBE_V,
      CUBE_F.map(([a, b, c]) => [a, c, b]),
    );
    refused(
      body('name="m" file="in.obj" inertia="exact"', { 'in.obj': inverted }),
      /mesh "m" \(in\.obj\): its volume -1 is negative: the triangles face inward/,
      /winding/,
    );
    expect(body('name="m" file="in.obj"', { 'in.obj': inverted })().bodies[0].inertial!.mass).toBeCloseTo(1000, 10);
    await expect(
      MujocoPeer.fromXml(
        '<mujoco><asset><mesh name="m" file="in.obj" inertia="exact"/></asset><worldbody><body><joint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>',
        { 'in.obj': text(inverted) },
      ),
    ).rejects.toThrow();
  });

  it('an open mesh under exact (MuJoCo documents exact as needing a watertight mesh)', () => {
    refused(
      body('name="m" file="open.obj" inertia="exact"', { 'open.obj': obj(CUBE_V, CUBE_F.slice(0, 10)) }),
      /mesh "m" \(open\.obj\): it is not closed/,
      /watertight|legacy/,
    );
  });

  it('a flat mesh has no volume', () => {
    const flat = obj(
      [
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [1, 1, 0],
      ],
      [
        [1, 2, 3],
        [1, 3, 2],
        [2, 4, 3],
        [2, 3, 4],
      ],
    );
    refused(body('name="m" file="flat.obj"', { 'flat.obj': flat }), /mesh "m" \(flat\.obj\): its volume 0 is too small/, /shell/);
  });

  it('malformed OBJ lines name their line; a cut-short binary STL and a bad ASCII facet are refused', () => {
    refused(body('name="m" file="a.obj"', { 'a.obj': 'v 0 0 0\nv 1 0\n' }), /mesh "m" \(a\.obj:2\): "1 0" is not three decimal coordinates/, /x y z/);
    refused(
      body('name="m" file="a.obj"', { 'a.obj': TET.replace('f 2 3 4', 'f 2 3 9') }),
      /mesh "m" \(a\.obj:7\): face vertex "9" is not one of the 4 vertices/,
      /count from 1/,
    );
    refused(body('name="m" file="a.obj"', { 'a.obj': 'v 0 0 0\nv nan 0 0\n' }), /a\.obj:2\): "nan 0 0" is not three/, /x y z/);
    refused(
      body('name="m" file="c.stl"', { 'c.stl': binaryStl(OCTA_V, OCTA_F).slice(0, 300) }),
      /mesh "m" \(c\.stl\): the file is neither a binary STL \(300 bytes/,
      /cut short/,
    );
    refused(
      body('name="m" file="c.stl"', { 'c.stl': asciiStl(OCTA_V, OCTA_F).replace(/ {6}vertex 0 0 0\.25\n/, '') }),
      /mesh "m" \(c\.stl:\d+\): the facet has 2 vertices/,
      /three vertex lines/,
    );
  });

  it('shellinertia on a mesh geom is refused as MuJoCo refuses it; an unknown rule is refused', () => {
    expect(() =>
      parseMjcf(
        '<mujoco><asset><mesh name="m" file="tet.obj"/></asset><worldbody><body><joint/><geom type="mesh" mesh="m" shellinertia="true"/></body></worldbody></mujoco>',
        'x.xml',
        { readFile },
      ),
    ).toThrow(/shellinertia is given on a mesh geom/);
    refused(body('name="m" file="tet.obj" inertia="hull"', { 'tet.obj': TET }), /inertia="hull" is not one of legacy, exact, convex, shell/, /legacy/);
  });

  it('a body with an <inertial> never reads its meshes: a missing file is no error there', () => {
    const robot = parseMjcf(
      '<mujoco><asset><mesh name="m" file="gone.stl"/></asset><worldbody><body><inertial mass="1" pos="0 0 0" diaginertia="1 1 1"/><joint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>',
      'x.xml',
      {},
    );
    expect(robot.bodies[0].inertial!.mass).toBe(1);
  });
});
