// Meshes a URDF names: found next to the file (plain, package:// and file://
// names), carried in the scene's geometry with their scale and rotation;
// missing ones are placeholders with a warning. And rpyQuaternion is the
// rotation of rpyMatrix.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Body } from '../../src/library/multibody/index.ts';
import { rpyMatrix, rpyQuaternion } from '../../src/io/urdf.ts';
import { findMesh, loadUrdf } from '../../src/node/urdf-file.ts';

const root = mkdtempSync(join(tmpdir(), 'kron-urdf-mesh-'));
const robot = join(root, 'arm', 'urdf');
mkdirSync(join(root, 'arm', 'meshes'), { recursive: true });
mkdirSync(robot, { recursive: true });
for (const f of ['arm/meshes/upper.stl', 'arm/urdf/near.obj', 'arm/meshes/fore.dae', 'arm/meshes/notes.txt']) writeFileSync(join(root, f), 'solid x\nendsolid x\n');
const urdf = join(robot, 'arm.urdf');

describe('findMesh', () => {
  it('finds plain, package:// and file:// names next to the URDF or one folder up', () => {
    expect(findMesh(urdf, 'near.obj')).toBe(join(robot, 'near.obj'));
    expect(findMesh(urdf, 'package://arm/meshes/upper.stl')).toBe(join(root, 'arm/meshes/upper.stl'));
    expect(findMesh(urdf, 'package://other/meshes/fore.dae')).toBe(join(robot, '..', 'meshes/fore.dae'));
    expect(findMesh(urdf, pathToFileURL(join(root, 'arm/meshes/upper.stl')).href)).toBe(join(root, 'arm/meshes/upper.stl'));
  });

  it('is undefined for files that are missing or not STL, DAE or OBJ', () => {
    expect(findMesh(urdf, 'package://arm/meshes/gone.stl')).toBeUndefined();
    expect(findMesh(urdf, 'package://arm/meshes/notes.txt')).toBeUndefined();
    expect(findMesh(urdf, '../meshes')).toBeUndefined();
  });
});

describe('loadUrdf with meshes', () => {
  it('carries the file found, the scale and the rotation; a missing mesh warns', () => {
    writeFileSync(urdf, `<robot name="arm">
  <link name="base"><visual><origin rpy="0 0 0.5"/><geometry><mesh filename="package://arm/meshes/upper.stl" scale="0.001 0.001 0.001"/></geometry></visual></link>
  <link name="tip"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="package://arm/meshes/gone.stl"/></geometry></visual></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="tip"/><axis xyz="0 0 1"/></joint>
</robot>`);
    const { mechanism, warnings } = loadUrdf(urdf);
    const body = (name: string) => mechanism.children.find((c) => c.localName === name) as Body;
    expect(body('base').geometry).toMatchObject({
      shape: { type: 'mesh', filename: 'package://arm/meshes/upper.stl', file: join(root, 'arm/meshes/upper.stl'), scale: [0.001, 0.001, 0.001] },
      orientation: [0, 0, Math.sin(0.25), Math.cos(0.25)],
    });
    expect(body('tip').geometry!.shape).toEqual({ type: 'mesh', filename: 'package://arm/meshes/gone.stl', radius: 0.05 });
    expect(warnings).toEqual(['link tip: mesh "package://arm/meshes/gone.stl" is not found next to the URDF, drawn as a placeholder sphere']);
  });
});

describe('rpyQuaternion', () => {
  it('is the rotation of rpyMatrix (Rz(yaw) Ry(pitch) Rx(roll))', () => {
    for (const rpy of [[0.3, -1.2, 2.5], [-2, 0.4, -0.1], [Math.PI / 2, 0, 0]] as [number, number, number][]) {
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
