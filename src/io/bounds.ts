// (scene, poses) => the axis-aligned box that holds everything drawn at every
// sample: each shape as its bounding sphere, each frame origin (links and
// joints sit there). The viewer frames its camera on it.
import { quat, vec3 } from 'gl-matrix';
import type { Shape } from '../library/multibody/geometry.ts';
import { POSE_STRIDE, type Poses, type Scene, type Vec3Tuple } from './types.ts';

export interface Bounds {
  min: Vec3Tuple;
  max: Vec3Tuple;
}

export function shapeRadius(shape: Shape): number {
  switch (shape.type) {
    case 'sphere':
      return shape.radius;
    case 'cylinder':
      return Math.hypot(shape.length / 2, shape.radius);
    case 'box':
      return Math.hypot(...shape.size) / 2;
    case 'capsule':
      return shape.length / 2 + shape.radius;
    case 'ellipsoid':
      return Math.max(...shape.radii);
    case 'plane':
      return Math.hypot(...shape.size) / 2;
    // its size is known once the file loads, in the page: the placeholder's until then
    case 'mesh':
      return shape.radius;
  }
}

export function runBounds(scene: Scene, poses: Poses): Bounds {
  const min: Vec3Tuple = [Infinity, Infinity, Infinity],
    max: Vec3Tuple = [-Infinity, -Infinity, -Infinity];
  const grow = (p: ArrayLike<number>, r: number) => {
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i], p[i] - r);
      max[i] = Math.max(max[i], p[i] + r);
    }
  };
  const p = new Float64Array(3),
    q = new Float64Array(4),
    c = new Float64Array(3);
  const samples = poses.data.length / (poses.frames * POSE_STRIDE);
  for (let k = 0; k < samples; k++) {
    const at = (f: number) => {
      const o = (k * poses.frames + f) * POSE_STRIDE;
      const d = poses.data;
      vec3.set(p, d[o], d[o + 1], d[o + 2]);
      quat.set(q, d[o + 3], d[o + 4], d[o + 5], d[o + 6]);
    };
    for (let f = 0; f < poses.frames; f++) {
      at(f);
      grow(p, 0);
    }
    for (const s of scene.shapes) {
      at(s.frame);
      const [ox, oy, oz] = s.geometry.offset ?? [0, 0, 0];
      vec3.add(c, p, vec3.transformQuat(c, vec3.set(c, ox, oy, oz), q));
      grow(c, shapeRadius(s.geometry.shape));
    }
  }
  if (!(min[0] <= max[0])) return { min: [-1, -1, -1], max: [1, 1, 1] };
  return { min, max };
}
