// Which pairs of a scene's geometries may touch, and with what parameters:
// MuJoCo's contact selection (its engine_collision_driver.c, mj_collision):
//   - an explicit pair (<contact><pair>, rules.ts) always, with its own
//     parameters, and no filtered pair of the same two geometries beside it;
//   - else the bitmasks (filter.ts), and never two geometries of one rigid
//     group (MuJoCo's weld body), nor of a parent and its child (with the
//     parent filter on, neither being the world), nor of an excluded body
//     pair (<contact><exclude>, by body, not by rigid group, as MuJoCo).
// "Parent and child" are two rigid groups that carry bodies joined by joints
// alone: an MJCF body with three hinges (the humanoid's hip) is three joints
// in series through frames with no body between them, one parent-child step.
import { ModelError } from '../errors.ts';
import type { Collider } from './collider.ts';
import { mayTouch, pairKey } from './filter.ts';
import { type ContactMaterial, type PairMaterial, effectiveMass, pairMaterial } from './material.ts';
import { narrowPhaseFor } from './narrow/collide.ts';
import type { ContactRules } from './rules.ts';
import type { SceneGeometry } from './scene.ts';

/** what the pair selection reads of the scene's geometries, index by index */
export interface PairInputs {
  readonly geometries: readonly SceneGeometry[];
  /** each geometry's rigid group */
  readonly group: readonly number[];
  /** each geometry's body path ("world" for the world), for exclusions and messages */
  readonly bodyPath: readonly string[];
  /** each geometry's body mass (Infinity: the world) */
  readonly mass: readonly number[];
  readonly colliders: readonly Collider[];
}

// (rigid groups joined by joints: [a, b] per joint, the groups that carry a body, the world's group) => pairKeys of the parent-child group pairs
export function parentChildPairs(joints: readonly (readonly [number, number])[], carriesBody: ReadonlySet<number>, world: number): Set<number> {
  const next = new Map<number, number[]>();
  for (const [a, b] of joints) {
    next.set(a, [...(next.get(a) ?? []), b]);
    next.set(b, [...(next.get(b) ?? []), a]);
  }
  const out = new Set<number>();
  for (const g of carriesBody) {
    if (g === world) continue;
    // walk through the groups with no body (frames between joints in series) to the next bodies
    const seen = new Set([g]),
      stack = [...(next.get(g) ?? [])];
    for (let h = stack.pop(); h !== undefined; h = stack.pop()) {
      if (seen.has(h)) continue;
      seen.add(h);
      if (carriesBody.has(h) || h === world) {
        if (h !== world) out.add(pairKey(g, h));
      } else stack.push(...(next.get(h) ?? []));
    }
  }
  return out;
}

// (the geometries, the parent-child group pairs, the mechanism's rules) => the pairs (i < j) that may touch and their parameters
export function selectPairs(
  inputs: PairInputs,
  adjacent: ReadonlySet<number>,
  rules: ContactRules,
  knownBodies: ReadonlySet<string>,
): { pairs: [number, number][]; materials: PairMaterial[] } {
  const { geometries, group, bodyPath, mass, colliders } = inputs;
  const explicit = explicitPairs(inputs, rules);
  for (const [a, b] of rules.exclude)
    for (const path of [a, b])
      if (!knownBodies.has(path))
        throw new ModelError(`contact exclusion ${a} / ${b}: ${path} is not a body of the mechanism`, {
          component: path,
          hint: `name bodies by path (one of ${[...knownBodies].slice(0, 6).join(', ')}${knownBodies.size > 6 ? ', ...' : ''}), "world" for the world`,
        });
  const excluded = new Set(rules.exclude.map(([a, b]) => (a < b ? `${a}\n${b}` : `${b}\n${a}`)));
  const isExcluded = (i: number, j: number) => {
    const [a, b] = [bodyPath[i], bodyPath[j]];
    return excluded.has(a < b ? `${a}\n${b}` : `${b}\n${a}`);
  };
  const pairs: [number, number][] = [],
    materials: PairMaterial[] = [];
  for (let i = 0; i < geometries.length; i++)
    for (let j = i + 1; j < geometries.length; j++) {
      const [a, b] = [geometries[i], geometries[j]];
      const own = explicit.get(pairKey(i, j));
      if (own === undefined) {
        if (!mayTouch(a.bits, b.bits, group[i], group[j], rules.filterParent ? adjacent : NONE) || isExcluded(i, j)) continue;
        if (a.shape.type === 'plane' && b.shape.type === 'plane') continue; // unbounded both: no contact point
      }
      if ((a.shape.type === 'plane' && b.shape.type === 'plane') || !narrowPhaseFor(a.shape.type, b.shape.type)) {
        throw new ModelError(`contact between ${a.name} (${a.shape.type}) and ${b.name} (${b.shape.type}) is not built yet`, {
          component: a.body >= 0 ? bodyPath[i] : bodyPath[j],
          hint: "the narrow phase has every pair of sphere, capsule, box, cylinder, convex and plane but plane-plane; keep this pair apart with contype/conaffinity bits (MuJoCo's: a pair touches when contype of one & conaffinity of the other is not 0)",
        });
      }
      const m = effectiveMass(mass[i], mass[j]);
      // an explicit pair's own parameters, else the importer's mixing, else material.ts's rule
      const given = own === undefined ? rules.mix?.(colliders[i], colliders[j]) : (own ?? undefined);
      pairs.push([i, j]);
      materials.push(given ? pairMaterial(given, undefined, m) : pairMaterial(colliders[i].material, colliders[j].material, m));
    }
  return { pairs, materials };
}

const NONE: ReadonlySet<number> = new Set();

// (the geometries, the rules) => each explicit pair's parameters (null: none given) by pairKey of its geometry indices
function explicitPairs(inputs: PairInputs, rules: ContactRules): Map<number, ContactMaterial | null> {
  const index = new Map(inputs.colliders.map((c, i) => [c, i]));
  const out = new Map<number, ContactMaterial | null>();
  const name = (c: Collider) => c.name ?? c.shape.type;
  for (const p of rules.pairs) {
    const [i, j] = [index.get(p.a), index.get(p.b)];
    if (i === undefined || j === undefined || i === j) {
      const what =
        i === undefined || j === undefined ? `${name(i === undefined ? p.a : p.b)} is not a collision geometry of the mechanism` : 'joins a geometry to itself';
      throw new ModelError(`explicit contact pair ${name(p.a)} / ${name(p.b)}: ${what}`, {
        hint: "give two of the mechanism's colliders (BodyOptions.collision, Mechanism.ground), as the objects given there",
      });
    }
    const key = pairKey(i, j);
    if (out.has(key))
      throw new ModelError(`explicit contact pair ${inputs.geometries[Math.min(i, j)].name} / ${inputs.geometries[Math.max(i, j)].name} is given twice`, {
        component: inputs.bodyPath[i],
        hint: 'give each pair once, with its parameters',
      });
    out.set(key, p.material ?? null);
  }
  return out;
}
