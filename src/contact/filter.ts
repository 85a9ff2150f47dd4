// Which pairs of geometries may touch (MuJoCo's contype/conaffinity, "Contact
// selection"): geometries a and b are tested when
//   (contype_a & conaffinity_b) || (contype_b & conaffinity_a)
// and never when they sit on one body, or on a parent and its child: a joint
// holds those together, and their meshes usually overlap at the joint
// (MuJoCo's parent filter, URDF's adjacent-link convention) — unless the
// parent is the world, as in MuJoCo: a free body must land on the ground.
// The whole selection (exclusions, explicit pairs, the parent filter's
// switch) is scene-pairs.ts's.

/** MuJoCo's defaults: every geometry collides with every other */
export const DEFAULT_CONTYPE = 1;
export const DEFAULT_CONAFFINITY = 1;

export interface FilterBits {
  readonly contype: number;
  readonly conaffinity: number;
}

/** the bitmask test alone */
export const masksAllow = (a: FilterBits, b: FilterBits): boolean => (a.contype & b.conaffinity) !== 0 || (b.contype & a.conaffinity) !== 0;

/** a key for an unordered pair of body indices */
export const pairKey = (i: number, j: number): number => (i < j ? i * 0x100000 + j : j * 0x100000 + i);

// (bits of a and b, their body indices, the set of adjacent body pairs by pairKey) => may a and b touch
export function mayTouch(a: FilterBits, b: FilterBits, bodyA: number, bodyB: number, adjacent: ReadonlySet<number>): boolean {
  if (bodyA === bodyB || adjacent.has(pairKey(bodyA, bodyB))) return false;
  return masksAllow(a, b);
}
