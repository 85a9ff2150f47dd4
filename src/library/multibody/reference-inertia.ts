// The reference inertia of a joint with limits or friction (limits.ts sizes
// their defaults by it): the bodies beyond the joint, rigidly locked, at the
// start pose:
//   revolute   I = sum e . (I_w e) + m |e x (r_cm - p)|^2   (about the axis e through p)
//   prismatic  I = sum m                                      (along the axis)
// "Beyond": the side of the joint that the world is not on, over connections,
// bars, fixed rotations and the other spanning-tree joints (never through the
// world or a cut joint). The composite inertia is an upper bound of the
// effective one (joints beyond turn freely); limits.ts keeps RK4 stable down
// to a 75th of it.
import type { Component } from '../../model/index.ts';
import { Body } from './body.ts';
import { FixedRotation } from './fixed-rotation.ts';
import { FixedTranslation } from './fixed-translation.ts';
import { Frame } from './frame.ts';
import { Joint, OneDofJoint } from './joint.ts';
import { Revolute } from './revolute.ts';
import { type Pose, apply, difference, dot3, startPoses } from './start-pose.ts';

const cross3 = (a: readonly number[], b: readonly number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** a body's mass, centre of mass and inertia (frame_a coordinates): the declared ones, or their values after --set */
export interface BodyValues {
  readonly mass: number;
  readonly rcm: readonly number[];
  readonly inertia: readonly (readonly number[])[];
}

// (all components, the world's frame) => referenceInertia set on every joint with limits or friction that has none,
// from the declared body values (mutates the joints, like the builder's roles; sizedByBuilder marks them)
export function setReferenceInertias(components: readonly Component[], world: Frame): void {
  const joints = components.filter(
    (c): c is OneDofJoint => c instanceof OneDofJoint && (c.hasLimitsOrFriction || c.inLimitedTendon) && c.referenceInertia === undefined,
  );
  for (const [j, I] of referenceInertias(components, world, joints, (b) => b)) {
    j.referenceInertia = I;
    j.sizedByBuilder = true;
  }
}

// (all components, the world's frame, joints, a body's values) => the reference inertia of each joint from those body values
export function referenceInertias(
  components: readonly Component[],
  world: Frame,
  joints: readonly OneDofJoint[],
  valuesOf: (b: Body) => BodyValues,
): Map<OneDofJoint, number> {
  const out = new Map<OneDofJoint, number>();
  if (joints.length === 0) return out;
  const tree = components.filter((c): c is Joint => c instanceof Joint && c.role !== 'cut');
  const poses = startPoses(components, world, tree);
  if (!poses) return out; // a rigid element of the user's own: the defaults use 1
  const next = new Map<Frame, { to: Frame; via: Component }[]>();
  const link = (a: Frame, b: Frame, via: Component) => {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ])
      next.set(x, [...(next.get(x) ?? []), { to: y, via }]);
  };
  for (const c of components) {
    for (const [x, y] of c.connections) if (x.owner instanceof Frame && y.owner instanceof Frame) link(x.owner, y.owner, c);
    if (c instanceof FixedTranslation || c instanceof FixedRotation || (c instanceof Joint && c.role !== 'cut')) link(c.frame_a, c.frame_b, c);
  }
  const bodyAt = new Map(components.filter((c): c is Body => c instanceof Body).map((b) => [b.frame_a, b]));
  // the bodies reached from a frame without crossing the joint, and whether the world was reached
  const side = (from: Frame, joint: Joint) => {
    const seen = new Set<Frame>([from]);
    const queue = [from];
    let world_ = false;
    for (let k = 0; k < queue.length; k++) {
      for (const { to, via } of next.get(queue[k]) ?? []) {
        if (via === joint || seen.has(to)) continue;
        if (to === world) world_ = true;
        else {
          seen.add(to);
          queue.push(to);
        }
      }
    }
    return { bodies: queue.map((f) => bodyAt.get(f)).filter((b) => b !== undefined), world: world_ };
  };
  for (const j of joints) {
    const b = side(j.frame_b, j);
    const bodies = b.world ? side(j.frame_a, j).bodies : b.bodies;
    const at = poses.get(j.frame_a);
    if (!at) continue;
    const values = bodies.map(valuesOf);
    const I =
      j instanceof Revolute
        ? aboutAxis(
            bodies,
            values,
            poses,
            apply(
              at.R,
              j.axis.map((x) => x.value),
            ),
            at.p,
          )
        : values.reduce((s, x) => s + x.mass, 0);
    if (I > 0 && Number.isFinite(I)) out.set(j, I);
  }
  return out;
}

/** sum e . (I_w e) + m |e x (r_cm - p)|^2 over the bodies at their poses */
function aboutAxis(bodies: readonly Body[], values: readonly BodyValues[], poses: ReadonlyMap<Frame, Pose>, e: number[], p: number[]): number {
  let I = 0;
  for (const [k, body] of bodies.entries()) {
    const P = poses.get(body.frame_a),
      b = values[k];
    if (!P) continue;
    const c = P.p.map((v, i) => v + apply(P.R, b.rcm)[i]);
    const eb = [0, 1, 2].map((i) => dot3([P.R[0][i], P.R[1][i], P.R[2][i]], e)); // R^T e: the axis in body coordinates
    const r = cross3(e, difference(c, p));
    I +=
      dot3(
        eb,
        apply(
          b.inertia.map((row) => [...row]),
          eb,
        ),
      ) +
      b.mass * dot3(r, r);
  }
  return I;
}
