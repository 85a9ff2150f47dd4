// The collision geometry a viewer draws beside the visual one (its
// collision toggle): every body's colliders on the pose set of its frame_a,
// the world's on the world's, each the contact layer's shape at its pose.
// A convex shape keeps only its hull's vertices (a mesh's inner points
// never touch anything, and a run file need not carry them). Planes are not
// drawn as shapes: the first world plane becomes the scene's floor, so the
// viewer's ground lies where contact puts it, not just below the mechanism.
import type { Collider } from '../contact/collider.ts';
import { hullOf } from '../contact/hull.ts';
import type { CollisionShape } from '../contact/shapes.ts';
import type { Floor } from '../library/multibody/geometry.ts';
import { Body, type Frame } from '../library/multibody/index.ts';
import type { Component } from '../model/index.ts';
import type { SceneCollider, Vec3Tuple } from './types.ts';

/** the floor drawn for a ground plane: the viewer's floor grey */
const GROUND_COLOR = '#d5dbe1';

/** a model's world colliders (Mechanism.ground and imported world geometry), if it has any */
const worldCollidersOf = (model: Component): readonly Collider[] => (model as Component & { worldCollision?: readonly Collider[] }).worldCollision ?? [];

const drawn = (shape: CollisionShape): CollisionShape =>
  shape.type === 'convex' ? { type: 'convex', vertices: Array.from(hullOf(shape.vertices)?.vertices ?? shape.vertices) } : shape;

function entry(c: Collider, k: number, owner: string, frame: number): SceneCollider {
  return {
    name: `${owner}.${c.name ?? `collision${k + 1}`}`,
    frame,
    shape: drawn(c.shape),
    ...(c.offset && { offset: [...c.offset] as Vec3Tuple }),
    ...(c.orientation && { orientation: [...c.orientation] as [number, number, number, number] }),
  };
}

// (model, its components, the pose set of each frame, the world's pose set) => the colliders to draw (planes left out)
export function sceneColliders(model: Component, components: readonly Component[], index: Map<Frame, number>, world: number): SceneCollider[] {
  const out: SceneCollider[] = [];
  for (const c of components)
    if (c instanceof Body) c.collision.forEach((k, i) => k.shape.type !== 'plane' && out.push(entry(k, i, c.path, index.get(c.frame_a)!)));
  if (world >= 0) worldCollidersOf(model).forEach((k, i) => k.shape.type !== 'plane' && out.push(entry(k, i, 'world', world)));
  return out;
}

// (model) => the floor of its first world plane (a point of it and its outward normal, z of the plane's orientation), if it has one
export function groundFloor(model: Component): Floor | undefined {
  const plane = worldCollidersOf(model).find((c) => c.shape.type === 'plane');
  if (!plane) return undefined;
  const [x, y, z, w] = plane.orientation ?? [0, 0, 0, 1];
  const normal: Vec3Tuple = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
  return { point: [...(plane.offset ?? [0, 0, 0])] as Vec3Tuple, normal, color: GROUND_COLOR };
}
