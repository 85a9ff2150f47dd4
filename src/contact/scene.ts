// A mechanism's contact scene: every collision geometry with the body that
// carries it, and which pairs may touch. Built once from the Mechanism
// (after its topology), plain data afterwards; attach() makes the run-time
// part for one run state (run.ts). Which pairs may touch: scene-pairs.ts
// (the bitmasks, one rigid group, parent and child, the mechanism's
// exclusions and explicit pairs: Mechanism.contactRules); every such pair must have a
// narrow phase (narrow/collide.ts), else the scene is refused here, naming
// the pair, rather than missing contacts at run time.
import { ModelError } from '../errors.ts';
import { components, elaborate } from '../model/index.ts';
import { Body } from '../library/multibody/body.ts';
import { Joint } from '../library/multibody/joint.ts';
import { Frame } from '../library/multibody/frame.ts';
import type { Mechanism } from '../library/multibody/mechanism.ts';
import { rigidGroups } from '../library/multibody/topology.ts';
import type { Collider } from './collider.ts';
import { DEFAULT_CONAFFINITY, DEFAULT_CONTYPE, type FilterBits } from './filter.ts';
import type { PairMaterial } from './material.ts';
import { parentChildPairs, selectPairs } from './scene-pairs.ts';
import { quaternionMatrix } from './pose.ts';
import type { CollisionShape } from './shapes.ts';
import { DEFAULT_SLIP_SPEED, FRICTION_LAWS, type FrictionLaw } from './law.ts';
import type { CompiledModel } from '../codegen/compiled.ts';
import { type FrameKinematics, frameKinematics } from './kinematics.ts';

export interface SceneGeometry {
  /** "<body>.<collider name>", or "world.<name>" */
  readonly name: string;
  /** the index of its body in ContactScene.bodies, -1 for the world */
  readonly body: number;
  readonly shape: CollisionShape;
  /** its pose in the body's frame_a: rotation (row-major) and offset */
  readonly R: readonly number[];
  readonly offset: readonly [number, number, number];
  readonly bits: FilterBits;
}

/** how a contact scene is made */
export interface ContactOptions {
  /** the regularised friction's slip speed v_s (m/s, law.ts; default 1e-4) */
  slipSpeed?: number;
  /** 'regularised' (default; law.ts) or 'elasto-plastic' (elasto-plastic.ts: sticks without creep) */
  friction?: FrictionLaw;
}

/** a mechanism's collision geometry, the pairs that may touch and their parameters: what simulate({ contact }) runs with */
export class ContactScene {
  /** the bodies with collision geometry, by path: each has inputs contact_f[1..3], contact_t[1..3] */
  readonly bodies: readonly string[];
  /** every collision geometry, with its body, pose in frame_a and filter bits */
  readonly geometries: readonly SceneGeometry[];
  /** the pairs that may touch (i < j into geometries), and their parameters in the same order */
  readonly pairs: readonly (readonly [number, number])[];
  /** each pair's mixed parameters (material.ts), in the order of pairs */
  readonly materials: readonly PairMaterial[];
  /** the regularised friction's slip speed (m/s) */
  readonly slipSpeed: number;
  /** the friction law of every pair */
  readonly friction: FrictionLaw;

  private constructor(
    bodies: string[],
    geometries: SceneGeometry[],
    pairs: [number, number][],
    materials: PairMaterial[],
    slipSpeed: number,
    friction: FrictionLaw,
  ) {
    ((this.bodies = bodies), (this.geometries = geometries), (this.pairs = pairs), (this.materials = materials), (this.slipSpeed = slipSpeed));
    this.friction = friction;
  }

  /**
   * The frames' own code for a run (kinematics.ts), or why there is none. Reached through the
   * scene, not imported by run.ts: kinematics.ts brings the planner (a relaxed plan) and the code
   * generator, which a run without contact (kron simulate from the compile cache) must not load.
   */
  frameKinematics(compiled: CompiledModel, wanted: readonly string[]): FrameKinematics | string {
    return frameKinematics(compiled, wanted);
  }

  /** (mechanism, options) => its contact scene; a ModelError for a pair that may touch without a narrow phase */
  static of(mech: Mechanism, options: ContactOptions = {}): ContactScene {
    const slip = options.slipSpeed ?? DEFAULT_SLIP_SPEED;
    if (!(slip > 0 && Number.isFinite(slip)))
      throw new ModelError(`contact slipSpeed ${slip} is not a finite number > 0`, { hint: 'give the friction regularisation speed in m/s, e.g. 1e-4' });
    const friction = options.friction ?? 'regularised';
    if (!FRICTION_LAWS.includes(friction))
      throw new ModelError(`contact friction law "${String(friction)}" is not known`, { hint: "use 'regularised' (the default) or 'elasto-plastic'" });
    elaborate(mech);
    const all = components(mech);
    const groups = rigidGroups(
      all,
      all.filter((c): c is Frame => c instanceof Frame),
    );
    const groupOf = (f: Frame) => groups.find(groups.index.get(f)!);
    const world = groupOf(mech.world.frame_b);
    const massive = all.filter((c): c is Body => c instanceof Body);
    const adjacent = parentChildPairs(
      all
        .filter((c): c is Joint => c instanceof Joint && !mech.contactRules.equalities.includes(c))
        .map((j) => [groupOf(j.frame_a), groupOf(j.frame_b)] as const),
      new Set(massive.map((b) => groupOf(b.frame_a))),
      world,
    );
    const bodies = massive.filter((b) => b.collision.length > 0);
    const geometries: SceneGeometry[] = [],
      group: number[] = [],
      mass: number[] = [],
      bodyPath: string[] = [],
      colliders: Collider[] = [];
    const add = (c: Collider, k: number, owner: string, body: number, g: number, m: number) => {
      geometries.push({
        name: `${owner}.${c.name ?? `collision${k + 1}`}`,
        body,
        shape: c.shape,
        R: quaternionMatrix(c.orientation ?? [0, 0, 0, 1]),
        offset: [...(c.offset ?? [0, 0, 0])] as [number, number, number],
        bits: { contype: c.contype ?? DEFAULT_CONTYPE, conaffinity: c.conaffinity ?? DEFAULT_CONAFFINITY },
      });
      (group.push(g), mass.push(m), bodyPath.push(owner), colliders.push(c));
    };
    mech.worldCollision.forEach((c, k) => add(c, k, 'world', -1, world, Infinity));
    bodies.forEach((b, i) => b.collision.forEach((c, k) => add(c, k, b.path, i, groupOf(b.frame_a), b.mass)));
    const known = new Set(['world', ...massive.map((b) => b.path)]);
    const { pairs, materials } = selectPairs({ geometries, group, bodyPath, mass, colliders }, adjacent, mech.contactRules, known);
    return new ContactScene(
      bodies.map((b) => b.path),
      geometries,
      pairs,
      materials,
      slip,
      friction,
    );
  }
}
