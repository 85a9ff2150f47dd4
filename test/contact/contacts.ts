// What the narrow-phase tests read: all contacts of one pair (margin
// Infinity) as plain objects, and the identity rotation for poses().
import { ContactList } from '../../src/contact/narrow/contact-list.ts';
import { collide } from '../../src/contact/narrow/collide.ts';
import type { CollisionShape } from '../../src/contact/shapes.ts';

export const I3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** one contact: signed distance, unit normal from A to B, the point midway */
export interface Contact {
  d: number;
  n: number[];
  p: number[];
}

// (poses: A at 0, B at 12; the two shapes) => every contact of the pair
export function contacts(pose: Float64Array, A: CollisionShape, B: CollisionShape): Contact[] {
  const out = new ContactList(2);
  collide(out, pose, 0, A, 12, B, Infinity, 0);
  return Array.from({ length: out.count }, (_, k) => ({
    d: out.dist[k],
    n: [...out.normal.subarray(3 * k, 3 * k + 3)],
    p: [...out.point.subarray(3 * k, 3 * k + 3)],
  }));
}
