// Collision shapes: plain data, in the geometry's own frame (MuJoCo's geom
// conventions, so an MJCF or URDF collision element maps one to one):
//   sphere    centred at the origin
//   capsule   the points within `radius` of the segment from (0,0,-length/2)
//             to (0,0,length/2): `length` is between the caps' centres
//   box       centred, edges `size` along x, y, z (full lengths, as the
//             viewer's Shape 'box')
//   cylinder  centred, axis z, `length` between its flat ends
//   plane     the half-space z <= 0 (outward normal +z), unbounded
//   convex    the convex hull of `vertices` (x y z ..., the geometry's
//             frame): a mesh collided as its hull, as MuJoCo collides one;
//             the hull is computed once, when the shape is checked (hull.ts)
// Visual geometry (library/multibody/geometry.ts) is for drawing only; a
// collision shape may differ from it, as in URDF and MJCF.
import { ModelError } from '../errors.ts';
import { hullOf } from './hull.ts';

/** a collision shape, in its own frame: sphere, capsule and cylinder along z, box by edge lengths, plane z <= 0, convex hull of points */
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
    }
  | {
      /** the convex hull of points (a mesh's vertices), in the geometry's frame */
      readonly type: 'convex';
      /** x, y, z of each point (m), at least 4 spanning a volume */
      readonly vertices: readonly number[];
    };

export type ShapeType = CollisionShape['type'];

export const SHAPE_TYPES: readonly ShapeType[] = ['sphere', 'capsule', 'box', 'cylinder', 'plane', 'convex'];

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
  if (shape.type === 'convex') checkConvex(shape.vertices, bad);
}

// a convex shape's points: x y z triples of finite numbers whose hull has a volume (computed here, once)
function checkConvex(v: unknown, bad: (what: string, hint: string) => ModelError): void {
  if (!Array.isArray(v) || v.length % 3 !== 0)
    throw bad(`convex vertices are not x y z triples (${Array.isArray(v) ? `${v.length} numbers` : typeof v})`, 'give vertices: [x1, y1, z1, x2, ...] in m');
  const k = v.findIndex((x) => !(typeof x === 'number' && Number.isFinite(x)));
  if (k >= 0) throw bad(`convex vertex ${Math.floor(k / 3) + 1} has ${String(v[k])}, not a finite number`, 'give finite coordinates in m');
  if (!hullOf(v))
    throw bad(
      `convex vertices (${v.length / 3} points) span no volume: fewer than 4 points, or all on one plane or line`,
      'a flat mesh (a plane, a single face) has no hull to collide: use a box of small thickness, or a plane',
    );
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
    case 'convex':
      return hullOf(shape.vertices)?.radius ?? 0;
  }
}

/** a convex shape's hull, computed when the shape was checked (checkShape refuses one without) */
export function hullOfShape(shape: Extract<CollisionShape, { type: 'convex' }>): NonNullable<ReturnType<typeof hullOf>> {
  const h = hullOf(shape.vertices);
  if (!h)
    throw new ModelError(`convex collision shape of ${shape.vertices.length / 3} points spans no volume`, {
      hint: 'check the shape with checkShape (BodyOptions.collision does) before colliding it',
    });
  return h;
}
