// The narrow phase's dispatch: one pair of geometries => its contacts, by the
// closed form for the pair's two shape types, or GJK and EPA on their
// support functions (convex-pair.ts) for the pairs of box, cylinder and
// convex without one. Pairs are tested in the order
// plane < sphere < capsule < box < cylinder < convex and reported as asked:
// a pair asked as (box, plane) is tested as (plane, box) and its normals
// flipped. Every pair but plane-plane has a narrow phase.
import type { CollisionShape, ShapeType } from '../shapes.ts';
import { ContactList } from './contact-list.ts';
import { planeBox, planeCapsule, planeConvex, planeCylinder } from './plane.ts';
import { capsuleCapsule } from './round.ts';
import { boxBox } from './box-box.ts';
import { capsuleConvex } from './capsule-convex.ts';
import { sphereBox } from './sphere-box.ts';
import { sphereCylinder } from './sphere-cylinder.ts';
import { sphereConvex } from './sphere-convex.ts';
import { convexPair } from './convex-pair.ts';

const RANK: Record<ShapeType, number> = { plane: 0, sphere: 1, capsule: 2, box: 3, cylinder: 4, convex: 5 };

const radiusOf = (s: CollisionShape) => (s.type === 'sphere' || s.type === 'capsule' ? s.radius : 0);
const lengthOf = (s: CollisionShape) => (s.type === 'capsule' ? s.length : 0);

/** does the narrow phase have this pair of shape types (in either order): every pair but plane-plane (unbounded both, no contact point) */
export function narrowPhaseFor(a: ShapeType, b: ShapeType): boolean {
  return RANK[a] !== undefined && RANK[b] !== undefined && !(a === 'plane' && b === 'plane');
}

// (contacts, poses (stride 12), A's pose index and shape, B's, margin, pair index) => contacts of the pair with distance < margin appended
export function collide(
  out: ContactList,
  pose: ArrayLike<number>,
  a: number,
  A: CollisionShape,
  b: number,
  B: CollisionShape,
  margin: number,
  pair: number,
): void {
  if (RANK[A.type] > RANK[B.type]) {
    const from = out.count;
    collideOrdered(out, pose, b, B, a, A, margin, pair);
    out.flipFrom(from);
    return;
  }
  collideOrdered(out, pose, a, A, b, B, margin, pair);
}

function collideOrdered(
  out: ContactList,
  pose: ArrayLike<number>,
  a: number,
  A: CollisionShape,
  b: number,
  B: CollisionShape,
  margin: number,
  pair: number,
): void {
  if (A.type === 'plane') {
    if (B.type === 'sphere' || B.type === 'capsule') return planeCapsule(out, pose, a, b, B.radius, lengthOf(B), margin, pair);
    if (B.type === 'box') return planeBox(out, pose, a, b, B, margin, pair);
    if (B.type === 'cylinder') return planeCylinder(out, pose, a, b, B, margin, pair);
    if (B.type === 'convex') return planeConvex(out, pose, a, b, B, margin, pair);
    return;
  }
  if ((A.type === 'sphere' || A.type === 'capsule') && (B.type === 'sphere' || B.type === 'capsule')) {
    return capsuleCapsule(out, pose, a, radiusOf(A), lengthOf(A), b, radiusOf(B), lengthOf(B), margin, pair);
  }
  if (A.type === 'sphere' && B.type === 'box') return sphereBox(out, pose, a, A.radius, b, B, margin, pair);
  if (A.type === 'sphere' && B.type === 'cylinder') return sphereCylinder(out, pose, a, A.radius, b, B, margin, pair);
  if (A.type === 'sphere' && B.type === 'convex') return sphereConvex(out, pose, a, A.radius, b, B, margin, pair);
  if (A.type === 'capsule' && B.type !== 'plane' && B.type !== 'sphere' && B.type !== 'capsule')
    return capsuleConvex(out, pose, a, A.radius, A.length, b, B, margin, pair);
  if (A.type === 'box' && B.type === 'box') return boxBox(out, pose, a, A, b, B, margin, pair);
  if (A.type !== 'sphere' && A.type !== 'capsule' && B.type !== 'plane' && B.type !== 'sphere' && B.type !== 'capsule')
    return convexPair(out, pose, a, A, b, B, margin, pair);
}

/** the signed distance of two geometries (the smallest of their candidate points; negative: penetration), for tests and tools */
export function signedDistance(pose: ArrayLike<number>, a: number, A: CollisionShape, b: number, B: CollisionShape): number {
  const out = new ContactList(8);
  collide(out, pose, a, A, b, B, Infinity, 0);
  return out.minFrom(0);
}
