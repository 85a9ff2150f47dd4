// Collision geometry in the view (the collision toggle, key g): each
// collider of the run's scene (src/io/scene-colliders.ts) as a translucent
// green solid with its edges, on its frame, so that where contact acts can
// be told from what is drawn (URDF and MJCF robots collide with simpler
// shapes than they show). The contact layer's conventions (src/contact/
// shapes.ts): capsules and cylinders along z (three's are along y), a
// convex shape the hull of its vertices.
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import type { SceneCollider } from '../../src/io/types.ts';

/** the colliders' colour: green, unlike any part's default colour and the magenta force arrows */
export const COLLIDER_COLOR = '#16c060';

function geometryOf(shape: SceneCollider['shape']): THREE.BufferGeometry | undefined {
  switch (shape.type) {
    case 'sphere':
      return new THREE.SphereGeometry(shape.radius, 32, 16);
    case 'capsule':
      return new THREE.CapsuleGeometry(shape.radius, shape.length, 8, 32).rotateX(Math.PI / 2);
    case 'box':
      return new THREE.BoxGeometry(...shape.size);
    case 'cylinder':
      return new THREE.CylinderGeometry(shape.radius, shape.radius, shape.length, 32).rotateX(Math.PI / 2);
    case 'convex': {
      const v = shape.vertices;
      return new ConvexGeometry(Array.from({ length: v.length / 3 }, (_, i) => new THREE.Vector3(v[3 * i], v[3 * i + 1], v[3 * i + 2])));
    }
    case 'plane':
      // the scene's floor stands for a plane (scene-colliders.ts)
      return undefined;
  }
}

// (collider) => a group placed in its frame: a translucent solid and its edges (empty for a plane)
export function colliderObject(c: SceneCollider): THREE.Object3D {
  const group = new THREE.Group();
  group.position.set(...(c.offset ?? [0, 0, 0]));
  if (c.orientation) group.quaternion.set(...c.orientation);
  const geometry = geometryOf(c.shape);
  if (!geometry) return group;
  // drawn after the opaque parts, not hiding them: a collider inside a body shows through it and the body through it
  const solid = new THREE.MeshStandardMaterial({ color: COLLIDER_COLOR, transparent: true, opacity: 0.45, depthWrite: false, roughness: 0.8 });
  group.add(
    new THREE.Mesh(geometry, solid),
    new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 25), new THREE.LineBasicMaterial({ color: COLLIDER_COLOR })),
  );
  return group;
}
