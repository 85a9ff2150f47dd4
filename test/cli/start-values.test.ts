// --start for the vectors of free and ball joints (src/cli/start-values.ts):
// comma lists become components; a quaternion is normalised; roll-pitch-yaw
// and axis-angle give the quaternion of R = Rz(yaw) Ry(pitch) Rx(roll) and of
// the turn, checked by the rotation matrix each quaternion makes against the
// matrix product written here; bad input is a usage error.
import { describe, expect, it } from 'vitest';
import { expandStarts } from '../../src/cli/start-values.ts';
import { main } from '../../src/cli/main.ts';

const values = (list: string[]) => expandStarts(list).map((s) => Number(s.split('=')[1]));
const quatR = ([w, x, y, z]: number[]) => [
  [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
  [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
  [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
];
const mul = (A: number[][], B: number[][]) => A.map((row) => [0, 1, 2].map((j) => row[0] * B[0][j] + row[1] * B[1][j] + row[2] * B[2][j]));
const Rx = (a: number) => [
  [1, 0, 0],
  [0, Math.cos(a), -Math.sin(a)],
  [0, Math.sin(a), Math.cos(a)],
];
const Ry = (a: number) => [
  [Math.cos(a), 0, Math.sin(a)],
  [0, 1, 0],
  [-Math.sin(a), 0, Math.cos(a)],
];
const Rz = (a: number) => [
  [Math.cos(a), -Math.sin(a), 0],
  [Math.sin(a), Math.cos(a), 0],
  [0, 0, 1],
];
const close = (A: number[][], B: number[][]) => Math.max(...A.flatMap((row, i) => row.map((v, j) => Math.abs(v - B[i][j]))));

describe('--start vectors', () => {
  it('components, a normalised quaternion, scalars kept', () => {
    expect(expandStarts(['j.r=1,2,3', 'j1.q=0.5'])).toEqual(['j.r[1]=1', 'j.r[2]=2', 'j.r[3]=3', 'j1.q=0.5']);
    const q = values(['j.Q=2,0,0,2']);
    [Math.SQRT1_2, 0, 0, Math.SQRT1_2].forEach((v, i) => expect(Math.abs(q[i] - v)).toBeLessThan(1e-15));
  });

  it('rpy: and axis: give the quaternion of Rz(yaw) Ry(pitch) Rx(roll) and of the turn', () => {
    const [r, p, y] = [0.3, -0.7, 2.1];
    expect(close(quatR(values([`j.Q=rpy:${r},${p},${y}`])), mul(mul(Rz(y), Ry(p)), Rx(r)))).toBeLessThan(1e-15);
    // a turn about y by 0.9: Ry(0.9)
    expect(close(quatR(values(['b.Q=axis:0,2,0,0.9'])), Ry(0.9))).toBeLessThan(1e-15);
  });

  it('a zero quaternion, a short one, rpy on a vector that is not an orientation: usage errors (exit 2)', async () => {
    let err = '';
    const io = { stdout: { write: () => {} }, stderr: { write: (t: string) => (err += t) } };
    for (const [start, message] of [
      ['j.Q=0,0,0,0', 'UsageError: --start j.Q=0,0,0,0 is not a quaternion of non-zero length'],
      ['j.Q=1,0,0', 'UsageError: --start j.Q=1,0,0 is not a quaternion of non-zero length'],
      ['j.r=rpy:0,0,1', 'UsageError: --start j.r=rpy:0,0,1: rpy gives an orientation, and j.r is not one'],
      ['j.Q=axis:0,0,0,1', 'UsageError: --start j.Q=axis:0,0,0,1: axis takes x, y, z (not all zero) and an angle in rad'],
    ]) {
      err = '';
      expect(await main(['simulate', 'mechanisms/tumbling.ts', '--start', start, '--stop', '0'], io)).toBe(2);
      expect(err.split('\n')[0]).toBe(message);
    }
  });
});
