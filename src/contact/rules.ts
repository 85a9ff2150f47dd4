// What a mechanism says about its own contacts beyond the bitmasks
// (filter.ts): MuJoCo's <option><flag filterparent>, <contact><exclude> and
// <contact><pair>, and an importer's own rule for mixing two geometries'
// parameters. Plain data on the Mechanism (Mechanism.contactRules), read
// once when the scene is made (scene.ts, scene-pairs.ts).
import type { Collider } from './collider.ts';
import type { ContactMaterial } from './material.ts';
import type { Joint } from '../library/multibody/joint.ts';

/** a pair of geometries that touch whatever the filters say, with parameters of its own (MuJoCo's <contact><pair>) */
export interface ExplicitPair {
  readonly a: Collider;
  readonly b: Collider;
  /** the pair's parameters as they are (no mixing); none: material.ts's rule over the two geometries' */
  readonly material?: ContactMaterial;
}

export interface ContactRules {
  /**
   * MuJoCo's parent filter (its flag filterparent): geometries of two bodies joined by joints
   * alone (a parent and its child) never touch, unless one is the world. Default true.
   */
  filterParent: boolean;
  /**
   * cut joints that stand for constraints outside the body tree (MJCF's <equality> connect and weld): the
   * parent filter ignores them, as MuJoCo's follows the tree (body_parentid) alone. A mechanism's own joints,
   * cut or not, join a parent and its child.
   */
  readonly equalities: Joint[];
  /** body pairs whose geometries never touch, by body path ("world" for the world): MuJoCo's <contact><exclude> */
  readonly exclude: (readonly [string, string])[];
  /** explicit pairs: MuJoCo's <contact><pair> */
  readonly pairs: ExplicitPair[];
  /** the parameters of a pair the filters let touch, in place of material.ts's rule (an importer's own mixing, e.g. MuJoCo's) */
  mix?: (a: Collider, b: Collider) => ContactMaterial | undefined;
}

/** a mechanism's rules before anything is said: MuJoCo's defaults */
export const defaultContactRules = (): ContactRules => ({ filterParent: true, equalities: [], exclude: [], pairs: [] });
