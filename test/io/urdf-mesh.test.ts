// Meshes a URDF names: found under the URDF's package root (plain,
// package:// and file:// names), carried in the scene's geometry with their
// scale and rotation; missing ones are placeholders with a warning; names
// that leave the root (../, absolute paths, file://, package://x/../..,
// symbolic links) or name no file of this machine are refused with a warning
// naming the link, the mesh and why, never an exception. The oracle is the
// file tree each test builds: which files lie inside which folder is known
// by construction. And rpyQuaternion is the rotation of rpyMatrix.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Body } from '../../src/library/multibody/index.ts';
import { rpyMatrix, rpyQuaternion } from '../../src/io/urdf.ts';
import { loadUrdf } from '../../src/node/urdf-file.ts';
import { main } from '../../src/cli/main.ts';
import { findMesh, inside, packageRoot, rosPackagePath } from '../../src/node/urdf-mesh.ts';

// <tmp>/arm/{urdf/arm.urdf, urdf/near.obj, meshes/*}, <tmp>/outside/secret.stl, <tmp>/shared/tools/meshes/grip.stl
const root = realpathSync(mkdtempSync(join(tmpdir(), 'kron-urdf-mesh-')));
const robot = join(root, 'arm', 'urdf');
for (const d of ['arm/meshes', 'arm/urdf', 'outside', 'shared/tools/meshes']) mkdirSync(join(root, d), { recursive: true });
for (const f of [
  'arm/meshes/upper.stl',
  'arm/urdf/near.obj',
  'arm/meshes/fore.dae',
  'arm/meshes/notes.txt',
  'outside/secret.stl',
  'shared/tools/meshes/grip.stl',
]) {
  writeFileSync(join(root, f), 'solid x\nendsolid x\n');
}
symlinkSync(join(root, 'outside', 'secret.stl'), join(robot, 'shadow.obj')); // a link next to the URDF that leaves the root
symlinkSync(join(root, 'outside'), join(root, 'arm', 'linked')); // a folder inside the root that is elsewhere
symlinkSync(join(root, 'arm', 'meshes', 'upper.stl'), join(robot, 'alias.stl')); // a link that stays inside: fine
const urdf = join(robot, 'arm.urdf');
const file = (name: string, packagePath: string[] = []) => {
  const found = findMesh(urdf, name, packagePath);
  return 'file' in found ? found.file : found.why;
};

