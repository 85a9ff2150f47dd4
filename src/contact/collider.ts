// A collision geometry on a body (BodyOptions.collision) or on the world
// (Mechanism.ground): a shape at a pose in the body's frame_a, its contact
// parameters and its filter bits. Plain data, like the viewer's Geometry.
import type { ContactMaterial } from './material.ts';
import { checkMaterial } from './material.ts';
import { type CollisionShape, checkShape } from './shapes.ts';
import { ModelError } from '../errors.ts';

/** a collision geometry on a body (BodyOptions.collision): its shape, pose, material and filter */
export interface Collider {
  /** sphere, capsule, box, cylinder, plane or convex (shapes.ts) */
  shape: CollisionShape;
  /** a name for messages and for the pair's signals (default: collision1, collision2, ... on its body) */
  name?: string;
  /** where the shape's origin sits, in frame_a coordinates (m) */
  offset?: readonly [number, number, number];
  /** the shape's rotation into frame_a coordinates, a unit quaternion [x, y, z, w] (as Geometry.orientation) */
  orientation?: readonly [number, number, number, number];
  /** contact parameters (material.ts); none: the other geometry's, or MuJoCo's defaults */
  material?: ContactMaterial;
  /** MuJoCo's bitmasks (filter.ts); default 1 and 1 */
  contype?: number;
  /** the other bitmask: a pair may touch when one's contype meets the other's conaffinity */
  conaffinity?: number;
}

// (colliders, owner for messages) => nothing, or a ModelError naming the geometry and what is wrong with it
export function checkColliders(list: readonly Collider[], owner: string): void {
  list.forEach((c, k) => {
    const who = `${owner} (${c.name ?? `collision${k + 1}`})`;
    checkShape(c.shape, who);
    if (c.material) checkMaterial(c.material, who);
    const vector = (key: 'offset' | 'orientation', n: number) => {
      const v = c[key];
      if (v !== undefined && !(v.length === n && v.every(Number.isFinite)))
        throw new ModelError(`collision geometry of ${who}: ${key} [${v.join(', ')}] is not ${n} finite numbers`, {
          component: owner,
          hint: key === 'offset' ? 'give offset: [x, y, z] in m' : 'give orientation as a unit quaternion [x, y, z, w]',
        });
    };
    (vector('offset', 3), vector('orientation', 4));
    if (c.orientation && Math.hypot(...c.orientation) === 0)
      throw new ModelError(`collision geometry of ${who}: orientation [0, 0, 0, 0] is no rotation`, {
        component: owner,
        hint: 'give a unit quaternion [x, y, z, w], e.g. [0, 0, 0, 1]',
      });
    for (const key of ['contype', 'conaffinity'] as const) {
      const v = c[key];
      if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v < 2 ** 31))
        throw new ModelError(`collision geometry of ${who}: ${key} ${v} is not a bitmask (an integer 0 .. 2^31 - 1)`, {
          component: owner,
          hint: `give ${key} as an integer, e.g. 1`,
        });
    }
  });
}

/** the rotation [x, y, z, w] turning the z axis onto the unit vector n (a plane's normal) */
export function zOnto(n: readonly [number, number, number]): [number, number, number, number] {
  const len = Math.hypot(...n);
  const [x, y, z] = n.map((v) => v / len);
  // half-way quaternion: axis z x n, w = 1 + z.n; n = -z needs any axis across z
  if (z < -1 + 1e-12) return [1, 0, 0, 0];
  const q: [number, number, number, number] = [-y, x, 0, 1 + z];
  const m = Math.hypot(...q);
  return q.map((v) => v / m) as [number, number, number, number];
}
