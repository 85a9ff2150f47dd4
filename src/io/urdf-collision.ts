// A URDF robot's collision geometry (urdfMechanism's contact option): each
// link's <collision> elements become its body's Colliders (src/contact) at
// the element's <origin> in the link frame, which is the body's frame_a (the
// importer puts the body at the link frame and carries the inertial frame's
// offset in rcm, so the collision pose needs no change). <box size> is
// already full edge lengths and <cylinder>'s axis is z, as the contact
// layer's shapes; Drake's <capsule> is read too. A <mesh> is collided as the
// convex hull of its vertices, scaled (as MuJoCo collides a mesh; the
// contact layer's convex shape), when the loader can read it (the
// meshCollider option: src/node/urdf-file.ts reads OBJ and STL files under
// the URDF's package root); a mesh not found or not read is a warning naming
// the link and file, and is not collided.
// URDF has no world geometry, so contact brings a ground plane (normal
// against gravity, through the origin unless placed by the ground option).
// Parameters: URDF has none for contact, so every collision element gets
// MuJoCo's defaults (solref 0.02 s, damping ratio 1, solimp 0.9 0.95 0.001
// 0.5 2, friction 1) as the MJCF importer maps them (mjcf-solref.ts: a body
// rests at MuJoCo's depth; a box on its 4 corners) unless the
// contactMaterial option gives one; the ground carries none, so a pair's is
// the robot's (material.ts).
// By default the robot touches the ground, not itself: a URDF's links
// overlap at their joints and URDF has no standard filter. So the robot's
// geometry has contype 1, conaffinity 0, the ground contype 0, conaffinity
// 1. With the selfContact option (kron simulate --self-contact) the robot's
// geometry has contype 1, conaffinity 1: links touch each other too, but
// for adjacent links (a parent and its child, as MuJoCo's parent filter and
// the contact layer's: src/contact/scene-pairs.ts) and links fixed together.
import type { Collider } from '../contact/collider.ts';
import type { CollisionShape } from '../contact/shapes.ts';
import type { ContactMaterial } from '../contact/material.ts';
import type { Mechanism } from '../library/multibody/mechanism.ts';
import { SOLIMP, SOLREF, equivalentSolref } from './mjcf-solref.ts';
import { rpyQuaternion } from './rpy.ts';
import type { UrdfLink } from './urdf-parse.ts';

/** MuJoCo's default contact for a shape, as the MJCF importer maps it: what a URDF collision element touches with unless told otherwise */
export const urdfContactMaterial = (shape: { readonly type: string }): ContactMaterial => ({
  friction: 1,
  ...equivalentSolref(SOLREF, SOLIMP, shape.type === 'box' ? 4 : 1),
});

/** where the ground plane of a URDF robot with contact is */
export interface UrdfGround {
  /** its outward normal, world-resolved (default: against gravity) */
  normal?: readonly [number, number, number];
  /** a point of it (default the origin) */
  point?: readonly [number, number, number];
}

/** a <mesh>'s convex shape (its vertices scaled), or why it has none; undefined when mesh files are not read */
export type MeshCollider = (filename: string, scale: readonly [number, number, number] | undefined) => CollisionShape | { why: string } | undefined;

// (link, the material to give (undefined: MuJoCo's defaults), warnings, how meshes are read, links touch each other) => its colliders; a mesh not read is a warning, a collision element that could not be read its error
export function urdfColliders(
  link: UrdfLink,
  material: ContactMaterial | undefined,
  warnings: string[],
  meshCollider?: MeshCollider,
  selfContact = false,
): Collider[] {
  const out: Collider[] = [];
  const taken = new Set<string>();
  (link.collisions ?? []).forEach((c, k) => {
    if ('error' in c) throw c.error;
    let s: CollisionShape | Exclude<typeof c.shape, { type: 'mesh' }>;
    if (c.shape.type === 'mesh') {
      const found = meshCollider?.(c.shape.filename, c.shape.scale);
      if (found === undefined || 'why' in found) {
        const why = found?.why ?? 'is not read (mesh files are read when the URDF is loaded from a file)';
        warnings.push(`link ${link.name}: <collision> mesh "${c.shape.filename}" ${why}: not collided`);
        return;
      }
      s = found;
    } else s = c.shape;
    // a name for the pair's signals (contact.<link>.<name>__...): characters outside [A-Za-z0-9_] replaced, unique on the link
    let name = (c.name ?? `collision${k + 1}`).replace(/[^A-Za-z0-9_]/g, '_');
    while (taken.has(name)) name = `${name}_${k + 1}`;
    taken.add(name);
    out.push({
      shape: s.type === 'box' ? { type: 'box', size: s.size } : s,
      name,
      offset: c.origin.xyz,
      ...(c.origin.rpy.some((a) => a !== 0) && { orientation: rpyQuaternion(c.origin.rpy) }),
      material: material ?? urdfContactMaterial(s),
      contype: 1,
      conaffinity: selfContact ? 1 : 0,
    });
  });
  return out;
}

// (mechanism, where) => the ground the robot touches (filter bits: header)
export function addUrdfGround(m: Mechanism, ground: UrdfGround): void {
  m.ground({ ...ground, contype: 0, conaffinity: 1 });
}
