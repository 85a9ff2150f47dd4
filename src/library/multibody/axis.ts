// Joint and rotation axes: given in frame_a coordinates, checked, normalised.
import { type Vec3Like, vec3, type Vec3 } from '../../expr/index.ts';
import { ModelError } from '../../errors.ts';
import type { Component } from '../../model/index.ts';

export function unitAxis(c: Component, axis: Vec3Like): Vec3 {
  const v = axis.map(Number);
  const norm = Math.hypot(v[0], v[1], v[2]);
  if (!(norm > 1e-12) || !v.every(Number.isFinite)) {
    throw new ModelError(`axis [${axis.join(', ')}] of ${c.path || c.localName} has zero length`, {
      component: c.path || c.localName,
      hint: 'give a non-zero axis direction in frame_a coordinates, e.g. [0, 0, 1]',
    });
  }
  return vec3(v[0] / norm, v[1] / norm, v[2] / norm);
}
