// The convex hull (src/contact/convex-hull.ts) against brute force: for points
// in general position, a triangle of three of them is a hull face exactly
// when every other point lies on one side of its plane; the hull's volume is
// the sum of those faces' signed tetrahedra (divergence theorem). Fuzzed over
// random point clouds; a grid (many coplanar points) has the box's volume;
// a flat set has no hull.
import { describe, expect, it } from 'vitest';
import { convexHull } from '../../src/contact/convex-hull.ts';
import { rng } from '../../src/bench/timing.ts';

const at = (xyz: readonly number[], i: number) => xyz.slice(3 * i, 3 * i + 3);
const det = (a: number[], b: number[], c: number[]) =>
  a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);

/** the volume enclosed by outward triangles: sum of det(a, b, c)/6 */
function volume(xyz: readonly number[], t: readonly number[]): number {
  let v = 0;
  for (let i = 0; i < t.length; i += 3) v += det(at(xyz, t[i]), at(xyz, t[i + 1]), at(xyz, t[i + 2])) / 6;
  return v;
}

/** brute force: every triple with all points on one side, oriented outward */
function bruteVolume(xyz: readonly number[]): number {
  const n = xyz.length / 3;
  let v = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (let k = j + 1; k < n; k++) {
        const [a, b, c] = [at(xyz, i), at(xyz, j), at(xyz, k)];
        const side = (p: number[]) =>
          det([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]], [p[0] - a[0], p[1] - a[1], p[2] - a[2]]);
        let pos = 0,
          neg = 0;
        for (let m = 0; m < n; m++) if (m !== i && m !== j && m !== k) side(at(xyz, m)) > 0 ? pos++ : neg++;
        if (pos && neg) continue;
        // outward: the other points behind
        v += ((pos ? -1 : 1) * det(a, b, c)) / 6;
      }
  return v;
}

describe('convex hull', () => {
  it('random clouds (4 to 40 points, 60 seeds): closed, every point inside every face, the brute-force volume to 1e-12', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const rand = rng(seed);
      const n = 4 + (seed % 37);
      const xyz = Array.from({ length: 3 * n }, () => 2 * rand() - 1);
      const t = convexHull(xyz)!;
      expect(t, `seed ${seed}`).toBeDefined();
      for (let f = 0; f < t.length; f += 3) {
        const [a, b, c] = [at(xyz, t[f]), at(xyz, t[f + 1]), at(xyz, t[f + 2])];
        for (let m = 0; m < n; m++) {
          const p = at(xyz, m);
          expect(det([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]], [p[0] - a[0], p[1] - a[1], p[2] - a[2]])).toBeLessThan(
            1e-12,
          );
        }
      }
      expect(Math.abs(volume(xyz, t) - bruteVolume(xyz)), `seed ${seed}`).toBeLessThan(1e-12);
    }
  });

  it('a 4 x 4 x 4 grid (coplanar points on every face): the box, volume 27', () => {
    const xyz = [];
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) for (let k = 0; k < 4; k++) xyz.push(i, j, k);
    const t = convexHull(xyz)!;
    expect(volume(xyz, t)).toBeCloseTo(27, 12);
  });

  it('points on a sphere (all on the hull) and 2000 points in a ball', () => {
    const rand = rng(3);
    const sphere = Array.from({ length: 200 }, () => {
      const [z, phi] = [2 * rand() - 1, 2 * Math.PI * rand()];
      return [Math.sqrt(1 - z * z) * Math.cos(phi), Math.sqrt(1 - z * z) * Math.sin(phi), z];
    }).flat();
    const t = convexHull(sphere)!;
    expect(t.length / 3).toBe(2 * 200 - 4);
    const ball = Array.from({ length: 2000 }, () => [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1]).flat();
    expect(volume(ball, convexHull(ball)!)).toBeGreaterThan(7.5);
  });

  it('a flat or too small set has no hull', () => {
    expect(convexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 0])).toBeUndefined();
    expect(convexHull([0, 0, 0, 1, 0, 0, 0, 1, 0])).toBeUndefined();
  });
});
