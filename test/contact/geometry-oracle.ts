// Independent oracles for the contact tests: rotations by Rodrigues' formula
// (not the quaternion code under test), signed distance functions of each
// shape (the usual closed forms, in the shape's own frame), and points
// sampled on each shape's surface.
import type { CollisionShape } from '../../src/contact/shapes.ts';
import { hullSamples, hullSdf, hullTriangles, pointsOf } from './convex-oracle.ts';

/** a convex shape's brute-force face triangles, once per vertex list */
const triangles = new WeakMap<readonly number[], ReturnType<typeof hullTriangles>>();
const trianglesOf = (v: readonly number[]) => triangles.get(v) ?? triangles.set(v, hullTriangles(pointsOf(v))).get(v)!;

export type V3 = [number, number, number];

/** a rotation matrix (rows) about unit-less axis by angle (Rodrigues) */
export function rodrigues(axis: readonly number[], angle: number): number[][] {
  const n = Math.hypot(axis[0], axis[1], axis[2]);
  const [x, y, z] = axis.map((a) => a / n);
  const c = Math.cos(angle),
    s = Math.sin(angle),
    C = 1 - c;
  return [
    [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
    [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
    [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
  ];
}

/** poses (stride 12: R row-major, then p) of the given rotations and origins */
export function poses(...list: { R: number[][]; p: readonly number[] }[]): Float64Array {
  const out = new Float64Array(12 * list.length);
  list.forEach(({ R, p }, k) => {
    out.set(R.flat(), 12 * k);
    out.set(p, 12 * k + 9);
  });
  return out;
}

/** x (world) in the frame of the pose at index k */
export function local(pose: ArrayLike<number>, k: number, x: readonly number[]): V3 {
  const a = 12 * k,
    w = [x[0] - pose[a + 9], x[1] - pose[a + 10], x[2] - pose[a + 11]];
  return [0, 1, 2].map((j) => pose[a + j] * w[0] + pose[a + 3 + j] * w[1] + pose[a + 6 + j] * w[2]) as V3;
}

/** a point given in the frame of the pose at index k, in world coordinates */
export function world(pose: ArrayLike<number>, k: number, y: readonly number[]): V3 {
  const a = 12 * k;
  return [0, 1, 2].map((i) => pose[a + 9 + i] + pose[a + 3 * i] * y[0] + pose[a + 3 * i + 1] * y[1] + pose[a + 3 * i + 2] * y[2]) as V3;
}

/** the signed distance of local point y to the shape (negative inside) */
export function sdf(s: CollisionShape, y: readonly number[]): number {
  const [x, yy, z] = y;
  switch (s.type) {
    case 'sphere':
      return Math.hypot(x, yy, z) - s.radius;
    case 'capsule': {
      const h = s.length / 2,
        zc = Math.max(-h, Math.min(h, z));
      return Math.hypot(x, yy, z - zc) - s.radius;
    }
    case 'box': {
      const q = [Math.abs(x) - s.size[0] / 2, Math.abs(yy) - s.size[1] / 2, Math.abs(z) - s.size[2] / 2];
      return Math.hypot(...q.map((v) => Math.max(v, 0))) + Math.min(Math.max(...q), 0);
    }
    case 'cylinder': {
      const dr = Math.hypot(x, yy) - s.radius,
        dz = Math.abs(z) - s.length / 2;
      return Math.min(Math.max(dr, dz), 0) + Math.hypot(Math.max(dr, 0), Math.max(dz, 0));
    }
    case 'plane':
      return z;
    case 'convex':
      return hullSdf(trianglesOf(s.vertices), y);
  }
}

/** about n points on the shape's surface, in its own frame (a plane: none) */
export function surfaceSamples(s: CollisionShape, n: number): V3[] {
  const out: V3[] = [];
  const sphere = (c: number, r: number, half: 0 | 1 | -1, m: number) => {
    // Fibonacci points on a sphere (or one hemisphere, z of the sign of half)
    for (let k = 0; k < m; k++) {
      const zz = 1 - (2 * (k + 0.5)) / m,
        rho = Math.sqrt(1 - zz * zz),
        phi = k * Math.PI * (3 - Math.sqrt(5));
      if (half === 0 || Math.sign(zz) === half) out.push([r * rho * Math.cos(phi), r * rho * Math.sin(phi), c + r * zz]);
    }
  };
  const side = (r: number, h: number, m: number) => {
    const rings = Math.ceil(Math.sqrt(m)),
      per = Math.ceil(m / rings);
    for (let i = 0; i <= rings; i++)
      for (let j = 0; j < per; j++) {
        const phi = (2 * Math.PI * j) / per;
        out.push([r * Math.cos(phi), r * Math.sin(phi), -h + (2 * h * i) / rings]);
      }
  };
  switch (s.type) {
    case 'sphere':
      sphere(0, s.radius, 0, n);
      break;
    case 'capsule':
      (sphere(s.length / 2, s.radius, 1, n), sphere(-s.length / 2, s.radius, -1, n), side(s.radius, s.length / 2, n));
      break;
    case 'box': {
      const m = Math.ceil(Math.sqrt(n / 6)),
        h = s.size.map((v) => v / 2);
      for (let f = 0; f < 3; f++)
        for (const sg of [-1, 1])
          for (let i = 0; i <= m; i++)
            for (let j = 0; j <= m; j++) {
              const p = [0, 0, 0],
                [u, v] = [(f + 1) % 3, (f + 2) % 3];
              ((p[f] = sg * h[f]), (p[u] = -h[u] + (2 * h[u] * i) / m), (p[v] = -h[v] + (2 * h[v] * j) / m));
              out.push(p as V3);
            }
      break;
    }
    case 'cylinder': {
      side(s.radius, s.length / 2, n);
      const rings = Math.ceil(Math.sqrt(n) / 2),
        per = Math.ceil(Math.sqrt(n));
      for (const sg of [-1, 1])
        for (let i = 0; i <= rings; i++)
          for (let j = 0; j < per; j++) {
            const r = (s.radius * i) / rings,
              phi = (2 * Math.PI * j) / per;
            out.push([r * Math.cos(phi), r * Math.sin(phi), (sg * s.length) / 2]);
          }
      break;
    }
    case 'plane':
      break;
    case 'convex':
      out.push(...hullSamples(pointsOf(s.vertices), n));
      break;
  }
  return out;
}
