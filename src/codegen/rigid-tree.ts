// (compiled inverse model) => its tree of rigid bodies as plain numbers, or
// why there is none: what the analytical derivatives (tree-derivatives.ts)
// run on. The mechanism the model was compiled from is walked as a tree of
// rigid bodies (src/library/multibody/body-tree.ts, which the MJCF writer
// prints too: every joint opens a body, the Kron Bodies fixed to it through
// bars and rotations become its one inertial), with every number read from
// the compiled model itself at q = 0 (folded parameters and compile-time
// overrides included), so the tree is the compiled model's. Bodies are
// numbered parents first (the walk's depth-first order).
//
// Covered: hinges (Revolute) and slides (Prismatic) with their spring and
// damper, gravity. Not covered, with the reason returned: a model that is
// not a Mechanism, a loop, a free or ball joint, limits or friction, an
// element the writer does not know. Anything else acting on the coordinates
// (a controller's equations, a force between bodies) is caught by the check
// against the model's own inverse code (TreeDerivatives.check).
//
// Glossary (per body b): parent[b] (-1 the world), coord[b] its joint's index
// in model.coordinates, pos and R its placement in the parent's coordinates at
// q = 0 (R row-major, body to parent), axis its joint's unit axis (body
// coordinates), hinge 1 or 0 (a slide), c/q0/d the joint's spring and damper;
// m, com, Ib its mass, centre of mass and inertia about it (body coordinates).
import { ModelError } from '../errors.ts';
import { type For, type TreeBody, bodyTree } from '../library/multibody/body-tree.ts';
import { Mechanism } from '../library/multibody/index.ts';
import type { Component } from '../model/index.ts';
import type { CompiledModel } from './compiled.ts';
import { proveAffine } from './tree-proof.ts';

export interface RigidTree {
  readonly N: number;
  readonly parent: Int32Array;
  readonly coord: Int32Array;
  readonly hinge: Uint8Array;
  readonly pos: Float64Array;
  readonly R: Float64Array;
  readonly axis: Float64Array;
  readonly c: Float64Array;
  readonly q0: Float64Array;
  readonly d: Float64Array;
  readonly m: Float64Array;
  readonly com: Float64Array;
  readonly Ib: Float64Array;
  /** world-resolved */
  readonly gravity: Float64Array;
  /**
   * why the forces outside the tree must be checked at every call (undefined:
   * proven per-joint affine, tree-proof.ts). Proven here, where the library is
   * loaded anyway, so that tree-dynamics.ts, on every compiled model's import
   * path, imports none of it: a run from the compile cache loads no library
   * (test/cli/startup.test.ts)
   */
  readonly outsideForces: string | undefined;
}

/** the tree's errors, phrased as reasons why the tangents answer */
const DERIVATIVES: For = {
  name: 'the analytical path',
  limits: 'does not cover',
  limitsHint: 'a joint with limits or friction keeps the generated tangents',
};

/** the mechanism a compiled model came from: the root of its states' owners */
export function mechanismOf(model: CompiledModel): Mechanism | undefined {
  let c = model.plan.states[0]?.owner as Component | undefined;
  while (c?.parent) c = c.parent;
  return c instanceof Mechanism ? c : undefined;
}

/**
 * (compiled model) => its rigid tree, or why the analytical derivatives do
 * not cover it. `coordinates`: the joints' positions by name, the order of
 * coord (an inverse model's coordinates; a forward model's q states,
 * analysis/linearize-tree.ts)
 */
export function rigidTree(model: CompiledModel, coordinates: readonly string[] = model.coordinates.map((k) => k.q)): RigidTree | string {
  const mech = mechanismOf(model);
  if (!mech) return 'not a Mechanism';
  if (model.report.kinematics && model.report.kinematics.loops.length > 0) return 'a kinematic loop';
  // the values at q = 0 on a state of our own (the default state's workspace stays as it was)
  const state = model.createState(),
    x = new Float64Array(model.stateNames.length);
  state.derivatives(0, x, new Float64Array(x.length));
  let bodies: TreeBody[], gravity: number[];
  try {
    ({ bodies, gravity } = bodyTree(mech, (name) => state.signal(name), DERIVATIVES));
  } catch (e) {
    if (e instanceof ModelError) return e.message;
    throw e;
  }
  const list: { b: TreeBody; parent: number }[] = [];
  const visit = (b: TreeBody, parent: number) => {
    const k = list.push({ b, parent }) - 1;
    b.children.forEach((c) => visit(c, k));
  };
  bodies.forEach((b) => visit(b, -1));
  const n = coordinates.length;
  const other = list.find(({ b }) => b.joint.type !== 'hinge' && b.joint.type !== 'slide');
  if (other) return `joint ${other.b.joint.name} is a ${other.b.joint.type} joint`;
  const index = new Map(coordinates.map((q, i) => [q, i]));
  const coord = Int32Array.from(list, ({ b }) => index.get(`${b.joint.name}.q`) ?? -1);
  if (list.length !== n || coord.some((k) => k < 0) || new Set(coord).size !== n) return 'its joints are not its coordinates one to one';
  const flat = (f: (b: TreeBody) => readonly number[]) => Float64Array.from(list.flatMap(({ b }) => [...f(b)]));
  return {
    N: n,
    parent: Int32Array.from(list, (l) => l.parent),
    coord,
    hinge: Uint8Array.from(list, ({ b }) => (b.joint.type === 'hinge' ? 1 : 0)),
    pos: flat((b) => b.pos),
    R: flat((b) => b.R),
    axis: flat((b) => b.joint.axis),
    c: flat((b) => [b.joint.stiffness]),
    q0: flat((b) => [b.joint.springref]),
    d: flat((b) => [b.joint.damping]),
    m: flat((b) => [b.inertial?.m ?? 0]),
    com: flat((b) => b.inertial?.c ?? [0, 0, 0]),
    Ib: flat((b) => b.inertial?.I ?? [0, 0, 0, 0, 0, 0, 0, 0, 0]),
    gravity: Float64Array.from(gravity),
    outsideForces: proveAffine(mech),
  };
}
