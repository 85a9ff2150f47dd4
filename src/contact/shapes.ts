// Collision shapes: plain data, in the geometry's own frame (MuJoCo's geom
// conventions, so an MJCF or URDF collision element maps one to one):
//   sphere    centred at the origin
//   capsule   the points within `radius` of the segment from (0,0,-length/2)
//             to (0,0,length/2): `length` is between the caps' centres
//   box       centred, edges `size` along x, y, z (full lengths, as the
//             viewer's Shape 'box')
//   cylinder  centred, axis z, `length` between its flat ends
//   plane     the half-space z <= 0 (outward normal +z), unbounded
// Visual geometry (library/multibody/geometry.ts) is for drawing only; a
// collision shape may differ from it, as in URDF and MJCF.
import { ModelError } from '../errors.ts';

/** a collision primitive, in its own frame: sphere, capsule and cylinder along z, box by edge lengths, plane z <= 0 */
export type CollisionShape =
  | {
      /** a sphere about the geometry's origin */
      readonly type: 'sphere';
      /** its radius (m) */
      readonly radius: number;
    }
  | {
      /** a capsule: a segment along the geometry's z axis, centred, swept by a sphere */
      readonly type: 'capsule';
      /** the sphere's radius (m) */
      readonly radius: number;
      /** the segment's length (m; 0 is a sphere) */
      readonly length: number;
    }
  | {
      /** a box centred at the geometry's origin */
      readonly type: 'box';
      /** its edge lengths along x, y, z (m) */
      readonly size: readonly [number, number, number];
    }
  | {
      /** a cylinder along the geometry's z axis, centred */
      readonly type: 'cylinder';
      /** its radius (m) */
      readonly radius: number;
      /** its length (m) */
      readonly length: number;
    }
  | {
      /** the half-space below the geometry's x-y plane (its normal is +z) */
      readonly type: 'plane';
    };

export type ShapeType = CollisionShape['type'];

export const SHAPE_TYPES: readonly ShapeType[] = ['sphere', 'capsule', 'box', 'cylinder', 'plane'];

// (shape, who owns it for messages) => nothing, or a ModelError naming the bad dimension
export function checkShape(shape: CollisionShape, owner: string): void {
  const bad = (what: string, hint: string) => new ModelError(`collision geometry of ${owner}: ${what}`, { component: owner, hint });
  if (!SHAPE_TYPES.includes(shape?.type)) throw bad(`shape type "${(shape as { type?: unknown })?.type}" is not known`, `use one of ${SHAPE_TYPES.join(', ')}`);
  const positive = (name: string, v: unknown, zero = false) => {
    if (!(typeof v === 'number' && (v > 0 || (zero && v === 0)) && Number.isFinite(v)))
      throw bad(`${shape.type} ${name} ${String(v)} is not a finite number > ${zero ? '= ' : ''}0`, `give the ${name} in m`);
  };
  if (shape.type === 'sphere') positive('radius', shape.radius);
  // a capsule of length 0 is a sphere; a cylinder of length 0 is not a solid
  if (shape.type === 'capsule' || shape.type === 'cylinder') (positive('radius', shape.radius), positive('length', shape.length, shape.type === 'capsule'));
  if (shape.type === 'box') {
    if (!Array.isArray(shape.size) || shape.size.length !== 3)
      throw bad(`box size ${String(shape.size)} is not three edge lengths`, 'give size: [x, y, z] in m');
    shape.size.forEach((s, i) => positive(`size[${i + 1}]`, s));
  }
}

/** a bounding radius about the geometry's origin (Infinity for a plane): what the broad phase bounds a shape by */
export function boundingRadius(shape: CollisionShape): number {
  switch (shape.type) {
    case 'sphere':
      return shape.radius;
    case 'capsule':
      return shape.radius + shape.length / 2;
    case 'box':
      return Math.hypot(...shape.size) / 2;
    case 'cylinder':
      return Math.hypot(shape.radius, shape.length / 2);
    case 'plane':
      return Infinity;
  }
}