describe('findMesh', () => {
  it('finds plain, package:// and file:// names under the package root (the parent of a folder named urdf)', () => {
    expect(packageRoot(urdf)).toBe(join(root, 'arm'));
    expect(file('near.obj')).toBe(join(robot, 'near.obj'));
    expect(file('package://arm/meshes/upper.stl')).toBe(join(root, 'arm/meshes/upper.stl'));
    expect(file('package://other/meshes/fore.dae')).toBe(join(root, 'arm/meshes/fore.dae'));
    expect(file('../meshes/upper.stl')).toBe(join(root, 'arm/meshes/upper.stl'));
    expect(file(pathToFileURL(join(root, 'arm/meshes/upper.stl')).href)).toBe(join(root, 'arm/meshes/upper.stl'));
    expect(file(join(root, 'arm/meshes/upper.stl'))).toBe(join(root, 'arm/meshes/upper.stl'));
    expect(file('alias.stl')).toBe(join(root, 'arm/meshes/upper.stl')); // the real path, which is inside
  });

  it('says why for files that are missing or not STL, DAE or OBJ', () => {
    expect(file('package://arm/meshes/gone.stl')).toBe('is not found next to the URDF');
    expect(file('package://arm/meshes/notes.txt')).toMatch(/^is not an STL, DAE or OBJ file/);
    expect(file('../meshes')).toMatch(/^is not an STL, DAE or OBJ file/);
  });

  it('refuses every name that leads out of the root, symbolic links followed, naming where it leads', () => {
    const secret = join(root, 'outside', 'secret.stl');
    const outside = `resolves to ${secret}`;
    for (const name of ['../../outside/secret.stl', secret, pathToFileURL(secret).href, 'package://x/../../outside/secret.stl', '../linked/secret.stl']) {
      expect(file(name), name).toMatch(new RegExp(`^${outside}, outside the URDF's package root ${join(root, 'arm')} where meshes must lie`));
    }
    expect(file('package://arm/../outside/secret.stl')).toMatch(new RegExp(`^${outside}, outside package arm's folder ${join(root, 'arm')} `));
    expect(file('shadow.obj')).toBe(
      `${outside} (${join(robot, 'shadow.obj')} is a symbolic link), outside the URDF's package root ${join(root, 'arm')} where meshes must lie (ROS_PACKAGE_PATH adds package folders)`,
    );
  });

  it('names that are no file of this machine are refused with the reason, not thrown (file://host, encoded /, NUL, http:, package:// without a path)', () => {
    expect(file('file://host/x.stl')).toBe('is a file:// URL on another machine (host "host"), not a file here');
    expect(file('file:///a%2fb.stl')).toBe('is not a file path of this machine (File URL path must not include encoded / characters)');
    expect(file('file:///a%00b.stl')).toBe('contains a NUL character');
    expect(file('file://[::1/x.stl')).toBe('is not a valid file:// URL');
    expect(file('https://example.com/x.stl')).toMatch(/^is a https: URL; Kron reads meshes from files only/);
    expect(file('package:///x.stl')).toMatch(/^names no package and file/);
    expect(file('package://arm.stl')).toMatch(/^names no package and file/);
  });

  it('a package.xml above the URDF makes its folder the root; without one, a URDF not in urdf/ has its own folder', () => {
    const pkg = join(root, 'pkgd');
    mkdirSync(join(pkg, 'robots', 'deep'), { recursive: true });
    mkdirSync(join(pkg, 'meshes'), { recursive: true });
    writeFileSync(join(pkg, 'package.xml'), '<package><name>pkgd</name></package>');
    writeFileSync(join(pkg, 'meshes', 'm.stl'), 'solid\n');
    const deep = join(pkg, 'robots', 'deep', 'r.urdf');
    expect(packageRoot(deep)).toBe(pkg);
    expect(findMesh(deep, '../../meshes/m.stl', [])).toEqual({ file: join(pkg, 'meshes', 'm.stl') });
    const loose = join(root, 'loose');
    mkdirSync(loose);
    writeFileSync(join(loose, 'm.stl'), 'solid\n');
    expect(packageRoot(join(loose, 'r.urdf'))).toBe(loose);
    expect(findMesh(join(loose, 'r.urdf'), 'm.stl', [])).toEqual({ file: join(loose, 'm.stl') });
    expect(findMesh(join(loose, 'r.urdf'), '../arm/meshes/upper.stl', [])).toMatchObject({
      why: expect.stringMatching(`outside the URDF's package root ${loose} `),
    });
  });

  it('a package on ROS_PACKAGE_PATH: package:// finds it there, confined to its folder; absolute names may point into it', () => {
    const path = [join(root, 'shared')];
    expect(rosPackagePath({ ROS_PACKAGE_PATH: `${join(root, 'shared')}::/nonexistent` })).toEqual([join(root, 'shared'), '/nonexistent']);
    expect(file('package://tools/meshes/grip.stl', path)).toBe(join(root, 'shared/tools/meshes/grip.stl'));
    expect(file('package://tools/meshes/grip.stl')).toBe('is not found next to the URDF');
    expect(file(join(root, 'shared/tools/meshes/grip.stl'), path)).toBe(join(root, 'shared/tools/meshes/grip.stl'));
    expect(file(join(root, 'shared/tools/meshes/grip.stl'))).toMatch(/^resolves to .*grip.stl, outside the URDF's package root/);
    expect(file('package://tools/../../outside/secret.stl', path)).toMatch(/^resolves to .*secret.stl, outside package tools's folder/);
  });

  it('an ancestor named like the package is its folder only when it is a ROS package or within the root (package://home/... does not open /home)', () => {
    const home = join(root, 'home');
    mkdirSync(join(home, 'u', 'robot'), { recursive: true });
    mkdirSync(join(home, 'v'), { recursive: true });
    writeFileSync(join(home, 'v', 'secret.stl'), 'solid\n');
    const there = join(home, 'u', 'robot', 'r.urdf');
    expect(findMesh(there, 'package://home/v/secret.stl', [])).toEqual({ why: 'is not found next to the URDF', reason: 'not found next to the URDF' });
    writeFileSync(join(home, 'package.xml'), '<package><name>home</name></package>'); // now it is a package, and the URDF's root
    expect(findMesh(there, 'package://home/v/secret.stl', [])).toEqual({ file: join(home, 'v', 'secret.stl') });
  });

  it('inside: below the folder, not the folder itself, not a sibling whose name starts alike', () => {
    expect(inside('/a/b', '/a/b/c.stl')).toBe(true);
    expect(inside('/a/b', '/a/b')).toBe(false);
    expect(inside('/a/b', '/a/bc/c.stl')).toBe(false);
    expect(inside('/a/b', '/a/b/..c.stl')).toBe(true);
  });
});

describe('loadUrdf with meshes', () => {
  it('carries the file found, the scale and the rotation; a missing mesh warns', () => {
    writeFileSync(
      urdf,
      `<robot name="arm">
  <link name="base"><visual><origin rpy="0 0 0.5"/><geometry><mesh filename="package://arm/meshes/upper.stl" scale="0.001 0.001 0.001"/></geometry></visual></link>
  <link name="tip"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="package://arm/meshes/gone.stl"/></geometry></visual></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="tip"/><axis xyz="0 0 1"/></joint>
</robot>`,
    );
    const { mechanism, warnings } = loadUrdf(urdf);
    const body = (name: string) => mechanism.children.find((c) => c.localName === name) as Body;
    expect(body('base').geometry).toMatchObject({
      shape: { type: 'mesh', filename: 'package://arm/meshes/upper.stl', file: join(root, 'arm/meshes/upper.stl'), scale: [0.001, 0.001, 0.001] },
      orientation: [0, 0, Math.sin(0.25), Math.cos(0.25)],
    });
    expect(body('tip').geometry!.shape).toEqual({ type: 'mesh', filename: 'package://arm/meshes/gone.stl', radius: 0.05 });
    expect(warnings).toEqual(['link tip: mesh "package://arm/meshes/gone.stl" is not found next to the URDF, drawn as a placeholder sphere']);
  });

  it('bad file:// URLs and escapes are warnings naming the link, the mesh and why; the links are placeholders (was: internal error TypeError)', () => {
    const bad = join(robot, 'bad.urdf');
    const link = (name: string, mesh: string) => `<link name="${name}"><visual><geometry><mesh filename="${mesh}"/></geometry></visual></link>`;
    const meshes = { host: 'file://host/x.stl', slash: 'file:///a%2fb.stl', link: 'shadow.obj', up: '../../outside/secret.stl' };
    writeFileSync(
      bad,
      `<robot name="bad">${link('base', 'near.obj')}${Object.entries(meshes)
        .map(([n, m]) => link(n, m))
        .join('')}
${Object.keys(meshes)
  .map((n) => `<joint name="to_${n}" type="fixed"><parent link="base"/><child link="${n}"/></joint>`)
  .join('')}</robot>`,
    );
    const { mechanism, warnings } = loadUrdf(bad);
    expect(warnings).toEqual([
      'link host: mesh "file://host/x.stl" is a file:// URL on another machine (host "host"), not a file here, drawn as a placeholder sphere',
      'link slash: mesh "file:///a%2fb.stl" is not a file path of this machine (File URL path must not include encoded / characters), drawn as a placeholder sphere',
      `link link: mesh "shadow.obj" resolves to ${join(root, 'outside/secret.stl')} (${join(robot, 'shadow.obj')} is a symbolic link), outside the URDF's package root ${join(root, 'arm')} where meshes must lie (ROS_PACKAGE_PATH adds package folders), drawn as a placeholder sphere`,
      `link up: mesh "../../outside/secret.stl" resolves to ${join(root, 'outside/secret.stl')}, outside the URDF's package root ${join(root, 'arm')} where meshes must lie (ROS_PACKAGE_PATH adds package folders), drawn as a placeholder sphere`,
    ]);
    const shapes = mechanism.children.flatMap((c) => ((c as Body).geometry ? [(c as Body).geometry!.shape] : []));
    expect(shapes.filter((s) => s.type === 'mesh' && s.file).map((s) => s.type === 'mesh' && s.file)).toEqual([join(robot, 'near.obj')]);
  });

  it('kron simulate of a URDF with file://host and encoded-slash meshes: exit 0 with the warnings (was: internal error TypeError, exit 1)', async () => {
    const odd = join(robot, 'odd.urdf');
    writeFileSync(
      odd,
      `<robot name="odd"><link name="base"><visual><geometry><mesh filename="file://host/x.stl"/></geometry></visual></link>
<link name="b"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial><visual><geometry><mesh filename="file:///a%2fb.stl"/></geometry></visual></link>
<joint name="j1" type="revolute"><parent link="base"/><child link="b"/><axis xyz="0 1 0"/></joint></robot>`,
    );
    let stdout = '',
      stderr = '';
    const code = await main(['simulate', odd, '--stop', '0.01'], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
    });
    expect(code, stderr).toBe(0);
    expect(stderr.split('\n').filter((l) => l.startsWith('warning:'))).toEqual([
      'warning: link base: mesh "file://host/x.stl" is a file:// URL on another machine (host "host"), not a file here, drawn as a placeholder sphere',
      'warning: link b: mesh "file:///a%2fb.stl" is not a file path of this machine (File URL path must not include encoded / characters), drawn as a placeholder sphere',
    ]);
    expect(stdout.split('\n')[0]).toBe('time,j1.q,j1.qd');
  });

  it('packagePath (default ROS_PACKAGE_PATH) names the folders of packages', () => {
    const tool = join(robot, 'tool.urdf');
    writeFileSync(
      tool,
      '<robot name="t"><link name="g"><visual><geometry><mesh filename="package://tools/meshes/grip.stl"/></geometry></visual></link></robot>',
    );
    const shape = (m: ReturnType<typeof loadUrdf>) => (m.mechanism.children.find((c) => c.localName === 'g') as Body).geometry!.shape;
    expect(shape(loadUrdf(tool, { packagePath: [join(root, 'shared')] }))).toMatchObject({ file: join(root, 'shared/tools/meshes/grip.stl') });
    expect(shape(loadUrdf(tool, { packagePath: [] }))).not.toHaveProperty('file');
  });
});

describe('rpyQuaternion', () => {
  it('is the rotation of rpyMatrix (Rz(yaw) Ry(pitch) Rx(roll))', () => {
    for (const rpy of [
      [0.3, -1.2, 2.5],
      [-2, 0.4, -0.1],
      [Math.PI / 2, 0, 0],
    ] as [number, number, number][]) {
      const [x, y, z, w] = rpyQuaternion(rpy);
      const fromQ = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
      ];
      rpyMatrix(rpy).forEach((row, i) => row.forEach((v, j) => expect(fromQ[i][j]).toBeCloseTo(v, 14)));
    }
  });
});
