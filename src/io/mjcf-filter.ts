// Which of an MJCF file's geoms collide, and the file's contact rules put on
// the mechanism (Mechanism.contactRules, src/contact/rules.ts): the contact
// layer then selects pairs as MuJoCo does (src/contact/scene-pairs.ts) —
// the geoms' own contype and conaffinity, never two geoms of one body or of
// bodies welded together, nor of a parent and its child unless the file
// says <flag filterparent="disable"> (the world exempt; parent and child in
// the body tree: two bodies joined by an <equality> are not, mjcf-loops.ts), nor of a
// <contact><exclude> body pair; each <contact><pair> always, with its own
// parameters, the ones it does not give mixed from its geoms' as MuJoCo
// mixes them (mjcf-collision.ts), as every other pair's are.
import type { Collider } from '../contact/collider.ts';
import { ModelError } from '../errors.ts';
import type { Mechanism } from '../library/multibody/mechanism.ts';
import { materialOf, mixParameters, touch } from './mjcf-collision.ts';
import type { MjcfBody, MjcfGeom, MjcfRobot } from './mjcf-types.ts';

/** every geom of the file with the body it is on (undefined: the world) */
function geomsOf(robot: MjcfRobot): [MjcfGeom, MjcfBody | undefined][] {
  const out: [MjcfGeom, MjcfBody | undefined][] = robot.worldGeoms.map((g) => [g, undefined]);
  const stack = [...robot.bodies];
  for (let b = stack.pop(); b; b = stack.pop()) (out.push(...b.geoms.map((g): [MjcfGeom, MjcfBody] => [g, b])), stack.push(...b.children));
  return out;
}

// (robot) => the geoms that get a collider: those of an explicit pair, and those whose bitmasks meet another geom's on another body
export function collidedGeoms(robot: MjcfRobot): Set<MjcfGeom> {
  const all = geomsOf(robot).filter(([g]) => g.collides);
  const out = new Set<MjcfGeom>();
  for (const [g, b] of all) if (all.some(([h, c]) => c !== b && touch(g, h))) out.add(g);
  const named = new Map(geomsOf(robot).flatMap(([g]) => (g.name === undefined ? [] : [[g.name, g] as const])));
  for (const p of robot.contact.pairs)
    for (const name of [p.geom1, p.geom2]) {
      const g = named.get(name);
      if (!g)
        throw new ModelError(`MJCF ${p.at}: names geom "${name}", which the file does not have`, {
          hint: 'geom1 and geom2 name geoms of the file (their name attribute)',
        });
      out.add(g);
    }
  return out;
}

// (mechanism, robot, each MJCF body's Kron body path, each collider's geom, warnings) => mechanism.contactRules as the file says
export function applyContactRules(
  m: Mechanism,
  robot: MjcfRobot,
  paths: ReadonlyMap<MjcfBody, string>,
  geomOf: ReadonlyMap<Collider, MjcfGeom>,
  warnings: string[],
): void {
  const rules = m.contactRules;
  rules.filterParent = robot.contact.filterParent;
  const bodies = new Map<string, MjcfBody | 'world'>([['world', 'world']]);
  const stack = [...robot.bodies];
  for (let b = stack.pop(); b; b = stack.pop()) (b.name !== undefined && bodies.set(b.name, b), stack.push(...b.children));
  for (const e of robot.contact.exclude) {
    const [a, b] = [e.body1, e.body2].map((name) => {
      const body = bodies.get(name);
      if (!body)
        throw new ModelError(`MJCF ${e.at}: names body "${name}", which the file does not have`, {
          hint: 'body1 and body2 name bodies of the file, or "world"',
        });
      return body === 'world' ? 'world' : paths.get(body);
    });
    // a body with nothing to collide (no Kron body) has no pairs to exclude
    if (a !== undefined && b !== undefined) rules.exclude.push([a, b]);
  }
  const colliderOf = new Map([...geomOf].map(([c, g]) => [g, c]));
  for (const p of robot.contact.pairs) {
    const [g1, g2] = [p.geom1, p.geom2].map((name) => [...geomOf.values()].find((g) => g.name === name));
    const [a, b] = [g1 && colliderOf.get(g1), g2 && colliderOf.get(g2)];
    if (!a || !b || !g1 || !g2) {
      warnings.push(`contact pair ${p.geom1} / ${p.geom2} (${p.at}): ${!a ? p.geom1 : p.geom2} has no contact shape: not collided`);
      continue;
    }
    const mixed = mixParameters(g1, g2);
    const own = {
      condim: p.condim ?? mixed.condim,
      friction: p.friction ?? mixed.friction,
      solref: p.solref ?? mixed.solref,
      solimp: p.solimp ?? mixed.solimp,
    };
    rules.pairs.push({ a, b, material: materialOf(own, a.shape.type === 'box' || b.shape.type === 'box') });
  }
  // every filtered pair's parameters mixed as MuJoCo mixes them (a box on four corners: mjcf-solref.ts); a collider whose material was
  // changed after the import (a bench's fitted law) keeps its own, mixed by material.ts's rule
  const imported = new Map([...geomOf.keys()].map((c) => [c, c.material]));
  rules.mix = (a, b) => {
    const [g, h] = [geomOf.get(a), geomOf.get(b)];
    if (!g || !h || a.material !== imported.get(a) || b.material !== imported.get(b)) return undefined;
    return materialOf(mixParameters(g, h), a.shape.type === 'box' || b.shape.type === 'box');
  };
}
